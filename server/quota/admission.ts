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
 * Where: the store in use (failover.ts), Redis when configured and reachable (a round trip
 * before the handler shared by the calls of one event-loop turn, or none for a call from
 * its account's lease, leases.ts; the count after the answer, batched), PostgreSQL
 * otherwise, with the same rules (store.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { quotaCalendar } from '../accounts/policy.js';
import type { Logger } from '../platform/logger.js';
import type { BackgroundWork } from '../platform/background-work.js';
import { Failover } from './failover.js';
import { type Lease, LEASE_MIN_RATE, LEASE_MS, Leases, type LeaseWrite } from './leases.js';
import { PostgresStore } from './postgres-store.js';
import { RedisStore } from './redis-store.js';
import { type AdmitAnswer, AdmitCode, type AdmitInput, type AnsweredCall, type RateScope, rateKey, WINDOW_MS } from './store.js';
import { UsageFlusher } from './usage-flusher.js';
import { usageKeys } from './usage-keys.js';

export interface AdmissionCaller {
  accountId: string;
  keyId: string;
  monthlyQuota: number | null;
  ratePerMinute: number | null;
  /** Whose per-minute window: the account's live calls, its test keys' or its pings (each counted apart). */
  rateScope?: RateScope;
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
export interface Ticket extends AnsweredCall {
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

/** Whether an account's counted calls may be leased (see leases.ts). */
const leasable = (caller: AdmissionCaller) =>
  (caller.rateScope ?? 'live') === 'live' && (caller.ratePerMinute === null || caller.ratePerMinute >= LEASE_MIN_RATE);

/** A store's answer, from a lease when it came from one. */
type Admitted = AdmitAnswer & { lease?: Lease };

export class Admission {
  /** Redis or PostgreSQL, whichever answers. */
  private readonly stores: Failover;
  /** Slots taken ahead from Redis for accounts calling steadily through this instance. */
  private readonly leases: Leases;
  private readonly holdTtlMs: number;
  private readonly maxWaitMs: number;
  private readonly holdPrefix = randomBytes(6).toString('hex');
  private holdCounter = 0;
  private timers: NodeJS.Timeout[] = [];

  constructor(private readonly options: AdmissionOptions) {
    const { pool, redis, logger } = options;
    const keys = usageKeys(options.usageNamespace ?? 'default');
    this.stores = new Failover({
      postgres: new PostgresStore(pool),
      redis: redis ? new RedisStore(redis, keys) : null,
      flusher: redis ? new UsageFlusher({ redis, pool, logger, keys }) : null,
      logger,
      onRedisLost: () => this.leases.drop(),
      onRedisSlow: () => this.leases.endAll(),
    });
    this.leases = new Leases((w) => options.background.track(this.writeLease(w)));
    this.holdTtlMs = options.holdTtlMs ?? 120_000;
    this.maxWaitMs = options.maxWaitMs ?? 30_000;
  }

  /** Seconds since Redis's counts last reached PostgreSQL (null without Redis). */
  flushAgeSeconds(): number | null {
    return this.stores.flushAgeSeconds();
  }

  /** Where counts go now. */
  get mode(): 'redis' | 'postgres' {
    return this.stores.redisInUse() ? 'redis' : 'postgres';
  }

  start(): void {
    const flush = setInterval(() => void this.flushNow(), this.options.flushEveryMs ?? 1_000);
    const sweep = setInterval(() => {
      this.stores.sweep(new Date());
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

  flushNow(): Promise<void> {
    return this.stores.flush();
  }

  /**
   * Every call answered so far counted in PostgreSQL: the leases stopped now rather than
   * when their period ends (they are taken again on demand), the counts on their way
   * awaited (the background work), then Redis flushed.
   */
  async flushAll(): Promise<void> {
    await this.leases.closeAll();
    await this.options.background.settled();
    await this.flushNow();
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
      const lease = r.lease ?? null;
      return this.result(caller, endpoint, counted, month, at, r, lease ? null : holdId, lease);
    }
  }

  /**
   * A counted call admitted at once from this instance's lease for its account, with no
   * round trip and no wait; null when there is none (then `admit`). A method of its own
   * rather than `admit` answering sometimes at once and sometimes later: every caller of
   * `admit` gets a promise, and only the chain, on the hot path, takes the shortcut.
   */
  admitFromLease(caller: AdmissionCaller, endpoint: string, counted: boolean, now: Date): AdmissionResult | null {
    if (!counted || !leasable(caller) || !this.stores.redisInUse()) return null;
    const month = quotaCalendar(now).month;
    const key = rateKey(caller.accountId, 'live'); // test keys never lease
    const leased = this.fromLease(caller, key, month, now.getTime());
    if (!leased) return null;
    this.leases.want(key, now.getTime());
    return this.result(caller, endpoint, counted, month, now, leased, null, leased.lease);
  }

  /** A slot of the account's lease on this instance, as Redis would have answered; null when none. */
  private fromLease(caller: AdmissionCaller, key: string, month: string, nowMs: number) {
    const leased = this.leases.take(key, month, nowMs);
    if (leased) this.stores.noteRate(key, caller.ratePerMinute, nowMs, leased.rateCount);
    return leased;
  }

  /** One try in the store in use: from a lease, or asking for one, when the account calls steadily. */
  private async admitOnce(caller: AdmissionCaller, month: string, counted: boolean, holdId: string, at: Date): Promise<Admitted> {
    const input: AdmitInput = {
      accountId: caller.accountId,
      rateScope: caller.rateScope ?? 'live',
      month,
      counted,
      quota: caller.monthlyQuota,
      rate: caller.ratePerMinute,
      holdId,
      nowMs: at.getTime(),
      holdTtlMs: this.holdTtlMs,
    };
    const key = rateKey(input.accountId, input.rateScope);
    if (!counted || !leasable(caller) || !this.stores.redisInUse()) return await this.stores.admit(input, key);
    const demand = this.leases.want(key, input.nowMs);
    for (;;) {
      const leased = this.fromLease(caller, key, month, input.nowMs);
      if (leased) return leased;
      // Another call is asking for the account's lease: wait for it rather than ask too.
      const asked = this.leases.pending(key);
      if (!asked) break;
      await asked;
    }
    if (demand > 1) input.lease = demand;
    const asking = this.stores.admit(input, key);
    if (demand > 1) this.leases.asking(key, asking);
    const r = await asking;
    return r.code === AdmitCode.Leased ? this.leases.open(key, input, r) : r;
  }

  private result(
    caller: AdmissionCaller,
    endpoint: string,
    counted: boolean,
    month: string,
    at: Date,
    r: AdmitAnswer,
    holdId: string | null,
    lease: Lease | null,
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
        holdId: limited ? holdId : null,
        lease,
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

  /** The per-minute limit as it stands, without taking a call of it (for `ping`); null when unlimited. */
  async rateNow(caller: AdmissionCaller, now: Date): Promise<RateState | null> {
    if (caller.ratePerMinute === null) return null;
    return rateState(caller, await this.stores.rateCalls(caller.accountId, caller.rateScope ?? 'live', now.getTime()), now);
  }

  /** The quota as it stands, without taking anything (for answers refused before admission). */
  async peek(caller: AdmissionCaller, now: Date): Promise<number> {
    const r = await this.stores.peek(caller.accountId, quotaCalendar(now).month, now.getTime());
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

  private async commit(t: Ticket): Promise<void> {
    const used = await this.stores.count(t);
    if (used !== null) this.options.onCounted?.(t.accountId, t.month, used, t.limit);
  }

  private async release(t: Ticket): Promise<void> {
    if (t.holdId) await this.stores.release({ store: t.store, holdId: t.holdId, accountId: t.accountId, month: t.month });
  }

  /** A lease's write (leases.ts): its calls counted, what it left unused given back. */
  private async writeLease(w: LeaseWrite): Promise<void> {
    try {
      const used = await this.stores.writeLease(w);
      if (used !== null) this.options.onCounted?.(w.accountId, w.month, used, w.limit);
    } catch (err) {
      const fields = { err: (err as Error).message, account: w.accountId };
      if (w.answered.length) this.options.logger.error(fields, 'calls answered but not counted');
      else this.options.logger.warn(fields, 'lease not given back (its slots expire)');
    }
  }
}
