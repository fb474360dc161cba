/**
 * Billing arithmetic with fixed dates. The rule: each UTC day is charged 1/(days in the
 * month) of the price of the most expensive plan held that day; each run of days on one
 * plan is a line rounded half up; the month's total is the sum of its lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountStatements,
  chargedPlanForDay,
  monthlyStatements,
  type PlanChangeEntry,
  proratedAmount,
} from '../../server/accounts/billing.js';
import { changePlan } from '../../server/accounts/plan-changes.js';
import { type DashboardServer, signUp, startDashboardServer, textOf } from './helpers.js';

const at = (iso: string) => new Date(iso);
const change = (plan: PlanChangeEntry['plan'], iso: string): PlanChangeEntry => ({ plan, changedAt: at(iso) });

/** Opened on Starter 10 March 15:00; Pro and back to Starter on 20 March; Pro at the last instant of 15 April. */
const HISTORY = [
  change('starter', '2026-03-10T15:00:00Z'),
  change('pro', '2026-03-20T08:00:00Z'),
  change('starter', '2026-03-20T22:00:00Z'),
  change('pro', '2026-04-15T23:59:59.999Z'),
];
const NOW = at('2026-05-20T12:00:00Z');

describe('proration arithmetic', () => {
  it('rounds price × days / days-in-month half up, in whole francs', () => {
    expect(proratedAmount(50_000, 10, 31)).toBe(16_129); // 16 129.03
    expect(proratedAmount(250_000, 1, 31)).toBe(8_065); // 8 064.52
    expect(proratedAmount(250_000, 1, 30)).toBe(8_333); // 8 333.33
    expect(proratedAmount(5, 1, 2)).toBe(3); // 2.5 goes up
    expect(proratedAmount(1_000_000, 29, 29)).toBe(1_000_000);
  });

  it('charges each day at the most expensive plan held at any moment of it', () => {
    expect(chargedPlanForDay(HISTORY, at('2026-03-09T00:00:00Z'))).toBeNull(); // before sign-up
    expect(chargedPlanForDay(HISTORY, at('2026-03-10T00:00:00Z'))).toBe('starter'); // sign-up day, in full
    expect(chargedPlanForDay(HISTORY, at('2026-03-20T00:00:00Z'))).toBe('pro'); // Pro for 14 hours
    expect(chargedPlanForDay(HISTORY, at('2026-03-21T00:00:00Z'))).toBe('starter');
    expect(chargedPlanForDay(HISTORY, at('2026-04-15T00:00:00Z'))).toBe('pro'); // upgrade at 23:59:59.999
    expect(chargedPlanForDay(HISTORY, at('2026-04-14T00:00:00Z'))).toBe('starter');
  });

  it('states each month: lines per run of days, the total, and the changes dated', () => {
    const [may, april, march] = monthlyStatements(HISTORY, NOW);

    expect(march).toMatchObject({ month: '2026-03', daysInMonth: 31, status: 'closed', projectedTotalXaf: null });
    expect(march.lines).toEqual([
      { plan: 'starter', from: '2026-03-10', to: '2026-03-19', days: 10, monthlyPriceXaf: 50_000, amountXaf: 16_129 },
      { plan: 'pro', from: '2026-03-20', to: '2026-03-20', days: 1, monthlyPriceXaf: 250_000, amountXaf: 8_065 },
      { plan: 'starter', from: '2026-03-21', to: '2026-03-31', days: 11, monthlyPriceXaf: 50_000, amountXaf: 17_742 },
    ]);
    expect(march.totalXaf).toBe(41_936);
    expect(march.changes.map((c) => [c.plan, c.changedAt.toISOString()])).toEqual([
      ['starter', '2026-03-10T15:00:00.000Z'],
      ['pro', '2026-03-20T08:00:00.000Z'],
      ['starter', '2026-03-20T22:00:00.000Z'],
    ]);

    expect(april.lines).toEqual([
      { plan: 'starter', from: '2026-04-01', to: '2026-04-14', days: 14, monthlyPriceXaf: 50_000, amountXaf: 23_333 },
      { plan: 'pro', from: '2026-04-15', to: '2026-04-30', days: 16, monthlyPriceXaf: 250_000, amountXaf: 133_333 },
    ]);
    expect(april.totalXaf).toBe(156_666);
    expect(april.status).toBe('closed');

    // The current month is charged to date (today included) and projected to its end.
    expect(may).toMatchObject({ month: '2026-05', status: 'in_progress', totalXaf: 161_290, projectedTotalXaf: 250_000 });
    expect(may.lines).toEqual([
      { plan: 'pro', from: '2026-05-01', to: '2026-05-20', days: 20, monthlyPriceXaf: 250_000, amountXaf: 161_290 },
    ]);
    expect(may.changes).toEqual([]);
  });

  it('costs exactly the price for a whole month on one plan, February of a leap year included', () => {
    const history = [change('enterprise', '2028-01-31T23:00:00Z')];
    const [march, february] = monthlyStatements(history, at('2028-03-01T09:00:00Z'));
    expect(february).toMatchObject({ month: '2028-02', daysInMonth: 29, totalXaf: 1_000_000 });
    expect(february.lines).toHaveLength(1);
    expect(march).toMatchObject({ totalXaf: proratedAmount(1_000_000, 1, 31), projectedTotalXaf: 1_000_000 });
  });

  it('crosses a year end', () => {
    const statements = monthlyStatements(
      [change('pro', '2026-12-31T10:00:00Z'), change('starter', '2027-01-02T10:00:00Z')],
      at('2027-01-05T00:00:00Z'),
    );
    expect(statements.map((s) => s.month)).toEqual(['2027-01', '2026-12']);
    expect(statements[1].totalXaf).toBe(proratedAmount(250_000, 1, 31));
    // 1 January Pro, 2 January Pro (downgrade that day), 3 to 5 Starter.
    expect(statements[0].lines.map((l) => [l.plan, l.days])).toEqual([
      ['pro', 2],
      ['starter', 3],
    ]);
  });
});

describe('billing page', () => {
  let t: DashboardServer;
  beforeAll(async () => {
    t = await startDashboardServer({ now: () => NOW });
  });
  afterAll(() => t.close());

  it('lists each month from plan_changes, written by changePlan with fixed dates', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'starter' });
    // Move the account's opening to 10 March, then change plan as the history says.
    await t.db.prisma.planChange.updateMany({ where: { accountId }, data: { changedAt: HISTORY[0].changedAt } });
    await t.db.prisma.account.update({ where: { id: accountId }, data: { createdAt: HISTORY[0].changedAt } });
    for (const c of HISTORY.slice(1)) await changePlan(t.db.prisma, accountId, c.plan, c.changedAt);

    const statements = await accountStatements(t.db.prisma, accountId, NOW);
    expect(statements.map((s) => [s.month, s.totalXaf])).toEqual([
      ['2026-05', 161_290],
      ['2026-04', 156_666],
      ['2026-03', 41_936],
    ]);

    const page = await client.get('/dashboard/billing');
    expect(page.status).toBe(200);
    const totals = [...page.text.matchAll(/data-month="(\d{4}-\d{2})" data-total="(\d+)"/g)].map((m) => [m[1], Number(m[2])]);
    expect(totals).toEqual([
      ['2026-05', 161_290],
      ['2026-04', 156_666],
      ['2026-03', 41_936],
    ]);
    const text = textOf(page.text);
    expect(text).toContain('each day is charged 1/(days in the month) of the monthly price of the most expensive plan held that day');
    expect(text).toContain('156,666 FCFA');
    expect(text).toContain('250,000 × 16 / 30');
    expect(text).toContain('20 Mar 2026, 08:00 UTC: switched to Pro');
    expect(text).toContain('10 Mar 2026, 15:00 UTC: account opened on Starter');
    expect(text).toContain('Estimated for the whole month if you keep your plan: 250,000 FCFA');

    const french = textOf((await client.get('/dashboard/billing', { 'accept-language': 'fr' })).text);
    expect(french).toContain('Au prorata des jours (UTC)');
    expect(french).toContain('156 666 FCFA'); // narrow no-break space, as French writes it
  });
});
