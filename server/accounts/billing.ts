/**
 * Monthly statements, computed from the plans an account held (plan_changes).
 *
 * Proration rule, by day (UTC): each calendar day is charged 1/(days in the month) of
 * the monthly price of the most expensive plan held at any moment of that day. So an
 * upgrade is charged from the day it happens, a downgrade from the day after; the day
 * of sign-up is charged in full. Consecutive days on the same plan make one line, each
 * line rounded to the nearest franc (half up); the month's total is the sum of its lines.
 * A month held whole on one plan costs exactly that plan's price. A closed account is
 * charged up to its closing day, included, and no more.
 *
 * Payment collection is elsewhere; these are the figures an invoice states.
 */
import { PLANS, type PlanName } from '../../contract/plans.js';
import type { Prisma } from '../platform/db.js';
import { DAY_MS, daysInMonth, isoDay } from './policy.js';

export interface PlanChangeEntry {
  plan: PlanName;
  changedAt: Date;
}

export interface StatementLine {
  plan: PlanName;
  /** First and last day charged on this line, `YYYY-MM-DD` (UTC), both included. */
  from: string;
  to: string;
  days: number;
  /** The plan's monthly price, for the invoice's "price × days / days in month". */
  monthlyPriceXaf: number;
  amountXaf: number;
}

export interface MonthStatement {
  /** `YYYY-MM` */
  month: string;
  daysInMonth: number;
  /** `closed` once the month is over; `in_progress` for the current month (charged to date). */
  status: 'closed' | 'in_progress';
  lines: StatementLine[];
  totalXaf: number;
  /** Plan changes made during the month, dated. */
  changes: PlanChangeEntry[];
  /** Current month only: the total at month end if the plan is kept. */
  projectedTotalXaf: number | null;
}

/** price × days / daysInMonth, rounded half up, in integers. */
export function proratedAmount(monthlyPrice: number, days: number, daysInMonth: number): number {
  return Math.floor((2 * monthlyPrice * days + daysInMonth) / (2 * daysInMonth));
}

/** The plan charged for the day starting at `dayStart`, or null if the account did not exist yet. */
export function chargedPlanForDay(changes: readonly PlanChangeEntry[], dayStart: Date): PlanName | null {
  const start = dayStart.getTime();
  const end = start + DAY_MS;
  let held: PlanName | null = null;
  const during: PlanName[] = [];
  for (const c of changes) {
    const at = c.changedAt.getTime();
    if (at <= start) held = c.plan;
    else if (at < end) during.push(c.plan);
    else break;
  }
  const candidates = held ? [held, ...during] : during;
  if (candidates.length === 0) return null;
  return candidates.reduce((best, p) => (PLANS[p].priceXafPerMonth > PLANS[best].priceXafPerMonth ? p : best));
}

/** Lines for the days of one month from day 1 up to `lastDay` (included), none after a closure. */
function linesFor(
  changes: readonly PlanChangeEntry[],
  year: number,
  month: number,
  lastDay: number,
  closedAt: Date | null,
): StatementLine[] {
  const dim = daysInMonth(year, month);
  const runs: Array<{ plan: PlanName; from: Date; to: Date; days: number }> = [];
  for (let d = 1; d <= lastDay; d++) {
    const dayStart = new Date(Date.UTC(year, month, d));
    if (closedAt && dayStart.getTime() > closedAt.getTime()) break;
    const plan = chargedPlanForDay(changes, dayStart);
    if (!plan) continue;
    const last = runs[runs.length - 1];
    if (last && last.plan === plan && last.to.getTime() + DAY_MS === dayStart.getTime()) {
      last.to = dayStart;
      last.days++;
    } else {
      runs.push({ plan, from: dayStart, to: dayStart, days: 1 });
    }
  }
  return runs.map((r) => ({
    plan: r.plan,
    from: isoDay(r.from),
    to: isoDay(r.to),
    days: r.days,
    monthlyPriceXaf: PLANS[r.plan].priceXafPerMonth,
    amountXaf: proratedAmount(PLANS[r.plan].priceXafPerMonth, r.days, dim),
  }));
}

const sum = (lines: StatementLine[]) => lines.reduce((s, l) => s + l.amountXaf, 0);

/**
 * Every month from the first plan change to the month of `now`, newest first. The
 * current month is charged up to and including today.
 */
export function monthlyStatements(history: readonly PlanChangeEntry[], now: Date, closedAt: Date | null = null): MonthStatement[] {
  const changes = [...history].sort((a, b) => a.changedAt.getTime() - b.changedAt.getTime());
  if (changes.length === 0) return [];
  const first = changes[0].changedAt;
  const statements: MonthStatement[] = [];
  let year = first.getUTCFullYear();
  let month = first.getUTCMonth();
  // A closed account's statements end with its closing month.
  const end = closedAt && closedAt < now ? closedAt : now;
  const endYear = end.getUTCFullYear();
  const endMonth = end.getUTCMonth();
  while (year < endYear || (year === endYear && month <= endMonth)) {
    const dim = daysInMonth(year, month);
    const current = year === now.getUTCFullYear() && month === now.getUTCMonth();
    const lines = linesFor(changes, year, month, current ? now.getUTCDate() : dim, closedAt);
    const monthStartMs = Date.UTC(year, month, 1);
    const monthEndMs = Date.UTC(year, month + 1, 1);
    statements.push({
      month: `${year}-${String(month + 1).padStart(2, '0')}`,
      daysInMonth: dim,
      status: current ? 'in_progress' : 'closed',
      lines,
      totalXaf: sum(lines),
      changes: changes.filter((c) => c.changedAt.getTime() >= monthStartMs && c.changedAt.getTime() < monthEndMs),
      projectedTotalXaf: current && !closedAt ? sum(linesFor(changes, year, month, dim, null)) : null,
    });
    month++;
    if (month === 12) {
      month = 0;
      year++;
    }
  }
  return statements.reverse();
}

/** An account's statements, from its plan history (or its plan since creation, if it has none). */
export async function accountStatements(prisma: Prisma, accountId: string, now = new Date()): Promise<MonthStatement[]> {
  const [account, changes] = await Promise.all([
    prisma.account.findUnique({ where: { id: accountId }, select: { plan: true, createdAt: true, closedAt: true } }),
    prisma.planChange.findMany({
      where: { accountId },
      orderBy: [{ changedAt: 'asc' }, { id: 'asc' }],
      select: { plan: true, changedAt: true },
    }),
  ]);
  if (!account) return [];
  const history: PlanChangeEntry[] = changes.length > 0 ? changes : [{ plan: account.plan, changedAt: account.createdAt }];
  return monthlyStatements(history, now, account.closedAt);
}
