/** Plans: the table for everyone; switching plan for customers, with immediate effect. */
import type { Router } from 'express';
import { PLAN_NAMES, PLANS, type PlanName } from '../../../contract/plans.js';
import { AccountRuleError, changePlan, type KeyView, monthlyUsage } from '../../accounts/service.js';
import { type Dashboard, fieldOf, flash, handler, redirect, requireCsrf, requireSession, send, state, view } from '../context.js';
import { formatNumber } from '../format.js';
import { t } from '../i18n.js';
import { plansPage } from '../views/plans.js';

const isPlan = (v: unknown): v is PlanName => typeof v === 'string' && (PLAN_NAMES as readonly string[]).includes(v);

export function planRoutes(router: Router, d: Dashboard): void {
  router.get(
    '/plans',
    handler((req, res) => {
      const account = state(res).session?.account ?? null;
      send(res, 200, plansPage(view(d, req, res), { current: account?.plan ?? null }));
    }),
  );

  router.post(
    '/plans',
    requireSession(),
    requireCsrf(d),
    handler(async (req, res) => {
      const s = state(res);
      const account = s.session!.account;
      const target = fieldOf(req, 'plan');
      if (!isPlan(target)) {
        const v = view(d, req, res);
        v.notices.push({ kind: 'error', text: t(s.lang, 'error.plan') });
        return send(res, 422, plansPage(v, { current: account.plan }));
      }
      if (target === account.plan) {
        flash(req, res, 'notice.planSame', { plan: PLANS[target].label });
        return redirect(req, res, '/plans');
      }
      try {
        await changePlan(d.prisma, account.id, target, d.now());
      } catch (err) {
        if (err instanceof AccountRuleError && err.code === 'too_many_keys_for_plan') {
          const details = err.details as { maxKeys: number; activeKeys: KeyView[] };
          const message = t(s.lang, 'error.plan.tooManyKeys', {
            plan: PLANS[target].label,
            max: details.maxKeys,
            active: details.activeKeys.length,
            excess: details.activeKeys.length - details.maxKeys,
          });
          return send(res, 409, plansPage(view(d, req, res), { current: account.plan, refusal: { message, keys: details.activeKeys } }));
        }
        throw err;
      }
      const usage = await monthlyUsage(d.prisma, account.id, d.now());
      d.deps.logger.info({ account_id: account.id, from: account.plan, to: target }, 'dashboard: plan changed');
      flash(req, res, 'notice.planChanged', { plan: PLANS[target].label, used: formatNumber(s.lang, usage.used) });
      redirect(req, res, '/plans');
    }),
  );
}

