/**
 * Availability as the customer sees it: the share of its calls answered without a 5xx (503
 * included) in a month, `used / (used + failed)`, from monthly_usage (calls answered 2xx,
 * the quota's count) and monthly_failures (5xx answers, never charged). Enterprise is
 * promised 99.9 %. Calls refused with a 4xx are the caller's, and count on neither side.
 */
import type pg from 'pg';
import { isoDay, monthBounds } from './policy.js';

/** Enterprise's promise. */
export const SLA_TARGET = 0.999;

export interface Availability {
  /** Calls answered 2xx (counted). */
  answered: number;
  /** Calls answered 5xx or 503. */
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
