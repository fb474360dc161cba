/**
 * Plans: the table for everyone; switching between the self-serve plans for customers, with
 * immediate effect. Enterprise is never switched to from here: it is sold by contract.
 */
import type { Request, Response, Router } from 'express';
import { PLAN_NAMES, PLANS, type PlanName } from '../../../contract/plans.js';
import { AccountRuleError } from '../../accounts/errors.js';
import { changePlan, selfServePlansFor } from '../../accounts/plan-changes.js';
import { monthlyUsage } from '../../accounts/usage.js';
import { type KeyView } from '../../accounts/views.js';
import type { Dashboard } from '../context.js';
import { requireActive, requireCsrf, requireSession } from '../guards.js';
import { flash, state } from '../request-state.js';
import { fieldOf, handler, redirect, send, view } from '../respond.js';
import { formatNumber } from '../../platform/format.js';
import { type MessageKey, t } from '../i18n.js';
import { plansPage, type PlansPageModel } from '../views/plans.js';

const isPlan = (v: unknown): v is PlanName => typeof v === 'string' && (PLAN_NAMES as readonly string[]).includes(v);

export function planRoutes(router: Router, d: Dashboard): void {
  const render = (req: Request, res: Response, status: number, o: { error?: MessageKey; refusal?: PlansPageModel['refusal'] } = {}) => {
    const account = state(res).session?.account ?? null;
    const now = d.now();
    const v = view(d, req, res);
    if (o.error) v.notices.push({ kind: 'error', text: t(v.lang, o.error) });
    const switchable = account && account.status === 'active' ? selfServePlansFor(account, now) : [];
    const model = { current: account?.plan ?? null, switchable, refusal: o.refusal };
    send(res, status, plansPage(v, model, now));
  };

  router.get(
    '/plans',
    handler((req, res) => render(req, res, 200)),
  );

  router.post(
    '/plans',
    requireSession(),
    requireCsrf(d),
    requireActive(d),
    handler(async (req, res) => {
      const s = state(res);
      const account = s.session!.account;
      const target = fieldOf(req, 'plan');
      if (!isPlan(target)) return render(req, res, 422, { error: 'error.plan' });
      if (target === account.plan) {
        flash(req, res, 'notice.planSame', { plan: PLANS[target].label });
        return redirect(req, res, '/plans');
      }
      try {
        await changePlan(d.prisma, account.id, target, d.now(), { by: 'customer' });
      } catch (err) {
        if (!(err instanceof AccountRuleError)) throw err;
        if (err.code === 'contract_required') {
          d.deps.logger.info({ account_id: account.id, to: target }, 'dashboard: contract plan refused');
          return render(req, res, err.status, { error: 'error.plan.contract' });
        }
        if (err.code === 'contract_in_force') return render(req, res, err.status, { error: 'error.plan.inForce' });
        if (err.code === 'too_many_keys_for_plan') {
          const details = err.details as { maxKeys: number; activeKeys: KeyView[] };
          const message = t(s.lang, 'error.plan.tooManyKeys', {
            plan: PLANS[target].label,
            max: details.maxKeys,
            active: details.activeKeys.length,
            excess: details.activeKeys.length - details.maxKeys,
          });
          return render(req, res, err.status, { refusal: { message, keys: details.activeKeys } });
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
