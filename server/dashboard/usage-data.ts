/**
 * Usage analytics from daily_usage (calls per day, endpoint and key), which the API writes
 * in the same statement as monthly_usage: the figures here are the ones it counted.
 */
import type pg from 'pg';
import { isoDay, monthBounds } from '../accounts/policy.js';
import { monthDeliveries } from '../accounts/webhook-cap.js';
import type { DayCalls } from './views/chart.js';

export interface MonthUsage {
  /** `YYYY-MM` */
  month: string;
  /** monthly_usage.used: the quota's count. */
  used: number;
  /** Every day of the month, zero when no call was counted. */
  days: DayCalls[];
  endpoints: Array<{ endpoint: string; calls: number }>;
  keys: Array<{ keyId: string; name: string | null; prefix: string | null; revoked: boolean; calls: number }>;
  /**
   * Webhook deliveries queued in the month to the account's endpoints: each event once per
   * endpoint, whatever its retries or resends; test events aside. Never in `used`.
   */
  /** Webhook deliveries queued this month against the plan's cap, and those held past it. */
  webhookDeliveries: { deliveries: number; overCap: number };
}

export async function monthUsage(pool: pg.Pool, accountId: string, month: string): Promise<MonthUsage> {
  const { start, end } = monthBounds(month);
  const range = [accountId, isoDay(start), isoDay(end)];
  const [used, perDay, perEndpoint, perKey, deliveries] = await Promise.all([
    pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date', [accountId, isoDay(start)]),
    pool.query<{ day: string; calls: number }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(calls)::int AS calls FROM daily_usage
       WHERE account_id = $1 AND day >= $2::date AND day < $3::date GROUP BY day ORDER BY day`,
      range,
    ),
    pool.query<{ endpoint: string; calls: number }>(
      `SELECT endpoint, sum(calls)::int AS calls FROM daily_usage
       WHERE account_id = $1 AND day >= $2::date AND day < $3::date GROUP BY endpoint HAVING sum(calls) > 0 ORDER BY calls DESC, endpoint`,
      range,
    ),
    pool.query<{ key_id: string; name: string | null; prefix: string | null; revoked: boolean; calls: number }>(
      `SELECT d.api_key_id AS key_id, k.name, k.prefix, (k.revoked_at IS NOT NULL) AS revoked, sum(d.calls)::int AS calls
       FROM daily_usage d LEFT JOIN api_keys k ON k.id = d.api_key_id
       WHERE d.account_id = $1 AND d.day >= $2::date AND d.day < $3::date
       GROUP BY d.api_key_id, k.name, k.prefix, k.revoked_at HAVING sum(d.calls) > 0 ORDER BY calls DESC, k.name`,
      range,
    ),
    monthDeliveries(pool, accountId, start),
  ]);
  const byDay = new Map(perDay.rows.map((r) => [r.day, r.calls]));
  const days: DayCalls[] = [];
  for (let d = new Date(start); d < end; d = new Date(d.getTime() + 86_400_000)) {
    days.push({ day: isoDay(d), calls: byDay.get(isoDay(d)) ?? 0 });
  }
  return {
    month,
    used: used.rows[0]?.used ?? 0,
    days,
    endpoints: perEndpoint.rows,
    keys: perKey.rows.map((r) => ({ keyId: r.key_id, name: r.name, prefix: r.prefix, revoked: r.revoked === true, calls: r.calls })),
    webhookDeliveries: deliveries,
  };
}
