/**
 * Admission in PostgreSQL (the functions of the usage_admission migration), for servers
 * without Redis and for any server while its Redis is unreachable. Same rules and the same
 * answers as the Redis store, exact across instances through row locks, at the price of
 * two database round trips per counted call (admission, then the count).
 */
import type pg from 'pg';
import type { AdmitCode } from './admission-redis.js';

export interface PgAdmitInput {
  accountId: string;
  /** Whose per-minute window (test keys count apart from live calls). */
  rateScope: 'live' | 'test';
  /** `YYYY-MM-DD` of the quota month's first day. */
  month: string;
  counted: boolean;
  quota: number | null;
  rate: number | null;
  holdId: string;
  now: Date;
  holdTtlMs: number;
  windowStart: Date;
}

const ADMIT_SQL =
  'SELECT status, rate_calls, used, pending FROM mboa_admit($1, $2::date, $3, $4, $5, $6, make_interval(secs => $7), $8, $9)';
const COMMIT_SQL = 'SELECT mboa_commit($1, $2, $3::date, $4::date, $5, $6) AS used';
/** The same, again after a failure: only while the call's slot is there (the first try may have been written). */
const COMMIT_HELD_SQL = 'SELECT mboa_commit($1, $2, $3::date, $4::date, $5, $6) AS used FROM quota_holds WHERE id = $1';

export class PostgresAdmissionStore {
  constructor(private readonly pool: pg.Pool) {}

  async admit(input: PgAdmitInput): Promise<{ code: AdmitCode; rateCount: number; used: number; pending: number }> {
    const { rows } = await this.pool.query<{ status: number; rate_calls: number; used: number | null; pending: number }>(ADMIT_SQL, [
      input.accountId,
      input.month,
      input.quota,
      input.counted,
      input.holdId,
      input.now,
      input.holdTtlMs / 1000,
      input.rate,
      input.windowStart,
    ]);
    const r = rows[0];
    return { code: r.status as AdmitCode, rateCount: r.rate_calls, used: r.used ?? -1, pending: r.pending };
  }

  /** Counts a call; `retry` after a failed try: then null when its slot is gone (it was counted). */
  async commit(
    input: { accountId: string; month: string; day: string; endpoint: string; keyId: string; holdId: string | null },
    retry = false,
  ): Promise<number | null> {
    const sql = retry && input.holdId !== null ? COMMIT_HELD_SQL : COMMIT_SQL;
    const { rows } = await this.pool.query<{ used: number }>(sql, [
      input.holdId,
      input.accountId,
      input.month,
      input.day,
      input.endpoint,
      input.keyId,
    ]);
    return rows[0]?.used ?? null;
  }

  async release(holdId: string): Promise<void> {
    await this.pool.query('DELETE FROM quota_holds WHERE id = $1', [holdId]);
  }

  async peek(accountId: string, month: string, now: Date): Promise<{ used: number; pending: number }> {
    const { rows } = await this.pool.query<{ used: number; pending: number }>(
      `SELECT coalesce((SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date), 0) AS used,
              (SELECT count(*)::int FROM quota_holds WHERE account_id = $1 AND month = $2::date AND expires_at > $3) AS pending`,
      [accountId, month, now],
    );
    return rows[0];
  }

  /** Calls in a per-minute window. */
  async rateCalls(accountId: string, windowStart: Date): Promise<number> {
    const { rows } = await this.pool.query<{ calls: number }>(
      'SELECT calls FROM rate_windows WHERE account_id = $1 AND window_start = $2',
      [accountId, windowStart],
    );
    return rows[0]?.calls ?? 0;
  }

  /** Raises a per-minute window to at least `calls` (the count Redis had when it was lost). */
  async raiseRate(accountId: string, windowStart: Date, calls: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO rate_windows AS w (account_id, window_start, calls) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, window_start) DO UPDATE SET calls = greatest(w.calls, EXCLUDED.calls)`,
      [accountId, windowStart, calls],
    );
  }

  async used(accountId: string, month: string): Promise<number> {
    const { rows } = await this.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date', [
      accountId,
      month,
    ]);
    return rows[0]?.used ?? 0;
  }

  /** Old windows and holds of calls that never came back: kept small for the functions' scans. */
  async sweep(now: Date): Promise<void> {
    await this.pool.query("DELETE FROM rate_windows WHERE window_start < $1::timestamptz - interval '5 minutes'", [now]);
    await this.pool.query('DELETE FROM quota_holds WHERE expires_at < $1', [now]);
  }
}
