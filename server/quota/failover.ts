/**
 * The store in use: Redis when configured and reachable, PostgreSQL otherwise, with the
 * same rules. When Redis stops answering the server switches to PostgreSQL at once, and
 * back when Redis is reachable again; what each store knows passes to the other on the way:
 * - to PostgreSQL, the per-minute count Redis last gave this instance (its window starts
 *   there, not from zero; every instance carries its own, the highest wins);
 * - back to Redis, PostgreSQL's count of each account's month and minute, before Redis is
 *   trusted with that account again (calls counted in PostgreSQL meanwhile are not
 *   forgotten), and each call counted in PostgreSQL after Redis came back;
 * - and every second, Redis's counts to PostgreSQL (usage-flusher.ts).
 * README, "Rate limit and quota under faults", says what a customer may see.
 */
import type { Logger } from '../platform/logger.js';
import type { LeaseWrite } from './leases.js';
import type { PostgresStore } from './postgres-store.js';
import type { RedisStore } from './redis-store.js';
import {
  type AdmissionStore,
  type AdmitAnswer,
  AdmitCode,
  type AdmitInput,
  type AnsweredCall,
  type HeldSlot,
  type QuotaNow,
  type RateScope,
  rateKey,
  WINDOW_MS,
  windowStart,
} from './store.js';
import type { UsageFlusher } from './usage-flusher.js';

/** How long Redis is left alone after a command failed. */
const REDIS_RETRY_MS = 1_000;

export interface FailoverOptions {
  postgres: PostgresStore;
  /** Absent: PostgreSQL always. */
  redis: RedisStore | null;
  flusher: UsageFlusher | null;
  logger: Logger;
  /** Told when a Redis command fails: what was taken from Redis ahead (leases) is lost. */
  onRedisLost: () => void;
  /**
   * Told instead when a command only timed out (a loaded machine: Redis, or this process's
   * event loop, slow to answer): Redis keeps what it holds, so leases end and give back
   * what they did not use, through Redis, rather than being written off.
   */
  onRedisSlow?: () => void;
}

export class Failover implements AdmissionStore {
  private readonly postgres: PostgresStore;
  private readonly redis: RedisStore | null;
  private downUntil = 0;
  private state: 'up' | 'down' = 'up';
  /** Set by the first outage: from then on an account's Redis count is checked once against PostgreSQL's. */
  private outageSeen = false;
  /** Accounts whose Redis count was raised to PostgreSQL's since Redis last came back. */
  private reconciled = new Set<string>();
  /** The same for per-minute windows (by `rateKey`). */
  private rateReconciled = new Set<string>();
  /** The per-minute count Redis last gave this instance, by `rateKey`: where PostgreSQL's window starts if Redis is lost mid-minute. */
  private readonly rateSeen = new Map<string, { window: number; calls: number }>();

  constructor(private readonly options: FailoverOptions) {
    this.postgres = options.postgres;
    this.redis = options.redis;
  }

  /**
   * Whether Redis is connected, though it may be left alone for a second after a command
   * timed out (`redisInUse` false): what it already holds (slots, leases, counts) is still
   * Redis's to count and move.
   */
  private redisConnected(): boolean {
    this.redisInUse(); // notes a change of state
    return this.redis?.ready === true;
  }

  /** Whether Redis is the store in use (what leases are taken from); notes when it changes. */
  redisInUse(): boolean {
    const usable = this.redis !== null && this.redis.ready && Date.now() >= this.downUntil;
    if (!usable && this.state === 'up' && this.redis) {
      this.state = 'down';
      this.outageSeen = true;
      this.reconciled = new Set();
      this.rateReconciled = new Set();
      this.options.logger.error('redis unreachable: rate limits and quota counted in PostgreSQL until it is back');
    } else if (usable && this.state === 'down') {
      this.state = 'up';
      this.options.logger.info('redis reachable again: rate limits and quota counted in Redis');
    }
    return usable;
  }

  /** Admits in Redis (reconciled first if it was away), or in PostgreSQL. `key`: the input's `rateKey`, when known. */
  async admit(input: AdmitInput, key = rateKey(input.accountId, input.rateScope)): Promise<AdmitAnswer> {
    if (this.redisInUse()) {
      try {
        const back = this.outageSeen && !(this.reconciled.has(input.accountId) && (input.rate === null || this.rateReconciled.has(key)));
        let r = await this.redis!.admit(back ? await this.reconciling(input, key) : input);
        if (back) this.reconciled.add(input.accountId);
        if (r.code === AdmitCode.NeedSeed) {
          const used = await this.postgres.used(input.accountId, input.month);
          r = await this.redis!.admit({ ...input, lease: undefined, seed: { used, mode: 'missing' } });
        }
        // A lease's calls not made yet are not the instance's: PostgreSQL's window would start too high.
        this.noteRate(key, input.rate, input.nowMs, r.code === AdmitCode.Leased ? r.rateCount - (input.lease! - 1) : r.rateCount);
        return r;
      } catch (err) {
        this.failed(err as Error);
      }
    }
    const seen = this.rateSeen.get(key);
    if (seen) {
      // Redis lost mid-minute: PostgreSQL's window starts from the count Redis last gave this instance.
      if (input.rate !== null && seen.window === windowStart(input.nowMs))
        await this.postgres.raiseRate(input.accountId, input.rateScope, input.nowMs, seen.calls);
      this.rateSeen.delete(key);
    }
    return this.postgres.admit(input);
  }

  /**
   * Back from an outage: PostgreSQL counted calls meanwhile, and Redis must not know less.
   * The minute's window is raised to PostgreSQL's; the month's count is sent along as a
   * seed that raises Redis's (once per account: no lease is asked meanwhile).
   */
  private async reconciling(input: AdmitInput, key: string): Promise<AdmitInput> {
    if (input.rate !== null && !this.rateReconciled.has(key)) {
      const calls = await this.postgres.rateCalls(input.accountId, input.rateScope, input.nowMs);
      await this.redis!.raiseRate(input.accountId, input.rateScope, input.nowMs, calls);
      this.rateReconciled.add(key);
    }
    if (this.reconciled.has(input.accountId)) return input;
    return { ...input, lease: undefined, seed: { used: await this.postgres.used(input.accountId, input.month), mode: 'max' } };
  }

  /** The per-minute count Redis gave this instance for a call (see rateSeen). */
  noteRate(key: string, rate: number | null, nowMs: number, calls: number): void {
    if (rate === null) return;
    const window = windowStart(nowMs);
    const seen = this.rateSeen.get(key);
    if (seen) {
      seen.window = window;
      seen.calls = calls;
    } else this.rateSeen.set(key, { window, calls });
  }

  /** Counts an answered call where its slot is held; in PostgreSQL when that was Redis and Redis is unreachable (the slot expires there). */
  async count(call: AnsweredCall): Promise<number | null> {
    // Connected though left alone after a timeout: the slot is in Redis, and so is the count.
    if (call.store === 'redis' && this.redisConnected()) {
      try {
        return await this.redis!.count(call);
      } catch (err) {
        this.failed(err as Error);
      }
    }
    return this.countInPostgres(call);
  }

  private async countInPostgres(call: AnsweredCall): Promise<number | null> {
    const used = await this.postgres.count(call);
    // Redis may be back and counting this account already: it must not know less.
    if (this.redisInUse()) await this.redis!.mirror(call.accountId, call.month).catch((err: Error) => this.failed(err));
    return used;
  }

  release(slot: HeldSlot): Promise<void> {
    return slot.store === 'postgres' ? this.postgres.release(slot) : this.redis!.release(slot);
  }

  /** Calls in this minute's window, without taking one: Redis's count while it answers, else PostgreSQL's. */
  async rateCalls(accountId: string, rateScope: RateScope, nowMs: number): Promise<number> {
    if (this.redisInUse()) {
      try {
        return await this.redis!.rateCalls(accountId, rateScope, nowMs);
      } catch (err) {
        this.failed(err as Error);
      }
    }
    return this.postgres.rateCalls(accountId, rateScope, nowMs);
  }

  async peek(accountId: string, month: string, nowMs: number): Promise<QuotaNow> {
    if (this.redisInUse()) {
      try {
        const r = await this.redis!.peek(accountId, month, nowMs);
        if (r) return r;
      } catch (err) {
        this.failed(err as Error);
      }
    }
    return this.postgres.peek(accountId, month, nowMs);
  }

  /**
   * What a lease gives back, counts, or both, in Redis; resolves with the month's count
   * once its calls are in (null: none). Redis lost: what it held went with it, and the
   * lease's answered calls are counted in PostgreSQL, one by one.
   */
  async writeLease(w: LeaseWrite): Promise<number | null> {
    // Connected though left alone after a timeout: a lease's write is still Redis's to take.
    if (!w.lost && this.redisConnected()) {
      try {
        return await this.redis!.writeLease(w);
      } catch (err) {
        this.failed(err as Error);
      }
    }
    let last: number | null = null;
    for (const a of w.answered) {
      const call: AnsweredCall = {
        store: 'postgres',
        holdId: null,
        accountId: w.accountId,
        keyId: a.keyId,
        endpoint: a.endpoint,
        month: w.month,
        day: a.day,
      };
      for (let i = 0; i < a.calls; i++) last = (await this.countInPostgres(call)) ?? last;
    }
    return last;
  }

  /** Seconds since Redis's counts last reached PostgreSQL (null without Redis). */
  flushAgeSeconds(): number | null {
    return this.options.flusher ? (Date.now() - this.options.flusher.lastDoneAt) / 1000 : null;
  }

  /**
   * Moves Redis's counts to PostgreSQL while Redis is connected, left alone after a timeout
   * included (what it counted is still there to move); what waits through an outage is moved
   * once it is back.
   */
  async flush(): Promise<void> {
    if (!this.options.flusher || !this.redisConnected()) return;
    await this.options.flusher
      .flush()
      .catch((err: Error) => this.options.logger.warn({ err: err.message }, 'usage flush failed: retried next second'));
  }

  /** Forgets what is too old to matter: PostgreSQL's old windows and expired slots, the windows Redis gave. */
  sweep(now: Date): void {
    this.postgres.sweep(now).catch((err: Error) => this.options.logger.warn({ err: err.message }, 'admission sweep failed'));
    for (const [key, seen] of this.rateSeen) if (seen.window < now.getTime() - 2 * WINDOW_MS) this.rateSeen.delete(key);
  }

  private failed(err: Error): void {
    this.options.logger.warn({ err: err.message }, 'redis command failed');
    if (/command timed out/i.test(err.message) && this.options.onRedisSlow) this.options.onRedisSlow();
    else this.options.onRedisLost();
    this.downUntil = Date.now() + REDIS_RETRY_MS;
    this.redisInUse();
  }
}
