/**
 * Admission in Redis: the per-minute window and the quota of one account in one Lua script
 * (one round trip before the handler), and the count of an answered call in another (one
 * round trip after the answer, off the caller's path). Redis is the authority on the
 * month's count while it is up; the per-day, per-endpoint, per-key breakdown accumulates in
 * one hash that the usage flusher moves to PostgreSQL every second.
 *
 * Keys (one Redis, not a cluster): `mboa:q:{acct}:{month}` the calls counted this month,
 * `mboa:qh:{acct}:{month}` a sorted set of slots held by calls in flight (scored by their
 * expiry, so a crashed instance's slots free themselves), `mboa:rl:{acct}:{window}` the
 * per-minute count, `mboa:usage:pending:{database}` the breakdown not yet in PostgreSQL.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Where counts not yet in PostgreSQL wait: the pending hash, and the batches being flushed.
 * One namespace per database, so deployments sharing a Redis (staging beside production)
 * never flush each other's counts into the wrong database.
 */
export interface UsageKeys {
  pending: string;
  batchPrefix: string;
}

export function usageKeys(namespace: string): UsageKeys {
  return { pending: `mboa:usage:pending:${namespace}`, batchPrefix: `mboa:usage:flushing:${namespace}:` };
}

/** The namespace of a database: its host, port and name, hashed (never its password). */
export function usageNamespaceOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return createHash('sha256')
    .update(`${url.hostname}:${url.port || '5432'}/${url.pathname.slice(1)}`)
    .digest('hex')
    .slice(0, 12);
}
/** Long enough for a month and its stragglers; the count is seeded from PostgreSQL if it is gone. */
const USED_TTL_SECONDS = 40 * 86_400;

/** Status codes shared with the PostgreSQL function mboa_admit, plus 4: seed needed. */
export const enum AdmitCode {
  Admitted = 0,
  RateLimited = 1,
  QuotaFull = 2,
  Wait = 3,
  NeedSeed = 4,
}

const ADMIT = `
local rate = tonumber(ARGV[1])
local rcount = 0
local limit = tonumber(ARGV[3])
local now = tonumber(ARGV[6])
if rate > 0 then
  rcount = redis.call('INCR', KEYS[3])
  if rcount == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
  if rcount > rate then
    local u = redis.call('GET', KEYS[1])
    local held = 0
    if limit >= 0 then held = redis.call('ZCOUNT', KEYS[2], now, '+inf') end
    return {1, rcount, u == false and -1 or tonumber(u), held}
  end
end
local used = redis.call('GET', KEYS[1])
local seed = tonumber(ARGV[8])
if seed >= 0 and (used == false or (ARGV[9] == 'max' and tonumber(used) < seed)) then
  used = seed
  redis.call('SET', KEYS[1], seed, 'EX', ARGV[10])
end
if used == false then
  if rate > 0 then redis.call('DECR', KEYS[3]) end
  return {4, rcount, -1, 0}
end
used = tonumber(used)
local pending = 0
if limit >= 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  pending = redis.call('ZCARD', KEYS[2])
end
if ARGV[4] == '0' or limit < 0 then return {0, rcount, used, pending} end
if used + pending < limit then
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[7]), ARGV[5])
  redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[7]) * 2)
  return {0, rcount, used, pending + 1}
end
if used < limit then
  if rate > 0 then redis.call('DECR', KEYS[3]) end
  return {3, rcount, used, pending}
end
return {2, rcount, used, pending}
`;

/** A call counted in PostgreSQL while Redis was away, settled now that it is back: Redis must know it too. */
const MIRROR = `
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCR', KEYS[1]) end
return -1
`;

/** Raises a per-minute window to at least ARGV[1] calls (PostgreSQL's count, when Redis comes back mid-minute). */
const RAISE = `
local calls = tonumber(redis.call('GET', KEYS[1]) or '0')
if calls < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return calls
`;

const COMMIT = `
if ARGV[1] ~= '' then redis.call('ZREM', KEYS[2], ARGV[1]) end
local used = redis.call('INCR', KEYS[1])
if used == 1 then redis.call('EXPIRE', KEYS[1], ARGV[3]) end
redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
return used
`;

type AdmissionRedis = Redis & {
  mboaAdmit(...args: Array<string | number>): Promise<[number, number, number, number]>;
  mboaCommit(...args: Array<string | number>): Promise<number>;
  mboaMirror(key: string): Promise<number>;
  mboaRaise(key: string, calls: number, ttlMs: number): Promise<number>;
};

export interface RedisAdmitInput {
  accountId: string;
  /** Whose per-minute window (test keys count apart from live calls). */
  rateScope: 'live' | 'test';
  /** `YYYY-MM-DD` of the quota month's first day. */
  month: string;
  counted: boolean;
  quota: number | null;
  rate: number | null;
  holdId: string;
  nowMs: number;
  holdTtlMs: number;
  /** The month's count from PostgreSQL, when Redis must be told it. */
  seed?: { used: number; mode: 'missing' | 'max' };
}

export interface RedisAdmitResult {
  code: AdmitCode;
  /** Calls in this minute's window, this one included. */
  rateCount: number;
  used: number;
  pending: number;
}

export const WINDOW_MS = 60_000;
/** How long answered calls wait to be counted together (off the callers' path). */
const COMMIT_BATCH_MS = 2;

export class RedisAdmissionStore {
  private readonly redis: AdmissionRedis;
  private batch: Array<{ args: Array<string | number>; resolve: (used: number) => void; reject: (err: Error) => void }> = [];
  private batchTimer: NodeJS.Timeout | undefined;

  constructor(
    redis: Redis,
    private readonly usage: UsageKeys,
  ) {
    if (!('mboaAdmit' in redis)) {
      redis.defineCommand('mboaAdmit', { numberOfKeys: 3, lua: ADMIT });
      redis.defineCommand('mboaCommit', { numberOfKeys: 3, lua: COMMIT });
      redis.defineCommand('mboaMirror', { numberOfKeys: 1, lua: MIRROR });
      redis.defineCommand('mboaRaise', { numberOfKeys: 1, lua: RAISE });
    }
    this.redis = redis as AdmissionRedis;
  }

  private keys(accountId: string, month: string, nowMs: number, rateScope: 'live' | 'test' = 'live'): [string, string, string] {
    const window = `${rateScope === 'test' ? 'test:' : ''}${Math.floor(nowMs / WINDOW_MS)}`;
    return [`mboa:q:{${accountId}}:${month}`, `mboa:qh:{${accountId}}:${month}`, `mboa:rl:{${accountId}}:${window}`];
  }

  async admit(input: RedisAdmitInput): Promise<RedisAdmitResult> {
    const [code, rateCount, used, pending] = await this.redis.mboaAdmit(
      ...this.keys(input.accountId, input.month, input.nowMs, input.rateScope),
      input.rate ?? 0,
      WINDOW_MS + 1_000,
      input.quota ?? -1,
      input.counted ? 1 : 0,
      input.holdId,
      input.nowMs,
      input.holdTtlMs,
      input.seed?.used ?? -1,
      input.seed?.mode === 'max' ? 'max' : 'nx',
      USED_TTL_SECONDS,
    );
    return { code, rateCount, used, pending };
  }

  /**
   * Counts an answered call; returns the month's count. Counts are sent in batches, one
   * pipeline every COMMIT_BATCH_MS: they are off the caller's path (the answer is gone),
   * and each write to a socket costs more than the script it carries.
   */
  commit(input: { accountId: string; month: string; holdId: string | null; breakdown: string }): Promise<number> {
    const [used, holds] = this.keys(input.accountId, input.month, 0);
    return new Promise((resolve, reject) => {
      this.batch.push({ args: [used, holds, this.usage.pending, input.holdId ?? '', input.breakdown, USED_TTL_SECONDS], resolve, reject });
      this.batchTimer ??= setTimeout(() => this.sendBatch(), COMMIT_BATCH_MS);
    });
  }

  private sendBatch(): void {
    const batch = this.batch;
    this.batch = [];
    this.batchTimer = undefined;
    const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> & { mboaCommit(...args: Array<string | number>): unknown };
    for (const c of batch) pipeline.mboaCommit(...c.args);
    pipeline.exec().then(
      (results) => {
        batch.forEach((c, i) => {
          const [err, value] = results?.[i] ?? [new Error('no answer'), null];
          if (err) c.reject(err);
          else c.resolve(Number(value));
        });
      },
      (err: Error) => {
        for (const c of batch) c.reject(err);
      },
    );
  }

  /**
   * Adds one to the month's count if Redis knows the month (a call counted in PostgreSQL
   * after Redis came back); if it does not, its first seed from PostgreSQL will include it.
   */
  async mirror(accountId: string, month: string): Promise<void> {
    await this.redis.mboaMirror(this.keys(accountId, month, 0)[0]);
  }

  /** Raises this minute's window of an account (and scope) to at least `calls`. */
  async raiseRate(accountId: string, rateScope: 'live' | 'test', nowMs: number, calls: number): Promise<void> {
    if (calls > 0) await this.redis.mboaRaise(this.keys(accountId, '', nowMs, rateScope)[2], calls, WINDOW_MS + 1_000);
  }

  /** The month's count and slots held now, or null when Redis does not know the month. */
  async peek(accountId: string, month: string, nowMs: number): Promise<{ used: number; pending: number } | null> {
    const [usedKey, holds] = this.keys(accountId, month, 0);
    const [[, used], [, pending]] = (await this.redis.multi().get(usedKey).zcount(holds, nowMs, '+inf').exec()) as [
      [null, string | null],
      [null, number],
    ];
    return used === null ? null : { used: Number(used), pending };
  }

  async release(input: { accountId: string; month: string; holdId: string }): Promise<void> {
    const [, holds] = this.keys(input.accountId, input.month, 0);
    await this.redis.zrem(holds, input.holdId);
  }
}
