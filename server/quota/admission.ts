/**
 * Admission of an API call for its account: the per-minute limit, then the monthly quota.
 * A counted call holds a slot of the quota while in flight, and is counted only once its
 * answer was written with a 2xx status (`settle`); any other end frees the slot. So:
 * - the count is exact: concurrent calls on any number of instances never pass the quota;
 * - an error, a cut connection or a shutdown never charges a call;
 * - nobody is refused `quota_exceeded` while quota remains: when only slots held by calls
 *   in flight stand in the way, the call waits for them to settle (they may fail and free
 *   their slot) instead of being refused.
 *
 * Where: Redis when configured and reachable (a round trip before the handler shared by
 * the calls of one event-loop turn, or none for a call from its account's lease; the count
 * after the answer, batched); PostgreSQL otherwise, with the same rules. When Redis stops answering
 * the server switches to PostgreSQL at once, and back when Redis is reachable again, then
 * raises each account's Redis count to PostgreSQL's before trusting it (calls counted in
 * PostgreSQL meanwhile are not forgotten). README, "Rate limit and quota under faults",
 * says what a customer may see.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { quotaCalendar } from '../accounts/policy.js';
import { isDatabaseUnavailable } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { BackgroundWork } from '../platform/background-work.js';
import { PostgresAdmissionStore } from './admission-postgres.js';
import { AdmitCode, RedisAdmissionStore, type RedisAdmitResult, usageKeys, WINDOW_MS } from './admission-redis.js';
import { type Lease, LEASE_MIN_RATE, LEASE_MS, type LeaseWrite, Leases } from './leases.js';
import { breakdownField, UsageFlusher } from './usage-flusher.js';

export interface AdmissionCaller {
  accountId: string;
  keyId: string;
  monthlyQuota: number | null;
  ratePerMinute: number | null;
  /** Whose per-minute window: the account's live calls, or its test keys' (counted apart). */
  rateScope?: 'live' | 'test';
}

/** Told of every counted call once counted (the quota e-mails); never awaited. */
export type CountedCallListener = (accountId: string, month: string, used: number, limit: number | null) => unknown;

export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the minute's window ends. */
  resetSeconds: number;
}

/** A counted call's place, settled once its answer is known. */
export interface Ticket {
  store: 'redis' | 'postgres';
  holdId: string | null;
  accountId: string;
  keyId: string;
  endpoint: string;
  month: string;
  day: string;
  /** The account's monthly quota when admitted (for the quota e-mails). */
  limit: number | null;
  settled: boolean;
  /** The lease it was admitted from, which counts it (leases.ts); null for a call admitted alone. */
  lease: Lease | null;
}

export interface AdmissionResult {
  outcome: 'admitted' | 'rate_limited' | 'quota_exceeded';
  /** Calls counted this month and held by calls in flight, this one included when it counts. */
  used: number;
  rate: RateState | null;
  ticket: Ticket | null;
}

export interface AdmissionOptions {
  pool: pg.Pool;
  redis?: Redis;
  logger: Logger;
  background: BackgroundWork;
  /** How long a slot stays held if its call never settles (a crashed instance). */
  holdTtlMs?: number;
  /** Longest wait for slots held by calls in flight before refusing anyway. */
  maxWaitMs?: number;
  flushEveryMs?: number;
  onCounted?: CountedCallListener;
  /** Whose counts these are in a shared Redis: one namespace per database (`usageNamespaceOf`). */
  usageNamespace?: string;
}

const REDIS_RETRY_MS = 1_000;
/** Longest wait for leased calls of the minute's window to come back before refusing `rate_limited`. */
const RATE_WAIT_MS = 4 * LEASE_MS;

/** The per-minute limit as it stands after a call, for the RateLimit headers; null when unlimited. */
function rateState(caller: AdmissionCaller, rateCount: number, at: Date): RateState | null {
  if (caller.ratePerMinute === null) return null;
  return {
    limit: caller.ratePerMinute,
    remaining: Math.max(0, caller.ratePerMinute - rateCount),
    resetSeconds: Math.max(1, Math.ceil((WINDOW_MS - (at.getTime() % WINDOW_MS)) / 1000)),
  };
}

/** Whose per-minute window (and lease, see leases.ts): an account's live calls or its test keys'. */
const rateKey = (caller: AdmissionCaller) => `${caller.accountId}:${caller.rateScope ?? 'live'}`;
/** The row of rate_windows that holds it (test keys count under an account id of their own there). */
const postgresRateAccount = (caller: AdmissionCaller) => (caller.rateScope === 'test' ? `${caller.accountId}#test` : caller.accountId);
/** How long the count of an answered call is tried again while PostgreSQL is unreachable. */
const COUNT_RETRY_MS = 30_000;

export class Admission {
  private readonly postgres: PostgresAdmissionStore;
  private readonly redisStore: RedisAdmissionStore | null;
  private readonly flusher: UsageFlusher | null;
  private readonly holdTtlMs: number;
  private readonly maxWaitMs: number;
  private readonly holdPrefix = randomBytes(6).toString('hex');
  private holdCounter = 0;
  private redisDownUntil = 0;
  private redisState: 'up' | 'down' = 'up';
  /** Set by the first outage: from then on an account's Redis count is checked once against PostgreSQL's. */
  private outageSeen = false;
  /** Accounts whose Redis count was raised to PostgreSQL's since Redis last came back. */
  private reconciled = new Set<string>();
  /** The same for per-minute windows (by `rateKey`). */
  private rateReconciled = new Set<string>();
  /** The per-minute count Redis last gave this instance, per account and scope: where PostgreSQL's window starts if Redis is lost mid-minute. */
  private readonly rateSeen = new Map<string, { window: number; calls: number }>();
  private timers: NodeJS.Timeout[] = [];
  /** Slots taken ahead from Redis for accounts calling steadily through this instance. */
  private readonly leases: Leases;

  constructor(private readonly options: AdmissionOptions) {
    this.postgres = new PostgresAdmissionStore(options.pool);
    const keys = usageKeys(options.usageNamespace ?? 'default');
    this.redisStore = options.redis ? new RedisAdmissionStore(options.redis, keys) : null;
    this.leases = new Leases((w) =>
      options.background.track(
        this.writeLease(w).catch((err: Error) =>
          w.answered.length
            ? options.logger.error({ err: err.message, account: w.accountId }, 'calls answered but not counted')
            : options.logger.warn({ err: err.message, account: w.accountId }, 'lease not given back (its slots expire)'),
        ),
      ),
    );
    this.flusher = options.redis ? new UsageFlusher({ redis: options.redis, pool: options.pool, logger: options.logger, keys }) : null;
    this.holdTtlMs = options.holdTtlMs ?? 120_000;
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
  }

  /** Where counts go now. */
  get mode(): 'redis' | 'postgres' {
    return this.redisUsable() ? 'redis' : 'postgres';
  }

  start(): void {
    const every = this.options.flushEveryMs ?? 1_000;
    const flush = setInterval(() => void this.flushNow(), every);
    const sweep = setInterval(() => {
      this.postgres.sweep(new Date()).catch((err: Error) => this.options.logger.warn({ err: err.message }, 'admission sweep failed'));
      for (const [key, seen] of this.rateSeen) if (seen.window < Date.now() - 2 * WINDOW_MS) this.rateSeen.delete(key);
      this.leases.sweep(Date.now());
    }, 60_000);
    flush.unref();
    sweep.unref();
    this.timers.push(flush, sweep);
  }

  /** Calls admitted from a lease, without a round trip of their own (since start). */
  get leasedCalls(): number {
    return this.leases.leasedCalls;
  }

  /** Stops the timers, gives back the leases and moves what Redis still holds to PostgreSQL. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    await this.leases.closeAll();
    await this.flushNow();
  }

  async flushNow(): Promise<void> {
    if (!this.flusher || !this.redisUsable()) return;
    await this.flusher
      .flush()
      .catch((err: Error) => this.options.logger.warn({ err: err.message }, 'usage flush failed: retried next second'));
  }

  async admit(caller: AdmissionCaller, endpoint: string, counted: boolean, now: Date): Promise<AdmissionResult> {
    const month = quotaCalendar(now).month;
    const holdId = `${this.holdPrefix}${(this.holdCounter++).toString(36)}`;
    let delay = 5;
    let waited = 0;
    for (;;) {
      const at = waited === 0 ? now : new Date(now.getTime() + waited);
      const r = await this.admitOnce(caller, month, counted, holdId, at);
      // Over the per-minute limit while another instance's lease may still give calls back
      // (leases last LEASE_MS): wait a little for them, then refuse.
      const waitMore = r.code === AdmitCode.Wait ? waited < this.maxWaitMs : r.code === AdmitCode.RateWait && waited < RATE_WAIT_MS;
      if (waitMore) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        waited += delay;
        delay = Math.min(delay * 2, 50);
        continue;
      }
      if (r.code === AdmitCode.RateLimited || r.code === AdmitCode.RateWait) {
        const used = r.used >= 0 ? r.used + r.pending : await this.peek(caller, at);
        return { outcome: 'rate_limited', used, rate: rateState(caller, r.rateCount, at), ticket: null };
      }
      return this.result(caller, endpoint, counted, month, at, { ...r, holdId: 'lease' in r && r.lease ? null : holdId });
    }
  }

  /**
   * A counted call admitted at once from this instance's lease for its account, with no
   * round trip and no wait; null when there is none (then `admit`). A method of its own
   * rather than `admit` answering sometimes at once and sometimes later: every caller of
   * `admit` gets a promise, and only the chain, on the hot path, takes the shortcut.
   */
  admitFromLease(caller: AdmissionCaller, endpoint: string, counted: boolean, now: Date): AdmissionResult | null {
    if (!counted || !this.leasable(caller) || !this.redisStore || !this.redisUsable()) return null;
    const month = quotaCalendar(now).month;
    const key = rateKey(caller);
    const leased = this.fromLease(caller, key, month, now);
    if (!leased) return null;
    this.leases.want(key, now.getTime());
    return this.result(caller, endpoint, counted, month, now, leased);
  }

  /** A slot of the account's lease on this instance, as Redis would have answered; null when none. */
  private fromLease(caller: AdmissionCaller, key: string, month: string, now: Date) {
    const leased = this.leases.take(key, month, now.getTime());
    if (!leased) return null;
    this.noteRate(caller, key, now, leased.rateCount);
    return { code: AdmitCode.Admitted, store: 'redis' as const, holdId: null, ...leased };
  }

  private result(
    caller: AdmissionCaller,
    endpoint: string,
    counted: boolean,
    month: string,
    at: Date,
    r: {
      code: AdmitCode;
      store: 'redis' | 'postgres';
      rateCount: number;
      used: number;
      pending: number;
      holdId: string | null;
      lease?: Lease;
    },
  ): AdmissionResult {
    const rate = rateState(caller, r.rateCount, at);
    if (r.code === AdmitCode.QuotaFull || r.code === AdmitCode.Wait)
      return { outcome: 'quota_exceeded', used: r.used + r.pending, rate, ticket: null };
    if (!counted) return { outcome: 'admitted', used: r.used + r.pending, rate, ticket: null };
    const limited = caller.monthlyQuota !== null;
    return {
      outcome: 'admitted',
      used: r.used + (limited ? r.pending : 1),
      rate,
      ticket: {
        store: r.store,
        holdId: limited ? r.holdId : null,
        lease: r.lease ?? null,
        accountId: caller.accountId,
        keyId: caller.keyId,
        endpoint,
        month,
        day: quotaCalendar(at).day,
        limit: caller.monthlyQuota,
        settled: false,
      },
    };
  }

  /** Whether an account's counted calls may be leased (see leases.ts). */
  private leasable(caller: AdmissionCaller): boolean {
    return caller.rateScope !== 'test' && (caller.ratePerMinute === null || caller.ratePerMinute >= LEASE_MIN_RATE);
  }

  /** The quota as it stands, without taking anything (for answers refused before admission). */
  async peek(caller: AdmissionCaller, now: Date): Promise<number> {
    const month = quotaCalendar(now).month;
    if (this.redisStore && this.redisUsable()) {
      try {
        const r = await this.redisStore.peek(caller.accountId, month, now.getTime());
        if (r) return r.used + r.pending;
      } catch (err) {
        this.redisFailed(err as Error);
      }
    }
    const r = await this.postgres.peek(caller.accountId, month, now);
    return r.used + r.pending;
  }

  /** Counts the call if its answer was written with a 2xx status, frees its slot otherwise. Idempotent. */
  settle(ticket: Ticket, answered: boolean): Promise<void> {
    if (ticket.settled) return Promise.resolve();
    ticket.settled = true;
    // Counted by its lease, with the lease's other calls (its writes are tracked there).
    if (ticket.lease) return this.leases.settle(ticket.lease, ticket, answered);
    const work = (answered ? this.commit(ticket) : this.release(ticket)).catch((err: Error) =>
      this.options.logger.error(
        { err: err.message, account: ticket.accountId, answered },
        answered ? 'call answered but not counted' : 'quota slot not freed (it expires)',
      ),
    );
    return this.options.background.track(work);
  }

  private async admitOnce(caller: AdmissionCaller, month: string, counted: boolean, holdId: string, now: Date) {
    if (this.redisStore && this.redisUsable()) {
      try {
        return { ...(await this.admitInRedis(caller, month, counted, holdId, now)), store: 'redis' as const };
      } catch (err) {
        this.redisFailed(err as Error);
      }
    }
    const windowStart = new Date(now.getTime() - (now.getTime() % WINDOW_MS));
    await this.carryRateToPostgres(caller, windowStart);
    if (caller.rateScope === 'test') {
      // Test keys: their own per-minute window (under a key of its own), nothing counted;
      // the quota shown is the account's, as it stands.
      const r = await this.postgres.admit({
        accountId: `${caller.accountId}#test`,
        rateScope: 'test',
        month,
        counted: false,
        quota: null,
        rate: caller.ratePerMinute,
        holdId,
        now,
        holdTtlMs: this.holdTtlMs,
        windowStart,
      });
      const quota = await this.postgres.peek(caller.accountId, month, now);
      return { ...r, used: quota.used, pending: quota.pending, store: 'postgres' as const };
    }
    const r = await this.postgres.admit({
      accountId: caller.accountId,
      rateScope: 'live',
      month,
      counted,
      quota: caller.monthlyQuota,
      rate: caller.ratePerMinute,
      holdId,
      now,
      holdTtlMs: this.holdTtlMs,
      windowStart,
    });
    return { ...r, store: 'postgres' as const };
  }

  private async admitInRedis(
    caller: AdmissionCaller,
    month: string,
    counted: boolean,
    holdId: string,
    now: Date,
  ): Promise<RedisAdmitResult & { lease?: Lease }> {
    const leaseKey = rateKey(caller);
    const leasing = counted && this.leasable(caller);
    const demand = leasing ? this.leases.want(leaseKey, now.getTime()) : 1;
    if (leasing) {
      for (;;) {
        const leased = this.fromLease(caller, leaseKey, month, now);
        if (leased) return leased;
        const asked = this.leases.pending(leaseKey);
        if (!asked) break;
        await asked;
      }
    }
    const input = {
      accountId: caller.accountId,
      rateScope: caller.rateScope ?? 'live',
      month,
      counted,
      quota: caller.monthlyQuota,
      rate: caller.ratePerMinute,
      holdId,
      nowMs: now.getTime(),
      holdTtlMs: this.holdTtlMs,
    };
    // Back from an outage: PostgreSQL counted calls meanwhile; Redis must not know less.
    if (this.outageSeen && caller.ratePerMinute !== null && !this.rateReconciled.has(rateKey(caller))) {
      const windowStart = new Date(now.getTime() - (now.getTime() % WINDOW_MS));
      await this.redisStore!.raiseRate(
        caller.accountId,
        input.rateScope,
        now.getTime(),
        await this.postgres.rateCalls(postgresRateAccount(caller), windowStart),
      );
      this.rateReconciled.add(rateKey(caller));
    }
    const reconcile = this.outageSeen && !this.reconciled.has(caller.accountId);
    const size = reconcile ? 1 : demand;
    const asking = this.redisStore!.admit(
      reconcile
        ? { ...input, seed: { used: await this.postgres.used(caller.accountId, month), mode: 'max' } }
        : { ...input, lease: size > 1 ? size : undefined },
    );
    if (size > 1) this.leases.asking(leaseKey, asking);
    let r = await asking;
    if (reconcile) this.reconciled.add(caller.accountId);
    if (r.code === AdmitCode.Leased) {
      // This call takes slot 0; the others wait in memory for the account's next calls.
      const lease = this.leases.open(leaseKey, {
        accountId: caller.accountId,
        rateScope: caller.rateScope ?? 'live',
        month,
        window: Math.floor(now.getTime() / WINDOW_MS),
        holdPrefix: holdId,
        size,
        rateCount: r.rateCount,
        used: r.used,
        pending: r.pending,
        limit: caller.monthlyQuota,
        nowMs: now.getTime(),
      });
      // The calls made, not the lease's: PostgreSQL's window starts there if Redis is lost.
      this.noteRate(caller, leaseKey, now, r.rateCount - (size - 1));
      return {
        code: AdmitCode.Admitted,
        rateCount: r.rateCount - (size - 1),
        used: r.used,
        pending: r.pending - (size - 1),
        lease,
      };
    }
    if (r.code === AdmitCode.NeedSeed) {
      r = await this.redisStore!.admit({ ...input, seed: { used: await this.postgres.used(caller.accountId, month), mode: 'missing' } });
    }
    this.noteRate(caller, leaseKey, now, r.rateCount);
    return r;
  }

  /** The per-minute count Redis gave this instance last (see rateSeen). */
  private noteRate(caller: AdmissionCaller, key: string, now: Date, calls: number): void {
    if (caller.ratePerMinute === null) return;
    const window = now.getTime() - (now.getTime() % WINDOW_MS);
    const seen = this.rateSeen.get(key);
    if (seen) {
      seen.window = window;
      seen.calls = calls;
    } else this.rateSeen.set(key, { window, calls });
  }

  /**
   * Redis lost mid-minute: PostgreSQL's window for the account starts from the count Redis
   * last gave this instance (every instance carries its own; the highest wins), not from zero.
   */
  private async carryRateToPostgres(caller: AdmissionCaller, windowStart: Date): Promise<void> {
    const key = rateKey(caller);
    const seen = this.rateSeen.get(key);
    if (!seen) return;
    if (caller.ratePerMinute !== null && seen.window === windowStart.getTime())
      await this.postgres.raiseRate(postgresRateAccount(caller), windowStart, seen.calls);
    this.rateSeen.delete(key);
  }

  private async commit(t: Ticket): Promise<void> {
    const used = await this.count(t);
    if (used !== null) this.options.onCounted?.(t.accountId, t.month, used, t.limit);
  }

  private async count(t: Ticket): Promise<number | null> {
    if (t.store === 'redis' && this.redisUsable()) {
      try {
        return await this.redisStore!.commit({
          accountId: t.accountId,
          month: t.month,
          holdId: t.holdId,
          breakdown: breakdownField(t.accountId, t.day, t.endpoint, t.keyId),
        });
      } catch (err) {
        this.redisFailed(err as Error);
      }
    }
    // In PostgreSQL; a slot held in Redis then expires by itself.
    return this.countInPostgres({ ...t, holdId: t.store === 'postgres' ? t.holdId : null });
  }

  /**
   * What a lease gives back, counts, or both, in Redis. Redis lost: what it held went with
   * it, and the lease's answered calls are counted in PostgreSQL, one by one.
   */
  private async writeLease(w: LeaseWrite): Promise<void> {
    if (!w.lost && this.redisUsable()) {
      try {
        const used = await this.redisStore!.writeLease(w);
        if (used !== null) this.options.onCounted?.(w.accountId, w.month, used, w.limit);
        return;
      } catch (err) {
        this.redisFailed(err as Error);
      }
    }
    for (const a of w.answered) {
      for (let i = 0; i < a.calls; i++) {
        const used = await this.countInPostgres({
          accountId: w.accountId,
          month: w.month,
          day: a.day,
          endpoint: a.endpoint,
          keyId: a.keyId,
          holdId: null,
        });
        if (used !== null) this.options.onCounted?.(w.accountId, w.month, used, w.limit);
      }
    }
  }

  /**
   * The call was answered: while PostgreSQL is unreachable its count is tried again (for
   * up to COUNT_RETRY_MS), not dropped. A retry of a call holding a slot counts only while
   * the slot is still there, since the first try may have been written before its reply
   * was lost; null then means already counted.
   */
  private async countInPostgres(call: {
    accountId: string;
    month: string;
    day: string;
    endpoint: string;
    keyId: string;
    /** Its slot in PostgreSQL (null: held in Redis, or none). */
    holdId: string | null;
  }): Promise<number | null> {
    const input = {
      accountId: call.accountId,
      month: call.month,
      day: call.day,
      endpoint: call.endpoint,
      keyId: call.keyId,
      holdId: call.holdId,
    };
    const giveUpAt = Date.now() + COUNT_RETRY_MS;
    let used: number | null;
    for (let retry = false, delay = 100; ; retry = true, delay = Math.min(delay * 2, 2_000)) {
      try {
        used = await this.postgres.commit(input, retry);
        break;
      } catch (err) {
        if (!isDatabaseUnavailable(err) || Date.now() + delay > giveUpAt) throw err;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    // Redis may be back and counting this account already: it must not know less.
    if (this.redisStore && this.redisUsable()) {
      await this.redisStore.mirror(call.accountId, call.month).catch((err: Error) => this.redisFailed(err));
    }
    return used;
  }

  private async release(t: Ticket): Promise<void> {
    if (!t.holdId) return;
    if (t.store === 'postgres') return this.postgres.release(t.holdId);
    await this.redisStore!.release({ accountId: t.accountId, month: t.month, holdId: t.holdId });
  }

  private redisUsable(): boolean {
    const redis = this.options.redis;
    if (!redis) return false;
    const usable = redis.status === 'ready' && Date.now() >= this.redisDownUntil;
    if (!usable && this.redisState === 'up') {
      this.redisState = 'down';
      this.outageSeen = true;
      this.reconciled = new Set();
      this.rateReconciled = new Set();
      this.options.logger.error('redis unreachable: rate limits and quota counted in PostgreSQL until it is back');
    } else if (usable && this.redisState === 'down') {
      this.redisState = 'up';
      this.options.logger.info('redis reachable again: rate limits and quota counted in Redis');
    }
    return usable;
  }

  private redisFailed(err: Error): void {
    this.options.logger.warn({ err: err.message }, 'redis command failed');
    this.leases.drop();
    this.redisDownUntil = Date.now() + REDIS_RETRY_MS;
    this.redisUsable();
  }
}
