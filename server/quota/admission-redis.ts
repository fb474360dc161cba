/**
 * Admission in Redis: the per-minute window and the quota of the calls an instance admits
 * in one turn of its event loop, in one Lua script (a round trip before their handlers),
 * and the counts of answered calls in another, sent in the same write (off the callers'
 * path); leases (leases.ts) take several slots at once. Redis is the authority on the
 * month's count while it is up; the per-day, per-endpoint, per-key breakdown accumulates in
 * one hash that the usage flusher moves to PostgreSQL every second.
 *
 * Keys (one Redis, not a cluster): `mboa:q:{acct}:{month}` the calls counted this month,
 * `mboa:qh:{acct}:{month}` a sorted set of slots held by calls in flight (scored by their
 * expiry, so a crashed instance's slots free themselves), `mboa:rl:{acct}:{window}` the
 * per-minute count (`...:leased` beside it: the calls of that window leased and not yet
 * given back), `mboa:usage:pending:{database}` the breakdown not yet in PostgreSQL.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LeaseWrite } from './leases.js';

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
  /** Admitted, with the slots of a lease held for the instance's next calls (see leases.ts). */
  Leased = 5,
  /** Over the per-minute limit while leased calls of the window may still come back: wait. */
  RateWait = 6,
}

/** A lease of n slots needs this many times n left in the window and in the quota. */
export const LEASE_ROOM = 4;

/**
 * Admits a batch of calls, in order, exactly as if each had been sent alone: entry i has
 * KEYS[3i+1..3i+3] and ARGV[11i+1..11i+11], and gets results 4i+1..4i+4. One script for
 * all the calls an instance admits in one turn of its event loop (about ten under load):
 * one round trip and one script run instead of ten.
 *
 * An entry asking for a lease of n > 1 slots (ARGV 11) gets them only with room to spare,
 * at least LEASE_ROOM times n left in both the minute's window and the month's quota, so
 * that slots an instance holds ahead never refuse another instance's call: n holds
 * `{holdId}:0` to `{holdId}:{n-1}`, and n calls of the window. Otherwise it is one call.
 */
const ADMIT = `
local function lease(k, a, n)
  local rate = tonumber(ARGV[a + 1])
  local limit = tonumber(ARGV[a + 3])
  local now = tonumber(ARGV[a + 6])
  local room = n * ${LEASE_ROOM}
  local used = redis.call('GET', KEYS[k + 1])
  if used == false or ARGV[a + 4] == '0' or tonumber(ARGV[a + 8]) >= 0 then return nil end
  used = tonumber(used)
  local rcount = tonumber(redis.call('GET', KEYS[k + 3]) or '0')
  if rate > 0 and rcount + room > rate then return nil end
  local pending = 0
  if limit >= 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[k + 2], '-inf', now)
    pending = redis.call('ZCARD', KEYS[k + 2])
    if used + pending + room > limit then return nil end
  end
  if rate > 0 then
    rcount = redis.call('INCRBY', KEYS[k + 3], n)
    if rcount == n then redis.call('PEXPIRE', KEYS[k + 3], ARGV[a + 2]) end
    redis.call('INCRBY', KEYS[k + 3] .. ':leased', n)
    redis.call('PEXPIRE', KEYS[k + 3] .. ':leased', ARGV[a + 2])
  end
  if limit >= 0 then
    local expiry = now + tonumber(ARGV[a + 7])
    local slots = {}
    for j = 0, n - 1 do
      slots[2 * j + 1] = expiry
      slots[2 * j + 2] = ARGV[a + 5] .. ':' .. j
    end
    redis.call('ZADD', KEYS[k + 2], unpack(slots))
    redis.call('PEXPIRE', KEYS[k + 2], tonumber(ARGV[a + 7]) * 2)
    pending = pending + n
  end
  return {5, rcount, used, pending}
end
local function admit(k, a)
  local rate = tonumber(ARGV[a + 1])
  local rcount = 0
  local limit = tonumber(ARGV[a + 3])
  local now = tonumber(ARGV[a + 6])
  if rate > 0 then
    rcount = redis.call('INCR', KEYS[k + 3])
    if rcount == 1 then redis.call('PEXPIRE', KEYS[k + 3], ARGV[a + 2]) end
    if rcount > rate then
      -- Calls of the window leased by instances and not yet used or given back (within
      -- 100 ms): the caller waits for them rather than be refused while some may be freed.
      if tonumber(redis.call('GET', KEYS[k + 3] .. ':leased') or '0') > 0 then
        redis.call('DECR', KEYS[k + 3])
        return 6, rcount - 1, -1, 0
      end
      local u = redis.call('GET', KEYS[k + 1])
      local held = 0
      if limit >= 0 then held = redis.call('ZCOUNT', KEYS[k + 2], now, '+inf') end
      return 1, rcount, u == false and -1 or tonumber(u), held
    end
  end
  local used = redis.call('GET', KEYS[k + 1])
  local seed = tonumber(ARGV[a + 8])
  if seed >= 0 and (used == false or (ARGV[a + 9] == 'max' and tonumber(used) < seed)) then
    used = seed
    redis.call('SET', KEYS[k + 1], seed, 'EX', ARGV[a + 10])
  end
  if used == false then
    if rate > 0 then redis.call('DECR', KEYS[k + 3]) end
    return 4, rcount, -1, 0
  end
  used = tonumber(used)
  local pending = 0
  if limit >= 0 then
    redis.call('ZREMRANGEBYSCORE', KEYS[k + 2], '-inf', now)
    pending = redis.call('ZCARD', KEYS[k + 2])
  end
  if ARGV[a + 4] == '0' or limit < 0 then return 0, rcount, used, pending end
  if used + pending < limit then
    redis.call('ZADD', KEYS[k + 2], now + tonumber(ARGV[a + 7]), ARGV[a + 5])
    redis.call('PEXPIRE', KEYS[k + 2], tonumber(ARGV[a + 7]) * 2)
    return 0, rcount, used, pending + 1
  end
  if used < limit then
    if rate > 0 then redis.call('DECR', KEYS[k + 3]) end
    return 3, rcount, used, pending
  end
  return 2, rcount, used, pending
end
local out = {}
for i = 0, #KEYS / 3 - 1 do
  local n = tonumber(ARGV[i * 11 + 11])
  local leased = n > 1 and lease(i * 3, i * 11, n) or nil
  local code, rcount, used, pending
  if leased then code, rcount, used, pending = unpack(leased) else code, rcount, used, pending = admit(i * 3, i * 11) end
  out[i * 4 + 1] = code
  out[i * 4 + 2] = rcount
  out[i * 4 + 3] = used
  out[i * 4 + 4] = pending
end
return out
`;

/**
 * What a lease writes (leases.ts, LeaseWrite): frees its slots `{ARGV[1]}:{j}` for j in
 * [ARGV[2], ARGV[3]) (at most MAX_LEASE), counts its ARGV[4] calls answered (the month's
 * count, whose TTL is ARGV[7], and the breakdown: field and calls from ARGV[8] on), gives
 * back ARGV[5] calls of the window it did not make, and takes its size ARGV[6] off the
 * window's leased calls. Returns the month's count once its calls are in, -1 when none.
 */
const LEASE_WRITE = `
local holds = {}
for j = tonumber(ARGV[2]), tonumber(ARGV[3]) - 1 do holds[#holds + 1] = ARGV[1] .. ':' .. j end
if #holds > 0 then redis.call('ZREM', KEYS[2], unpack(holds)) end
local calls = tonumber(ARGV[4])
local used = -1
if calls > 0 then
  used = redis.call('INCRBY', KEYS[1], calls)
  if used == calls then redis.call('EXPIRE', KEYS[1], ARGV[7]) end
  for f = 8, #ARGV, 2 do redis.call('HINCRBY', KEYS[4], ARGV[f], ARGV[f + 1]) end
end
local unused = tonumber(ARGV[5])
if unused > 0 and redis.call('EXISTS', KEYS[3]) == 1 then redis.call('DECRBY', KEYS[3], unused) end
local size = tonumber(ARGV[6])
if size > 0 and redis.call('EXISTS', KEYS[3] .. ':leased') == 1 then redis.call('DECRBY', KEYS[3] .. ':leased', size) end
return used
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

/**
 * Counts a batch of answered calls, one entry per account and month (KEYS[3g+1..3g+3]):
 * its ARGV are the number of slots to free, of breakdown fields and of calls, the TTL of
 * the month's count, then the slots, then each field with its calls. Result g is the
 * month's count once the entry's calls are in it.
 */
const COMMIT = `
local out = {}
local a = 1
for g = 0, #KEYS / 3 - 1 do
  local k = g * 3
  local holds, fields, calls = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2])
  local ttl = ARGV[a + 3]
  a = a + 4
  -- ZREM by a thousand at a time: Lua unpacks only so many values at once.
  for from = a, a + holds - 1, 1000 do
    redis.call('ZREM', KEYS[k + 2], unpack(ARGV, from, math.min(from + 999, a + holds - 1)))
  end
  a = a + holds
  local used = redis.call('INCRBY', KEYS[k + 1], calls)
  if used == calls then redis.call('EXPIRE', KEYS[k + 1], ttl) end
  for f = 1, fields do
    redis.call('HINCRBY', KEYS[k + 3], ARGV[a], ARGV[a + 1])
    a = a + 2
  end
  out[g + 1] = used
end
return out
`;

type AdmissionRedis = Redis & {
  mboaAdmit(numberOfKeys: number, ...args: Array<string | number>): Promise<number[]>;
  mboaCommit(numberOfKeys: number, ...args: Array<string | number>): Promise<number[]>;
  mboaMirror(key: string): Promise<number>;
  mboaLeaseWrite(used: string, holds: string, window: string, pending: string, ...args: Array<string | number>): Promise<number>;
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
  /** Slots asked for a lease (code Leased when granted); one call when absent. */
  lease?: number;
}

export interface RedisAdmitResult {
  code: AdmitCode;
  /** Calls in this minute's window, this one included. */
  rateCount: number;
  used: number;
  pending: number;
}

export const WINDOW_MS = 60_000;

/**
 * Longest an answered call waits to be counted (off the caller's path: its answer is
 * gone). Under load it goes sooner, in the same write as the next admissions.
 */
const COMMIT_WAIT_MS = 5;

export class RedisAdmissionStore {
  private readonly redis: AdmissionRedis;
  /** Calls to admit, sent together at the end of this turn of the event loop. */
  private readonly admits: ScriptBatch<RedisAdmitResult>;
  /** Answered calls to count, sent with the next admissions or after COMMIT_WAIT_MS. */
  private readonly commits = new CommitBatch();
  private sendAt: 'now' | 'later' | null = null;
  private commitTimer: NodeJS.Timeout | undefined;

  constructor(
    redis: Redis,
    private readonly usage: UsageKeys,
  ) {
    if (!('mboaAdmit' in redis)) {
      redis.defineCommand('mboaAdmit', { lua: ADMIT });
      redis.defineCommand('mboaCommit', { lua: COMMIT });
      redis.defineCommand('mboaMirror', { numberOfKeys: 1, lua: MIRROR });
      redis.defineCommand('mboaLeaseWrite', { numberOfKeys: 4, lua: LEASE_WRITE });
      redis.defineCommand('mboaRaise', { numberOfKeys: 1, lua: RAISE });
    }
    this.redis = redis as AdmissionRedis;
    this.admits = new ScriptBatch(4, ([code, rateCount, used, pending]) => ({ code, rateCount, used, pending }));
  }

  /**
   * One write to Redis for everything waiting: the admissions (one script) and the counts
   * (another), pipelined when both wait. Each write and its answer cost the instance a
   * system call and Redis a wake-up, more than the scripts themselves.
   */
  private send(): void {
    this.sendAt = null;
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    const scripts = [...this.admits.take('mboaAdmit'), ...this.commits.take()];
    const fail = (err: Error) => {
      for (const script of scripts) script.fail(err);
    };
    try {
      if (scripts.length === 1) {
        const [script] = scripts;
        this.redis[script.command](script.keys.length, ...script.keys, ...script.args).then(script.deliver, script.fail);
        return;
      }
      if (scripts.length === 0) return;
      const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> &
        Record<Script['command'], (...args: Array<string | number>) => unknown>;
      for (const script of scripts) pipeline[script.command](script.keys.length, ...script.keys, ...script.args);
      pipeline.exec().then((replies) => {
        scripts.forEach((script, i) => {
          const [err, results] = replies?.[i] ?? [new Error('no answer')];
          if (err) script.fail(err);
          else script.deliver(results as number[]);
        });
      }, fail);
    } catch (err) {
      // Never left waiting: a call whose admission or count could not be sent hears so.
      fail(err as Error);
    }
  }

  private schedule(when: 'now' | 'later'): void {
    if (this.sendAt === 'now' || this.sendAt === when) return;
    this.sendAt = when;
    if (when === 'now') setImmediate(() => this.send());
    else this.commitTimer = setTimeout(() => this.send(), COMMIT_WAIT_MS);
  }

  private keys(accountId: string, month: string, nowMs: number, rateScope: 'live' | 'test' = 'live'): [string, string, string] {
    const window = `${rateScope === 'test' ? 'test:' : ''}${Math.floor(nowMs / WINDOW_MS)}`;
    return [`mboa:q:{${accountId}}:${month}`, `mboa:qh:{${accountId}}:${month}`, `mboa:rl:{${accountId}}:${window}`];
  }

  /** Admits one call: sent with the others of this turn of the event loop, in one script. */
  admit(input: RedisAdmitInput): Promise<RedisAdmitResult> {
    const admitted = this.admits.add(this.keys(input.accountId, input.month, input.nowMs, input.rateScope), [
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
      input.lease ?? 1,
    ]);
    this.schedule('now');
    return admitted;
  }

  /** Counts an answered call; resolves with the month's count (see `send` for when it goes). */
  commit(input: { accountId: string; month: string; holdId: string | null; breakdown: string }): Promise<number> {
    const [used, holds] = this.keys(input.accountId, input.month, 0);
    const counted = this.commits.add([used, holds, this.usage.pending], input.holdId, input.breakdown);
    this.schedule('later');
    return counted;
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

  /**
   * Frees a lease's slots, counts its answered calls, gives back what it did not use
   * (leases.ts); resolves with the month's count once they are in, null when it counted none.
   * A window whose minute is over is read by no one any more: giving back to it is harmless.
   */
  async writeLease(w: LeaseWrite): Promise<number | null> {
    const [used, holds, window] = this.keys(w.accountId, w.month, w.windowMs, w.rateScope);
    const calls = w.answered.reduce((n, a) => n + a.calls, 0);
    const fields = w.answered.flatMap((a) => [a.field, a.calls]);
    const counted = await this.redis.mboaLeaseWrite(
      used,
      holds,
      window,
      this.usage.pending,
      w.holdPrefix,
      w.fromSlot,
      w.toSlot,
      calls,
      w.unusedCalls,
      w.leasedSize,
      USED_TTL_SECONDS,
      ...fields,
    );
    return counted < 0 ? null : counted;
  }

  async release(input: { accountId: string; month: string; holdId: string }): Promise<void> {
    const [, holds] = this.keys(input.accountId, input.month, 0);
    await this.redis.zrem(holds, input.holdId);
  }
}

/** How many calls one script carries at most: a burst is sent as several, in one pipeline. */
const SCRIPT_ENTRIES = 500;

/** One script to send: its keys and arguments, and what to do with its answer. */
interface Script {
  command: 'mboaAdmit' | 'mboaCommit';
  keys: string[];
  args: Array<string | number>;
  deliver: (results: number[]) => void;
  fail: (err: Error) => void;
}

/**
 * The calls waiting for one batched script: each adds its keys and arguments, and gets its
 * own `width` results back (or the batch's error).
 */
class ScriptBatch<T> {
  private waiting: Array<{ keys: string[]; args: Array<string | number>; resolve: (value: T) => void; reject: (err: Error) => void }> = [];

  constructor(
    private readonly width: number,
    private readonly read: (results: number[]) => T,
  ) {}

  add(keys: string[], args: Array<string | number>): Promise<T> {
    return new Promise((resolve, reject) => this.waiting.push({ keys, args, resolve, reject }));
  }

  /** What waits, as scripts of at most SCRIPT_ENTRIES calls each. */
  take(command: Script['command']): Script[] {
    const { waiting, width, read } = this;
    this.waiting = [];
    const scripts: Script[] = [];
    for (let from = 0; from < waiting.length; from += SCRIPT_ENTRIES) {
      const chunk = waiting.slice(from, from + SCRIPT_ENTRIES);
      scripts.push({
        command,
        keys: chunk.flatMap((w) => w.keys),
        args: chunk.flatMap((w) => w.args),
        deliver: (results) =>
          chunk.forEach((w, i) => {
            const own = results.slice(i * width, (i + 1) * width);
            if (own.length === width) w.resolve(read(own.map(Number)));
            else w.reject(new Error('redis answered a batch short'));
          }),
        fail: (err) => {
          for (const w of chunk) w.reject(err);
        },
      });
    }
    return scripts;
  }
}

/**
 * Answered calls waiting to be counted, gathered per account and month: one INCRBY, one
 * HINCRBY per breakdown field and one ZREM for up to SCRIPT_ENTRIES of an account's calls.
 */
class CommitBatch {
  private groups = new Map<
    string,
    {
      keys: string[];
      calls: Array<{ holdId: string | null; field: string; resolve: (used: number) => void; reject: (err: Error) => void }>;
    }
  >();

  add(keys: [string, string, string], holdId: string | null, field: string): Promise<number> {
    let group = this.groups.get(keys[0]);
    if (!group) this.groups.set(keys[0], (group = { keys, calls: [] }));
    const calls = group.calls;
    return new Promise((resolve, reject) => calls.push({ holdId, field, resolve, reject }));
  }

  /** What waits, as scripts of at most SCRIPT_ENTRIES calls each (an account's calls may span several). */
  take(): Script[] {
    const groups = [...this.groups.values()];
    this.groups = new Map();
    const scripts: Script[] = [];
    let script: (Script & { entries: Array<Array<{ resolve: (used: number) => void; reject: (err: Error) => void }>> }) | null = null;
    let size = 0;
    for (const g of groups) {
      for (let from = 0; from < g.calls.length; from += SCRIPT_ENTRIES) {
        const calls = g.calls.slice(from, from + SCRIPT_ENTRIES);
        if (!script || size + calls.length > SCRIPT_ENTRIES) {
          const entries: Array<typeof calls> = [];
          script = {
            command: 'mboaCommit',
            keys: [],
            args: [],
            entries,
            // Each call gets the month's count as it stood once it was in: the entry's last, the whole count.
            deliver: (results) =>
              entries.forEach((entry, i) => {
                const used = Number(results[i]);
                if (Number.isFinite(used)) entry.forEach((c, j) => c.resolve(used - (entry.length - 1 - j)));
                else for (const c of entry) c.reject(new Error('redis answered a batch short'));
              }),
            fail: (err) => {
              for (const entry of entries) for (const c of entry) c.reject(err);
            },
          };
          scripts.push(script);
          size = 0;
        }
        const holds = calls.flatMap((c) => (c.holdId ? [c.holdId] : []));
        const fields = new Map<string, number>();
        for (const c of calls) fields.set(c.field, (fields.get(c.field) ?? 0) + 1);
        script.keys.push(...g.keys);
        script.args.push(holds.length, fields.size, calls.length, USED_TTL_SECONDS, ...holds);
        for (const [field, n] of fields) script.args.push(field, n);
        script.entries.push(calls);
        size += calls.length;
      }
    }
    return scripts;
  }
}
