/** Home, usage analytics and billing: the pages that read the account's figures. */
import type { Router } from 'express';
import { PLANS } from '../../../contract/plans.js';
import { accountStatements } from '../../accounts/billing.js';
import { monthStart } from '../../accounts/quota-month.js';
import { countActiveKeys, monthlyUsage } from '../../accounts/service.js';
import { type Dashboard, handler, requireSession, send, state, view } from '../context.js';
import { formatMonth } from '../format.js';
import { t } from '../i18n.js';
import { monthUsage } from '../usage-data.js';
import { billingPage } from '../views/billing.js';
import { homePage } from '../views/home.js';
import { usagePage } from '../views/usage.js';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const monthKey = (d: Date) => d.toISOString().slice(0, 7);

function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number);
  return monthKey(new Date(Date.UTC(y, m - 1 + by, 1)));
}

export function overviewRoutes(router: Router, d: Dashboard): void {
  router.get(
    '/',
    requireSession(),
    handler(async (req, res) => {
      const account = state(res).session!.account;
      const now = d.now();
      const [usage, activeKeys] = await Promise.all([monthlyUsage(d.prisma, account.id, now), countActiveKeys(d.prisma, account.id, now)]);
      res.setHeader('Cache-Control', 'no-store');
      send(res, 200, homePage(view(d, req, res), { usage, activeKeys, company: account.companyName ?? account.email }));
    }),
  );

  router.get(
    '/usage',
    requireSession(),
    handler(async (req, res) => {
      const s = state(res);
      const account = s.session!.account;
      const current = monthKey(monthStart(d.now()));
      const first = monthKey(monthStart(account.createdAt));
      let month = current;
      let status = 200;
      const asked = req.query.month;
      if (asked !== undefined) {
        if (typeof asked === 'string' && MONTH.test(asked) && asked >= first && asked <= current) {
          month = asked;
        } else {
          status = 400;
          s.notices.push({
            kind: 'error',
            text: t(s.lang, 'error.month', { from: `${first} (${formatMonth(s.lang, first)})`, to: `${current} (${formatMonth(s.lang, current)})` }),
          });
        }
      }
      const analytics = PLANS[account.plan].usageAnalytics;
      const figures = await monthUsage(d.deps.pool, account.id, month);
      // Starter sees its month's count and an invitation; the breakdown is Pro's.
      const usage = analytics ? figures : { ...figures, days: [], endpoints: [], keys: [] };
      const prev = analytics && month > first ? shiftMonth(month, -1) : null;
      const next = analytics && month < current ? shiftMonth(month, 1) : null;
      res.setHeader('Cache-Control', 'no-store');
      send(res, status, usagePage(view(d, req, res), { plan: account.plan, usage, prev, next }));
    }),
  );

  router.get(
    '/billing',
    requireSession(),
    handler(async (req, res) => {
      const account = state(res).session!.account;
      const now = d.now();
      const statements = await accountStatements(d.prisma, account.id, now);
      res.setHeader('Cache-Control', 'no-store');
      send(res, 200, billingPage(view(d, req, res), { statements, now }));
    }),
  );
}
