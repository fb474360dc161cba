/** Home, usage analytics and billing: the pages that read the account's figures. */
import type { Router } from 'express';
import { PLANS } from '../../../contract/plans.js';
import { accountStatements } from '../../accounts/billing.js';
import { renderInvoicePdf } from '../../billing/invoice-pdf.js';
import { findInvoice, invoiceView, listInvoices } from '../../billing/invoices.js';
import { isMonthKey, monthKey, monthStart, shiftMonth } from '../../accounts/policy.js';
import { countActiveKeys } from '../../accounts/keys.js';
import { monthlyUsage } from '../../accounts/usage.js';
import type { Dashboard } from '../context.js';
import { requireSession } from '../guards.js';
import { state } from '../request-state.js';
import { handler, send, view } from '../respond.js';
import { formatMonth } from '../../platform/format.js';
import { t } from '../i18n.js';
import { monthUsage } from '../usage-data.js';
import { accountAvailability } from '../../accounts/availability.js';
import { billingPage } from '../views/billing.js';
import { notFoundPage } from '../views/errors.js';
import { homePage } from '../views/home.js';
import { usagePage } from '../views/usage.js';

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
        if (typeof asked === 'string' && isMonthKey(asked) && asked >= first && asked <= current) {
          month = asked;
        } else {
          status = 400;
          s.notices.push({
            kind: 'error',
            text: t(s.lang, 'error.month', {
              from: `${first} (${formatMonth(s.lang, first)})`,
              to: `${current} (${formatMonth(s.lang, current)})`,
            }),
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
      // Enterprise is promised 99.9 %: its month's availability, as the SLA reads it.
      const availability = account.plan === 'enterprise' ? await accountAvailability(d.deps.pool, account.id, month) : null;
      send(res, status, usagePage(view(d, req, res), { plan: account.plan, usage, availability, prev, next }));
    }),
  );

  router.get(
    '/billing',
    requireSession(),
    handler(async (req, res) => {
      const account = state(res).session!.account;
      const now = d.now();
      const [statements, invoices] = await Promise.all([
        accountStatements(d.prisma, account.id, now),
        listInvoices(d.prisma, { accountId: account.id }, now),
      ]);
      res.setHeader('Cache-Control', 'no-store');
      send(res, 200, billingPage(view(d, req, res), { statements, invoices, now }));
    }),
  );

  // An invoice as PDF, in the page's language; only the account's own.
  router.get(
    '/billing/invoices/:number',
    requireSession(),
    handler(async (req, res) => {
      const account = state(res).session!.account;
      const number = /^\d{1,9}$/.test(req.params.number) ? Number(req.params.number) : null;
      const row = number === null ? null : await findInvoice(d.prisma, number);
      if (!row || row.accountId !== account.id) return send(res, 404, notFoundPage(view(d, req, res)));
      const invoice = invoiceView(row, d.now());
      const pdf = await renderInvoicePdf(invoice, state(res).lang);
      res.setHeader('Cache-Control', 'private, no-store');
      res.setHeader('Content-Disposition', `attachment; filename="${invoice.display_number}.pdf"`);
      res.type('application/pdf').send(pdf);
    }),
  );
}
