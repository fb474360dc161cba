/**
 * The monthly count, exact under concurrency and across server instances: a counted call
 * takes its place with one atomic upsert that refuses to pass the quota, and gives it back
 * if its answer is not 2xx (errors are never charged). The per-day, per-endpoint, per-key
 * breakdown moves in the same statement, so the two never disagree.
 */
import type pg from 'pg';
import { isoDay, monthStart } from '../accounts/quota-month.js';

export interface Reservation {
  accountId: string;
  keyId: string;
  endpoint: string;
  month: string;
  day: string;
  released: boolean;
}

const RESERVE_SQL = `
WITH month AS (
  INSERT INTO monthly_usage (account_id, month, used) VALUES ($1, $3::date, 1)
  ON CONFLICT (account_id, month) DO UPDATE SET used = monthly_usage.used + 1
    WHERE $6::int IS NULL OR monthly_usage.used < $6::int
  RETURNING used
), day AS (
  INSERT INTO daily_usage (account_id, day, endpoint, api_key_id, calls)
  SELECT $1, $4::date, $5, $2, 1 FROM month
  ON CONFLICT (account_id, day, endpoint, api_key_id) DO UPDATE SET calls = daily_usage.calls + 1
)
SELECT used FROM month`;

const RELEASE_SQL = `
WITH day AS (
  UPDATE daily_usage SET calls = calls - 1
  WHERE account_id = $1 AND day = $4::date AND endpoint = $5 AND api_key_id = $2 AND calls > 0
)
UPDATE monthly_usage SET used = used - 1
WHERE account_id = $1 AND month = $3::date AND used > 0
RETURNING used`;

export class UsageMeter {
  constructor(private readonly pool: pg.Pool) {}

  /** Counts one call, unless the quota is reached: then `reservation` is null. */
  async reserve(input: {
    accountId: string;
    keyId: string;
    endpoint: string;
    limit: number | null;
    now: Date;
  }): Promise<{ used: number; reservation: Reservation | null }> {
    const month = isoDay(monthStart(input.now));
    const day = isoDay(input.now);
    const { rows } = await this.pool.query<{ used: number }>(RESERVE_SQL, [
      input.accountId, input.keyId, month, day, input.endpoint, input.limit,
    ]);
    if (rows.length === 0) return { used: await this.used(input.accountId, input.now), reservation: null };
    return {
      used: rows[0].used,
      reservation: { accountId: input.accountId, keyId: input.keyId, endpoint: input.endpoint, month, day, released: false },
    };
  }

  /** Gives a reserved call back; returns the count after. Idempotent. */
  async release(r: Reservation): Promise<number | null> {
    if (r.released) return null;
    r.released = true;
    const { rows } = await this.pool.query<{ used: number }>(RELEASE_SQL, [r.accountId, r.keyId, r.month, r.day, r.endpoint]);
    return rows[0]?.used ?? null;
  }

  async used(accountId: string, now: Date): Promise<number> {
    const { rows } = await this.pool.query<{ used: number }>(
      'SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date',
      [accountId, isoDay(monthStart(now))],
    );
    return rows[0]?.used ?? 0;
  }
}
