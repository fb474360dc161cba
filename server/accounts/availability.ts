/**
 * Availability as the customer sees it: the share of its calls that Mboa did not fail in a
 * month, `used / (used + failed)`, from monthly_usage (calls answered 2xx, the quota's
 * count) and monthly_failures (answers that were Mboa's failures, never charged).
 * Enterprise is promised 99.9 %. What counts as a failure is `countsAgainstAvailability`,
 * written out in `AVAILABILITY_RULE` beside the figure (dashboard, `admin sla`).
 */
import type pg from 'pg';
import { isoDay, monthBounds } from './policy.js';

/** Enterprise's promise. */
export const SLA_TARGET = 0.999;

/**
 * Whether an answer is Mboa's failure: a 5xx, but not
 * - `valuations_warming_up`: an instance fitting its model after it started says when to
 *   come back (`Retry-After`), and the other endpoints answer meanwhile;
 * - a heavy read (api/costs.ts) stopped by its statement timeout: its own cost, which the
 *   customer chose (a smaller area, or fewer listings, answers);
 * and never a 4xx: a 429 of the customer's own per-minute limit, quota or cost caps is the
 * customer's. A cheap read timing out, the database unreachable or an internal error is Mboa's.
 */
export function countsAgainstAvailability(answer: { status: number; code: string; heavyReadTimedOut: boolean }): boolean {
  if (answer.status < 500) return false;
  if (answer.code === 'valuations_warming_up') return false;
  return !answer.heavyReadTimedOut;
}

/** The rule, in words, beside the figure (`admin sla`; the dashboard says it in its catalogue, in French and English). */
export const AVAILABILITY_RULE =
  "Availability = calls answered 2xx / (those + calls Mboa failed). Mboa's failures: 5xx answers (database unreachable, internal errors, a cheap read stopped at its time limit). Not failures: 4xx answers (the customer's per-minute limit, quota and heavy-read caps included), 503 valuations_warming_up (with Retry-After), a heavy read stopped at its time limit.";

export interface Availability {
  /** Calls answered 2xx (counted). */
  answered: number;
  /** Calls Mboa failed (5xx but those `countsAgainstAvailability` leaves out). */
  failed: number;
  /** answered / (answered + failed); null without any call. */
  ratio: number | null;
}

export const availabilityOf = (answered: number, failed: number): Availability => ({
  answered,
  failed,
  ratio: answered + failed === 0 ? null : answered / (answered + failed),
});

/** One account's month (`YYYY-MM`). */
export async function accountAvailability(pool: pg.Pool, accountId: string, month: string): Promise<Availability> {
  const day = isoDay(monthBounds(month).start);
  const { rows } = await pool.query<{ used: number; failed: number }>(
    `SELECT coalesce((SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date), 0)::int AS used,
            coalesce((SELECT failed FROM monthly_failures WHERE account_id = $1 AND month = $2::date), 0)::int AS failed`,
    [accountId, day],
  );
  return availabilityOf(rows[0].used, rows[0].failed);
}

/** Every Enterprise account's month, by e-mail. */
export async function enterpriseAvailability(
  pool: pg.Pool,
  month: string,
): Promise<Array<{ accountId: string; email: string } & Availability>> {
  const day = isoDay(monthBounds(month).start);
  const { rows } = await pool.query<{ id: string; email: string; used: number; failed: number }>(
    `SELECT a.id, a.email, coalesce(u.used, 0)::int AS used, coalesce(f.failed, 0)::int AS failed
     FROM accounts a
     LEFT JOIN monthly_usage u ON u.account_id = a.id AND u.month = $1::date
     LEFT JOIN monthly_failures f ON f.account_id = a.id AND f.month = $1::date
     WHERE a.plan = 'enterprise'
     ORDER BY a.email`,
    [day],
  );
  return rows.map((r) => ({ accountId: r.id, email: r.email, ...availabilityOf(r.used, r.failed) }));
}
