/**
 * Admission in PostgreSQL (the functions of the usage_admission migration), for servers
 * without Redis and for any server while its Redis is unreachable. Same rules and the same
 * answers as the Redis store, exact across instances through row locks, at the price of
 * two database round trips per counted call (admission, then the count).
 *
 * Test keys' and pings' per-minute windows are rows of rate_windows under account ids of
 * their own (`{account}#test`, `{account}#ping`); the month's count is monthly_usage, the slots held are quota_holds.
 */
import type pg from 'pg';
import { isDatabaseUnavailable } from '../platform/errors.js';
import {
  type AdmissionStore,
  type AdmitAnswer,
  type AdmitCode,
  type AdmitInput,
  type AnsweredCall,
  type HeldSlot,
  type QuotaNow,
  type RateScope,
  windowStart,
} from './store.js';

const ADMIT_SQL =
  'SELECT status, rate_calls, used, pending FROM mboa_admit($1, $2::date, $3, $4, $5, $6, make_interval(secs => $7), $8, $9)';
const COMMIT_SQL = 'SELECT mboa_commit($1, $2, $3::date, $4::date, $5, $6) AS used';
/** The same, again after a failure: only while the call's slot is there (the first try may have been written). */
const COMMIT_HELD_SQL = 'SELECT mboa_commit($1, $2, $3::date, $4::date, $5, $6) AS used FROM quota_holds WHERE id = $1';
const PEEK_SQL = `SELECT coalesce((SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date), 0) AS used,
       (SELECT count(*)::int FROM quota_holds WHERE account_id = $1 AND month = $2::date AND expires_at > $3) AS pending`;

/** How long the count of an answered call is tried again while PostgreSQL is unreachable. */
const COUNT_RETRY_MS = 30_000;

/** The row of rate_windows that holds a window. */
const rateAccount = (accountId: string, rateScope: RateScope) => (rateScope === 'live' ? accountId : `${accountId}#${rateScope}`);

export class PostgresStore implements AdmissionStore {
  constructor(private readonly pool: pg.Pool) {}

  /** `seed` and `lease` do not apply: PostgreSQL is where the month's count is kept, and it leases nothing. */
  async admit(input: AdmitInput): Promise<AdmitAnswer> {
    // Test keys and pings: their own per-minute window, nothing counted; the quota shown is the account's, as it stands.
    const test = input.rateScope !== 'live';
    const now = new Date(input.nowMs);
    const { rows } = await this.pool.query<{ status: number; rate_calls: number; used: number | null; pending: number }>(ADMIT_SQL, [
      rateAccount(input.accountId, input.rateScope),
      input.month,
      test ? null : input.quota,
      test ? false : input.counted,
      input.holdId,
      now,
      input.holdTtlMs / 1000,
      input.rate,
      new Date(windowStart(input.nowMs)),
    ]);
    const r = rows[0];
    const answer = {
      code: r.status as AdmitCode,
      store: 'postgres' as const,
      rateCount: r.rate_calls,
      used: r.used ?? -1,
      pending: r.pending,
    };
    if (!test) return answer;
    const quota = await this.peek(input.accountId, input.month, input.nowMs);
    return { ...answer, used: quota.used, pending: quota.pending };
  }

  /**
   * Counts an answered call (its slot freed, when held here). While PostgreSQL is
   * unreachable the count is tried again, for up to COUNT_RETRY_MS, not dropped. A retry of
   * a call holding a slot counts only while the slot is still there, since the first try
   * may have been written before its reply was lost: null then means already counted.
   */
  async count(call: AnsweredCall): Promise<number | null> {
    const params = [call.store === 'postgres' ? call.holdId : null, call.accountId, call.month, call.day, call.endpoint, call.keyId];
    const giveUpAt = Date.now() + COUNT_RETRY_MS;
    for (let retry = false, delay = 100; ; retry = true, delay = Math.min(delay * 2, 2_000)) {
      try {
        const { rows } = await this.pool.query<{ used: number }>(retry && params[0] !== null ? COMMIT_HELD_SQL : COMMIT_SQL, params);
        return rows[0]?.used ?? null;
      } catch (err) {
        if (!isDatabaseUnavailable(err) || Date.now() + delay > giveUpAt) throw err;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  async release(slot: HeldSlot): Promise<void> {
    await this.pool.query('DELETE FROM quota_holds WHERE id = $1', [slot.holdId]);
  }

  async peek(accountId: string, month: string, nowMs: number): Promise<QuotaNow> {
    const { rows } = await this.pool.query<QuotaNow>(PEEK_SQL, [accountId, month, new Date(nowMs)]);
    return rows[0];
  }

  /** The month's count (0 when none yet). */
  async used(accountId: string, month: string): Promise<number> {
    const { rows } = await this.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date', [
      accountId,
      month,
    ]);
    return rows[0]?.used ?? 0;
  }

  /** Calls in this minute's window of an account (and scope). */
  async rateCalls(accountId: string, rateScope: RateScope, nowMs: number): Promise<number> {
    const { rows } = await this.pool.query<{ calls: number }>(
      'SELECT calls FROM rate_windows WHERE account_id = $1 AND window_start = $2',
      [rateAccount(accountId, rateScope), new Date(windowStart(nowMs))],
    );
    return rows[0]?.calls ?? 0;
  }

  /** Raises this minute's window of an account (and scope) to at least `calls` (the count Redis had when it was lost). */
  async raiseRate(accountId: string, rateScope: RateScope, nowMs: number, calls: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO rate_windows AS w (account_id, window_start, calls) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, window_start) DO UPDATE SET calls = greatest(w.calls, EXCLUDED.calls)`,
      [rateAccount(accountId, rateScope), new Date(windowStart(nowMs)), calls],
    );
  }

  /** Old windows and holds of calls that never came back: kept small for the functions' scans. */
  async sweep(now: Date): Promise<void> {
    await this.pool.query("DELETE FROM rate_windows WHERE window_start < $1::timestamptz - interval '5 minutes'", [now]);
    await this.pool.query('DELETE FROM quota_holds WHERE expires_at < $1', [now]);
  }
}
