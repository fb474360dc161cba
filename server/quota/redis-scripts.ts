/**
 * The Lua scripts of the Redis store (redis-store.ts), each run atomically by Redis: the
 * admission of a turn's calls, the counts of answered calls, a lease's write, and the two
 * steps of reconciliation after an outage (failover.ts). Keys are described in redis-store.ts.
 */
import type { Redis } from 'ioredis';

/** Long enough for a month and its stragglers; the count is seeded from PostgreSQL if it is gone. */
export const USED_TTL_SECONDS = 40 * 86_400;

/** A lease of n slots needs this many times n left in the window and in the quota. */
const LEASE_ROOM = 4;

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
 * How long a counting script's mark of being done is kept. A script whose answer did
 * not come (a command timeout under load: Redis may well have run it) is sent again, as it
 * was, for a few seconds (redis-store.ts, RESEND_WAITS_MS): the mark makes it count once.
 */
const DONE_TTL_MS = 60_000;

/** The key that marks one counting script done: unique per script sent. */
export function doneKey(accountTag: string, id: string): string {
  return `mboa:done:{${accountTag}}:${id}`;
}

/**
 * What a lease writes (leases.ts, LeaseWrite): frees its slots `{ARGV[1]}:{j}` for j in
 * [ARGV[2], ARGV[3]) (at most MAX_LEASE), counts its ARGV[4] calls answered (the month's
 * count, whose TTL is ARGV[7], and the breakdown: field and calls from ARGV[8] on), gives
 * back ARGV[5] calls of the window it did not make, and takes its size ARGV[6] off the
 * window's leased calls. Returns the month's count once its calls are in, -1 when none.
 * KEYS[5] marks the write done (see DONE_TTL_MS): sent again, it changes nothing.
 */
const LEASE_WRITE = `
if redis.call('SET', KEYS[5], '1', 'NX', 'PX', ${DONE_TTL_MS}) == false then
  if tonumber(ARGV[4]) > 0 then return tonumber(redis.call('GET', KEYS[1]) or '-1') end
  return -1
end
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
 * month's count once the entry's calls are in it. The last key marks the script done (see
 * DONE_TTL_MS): sent again, it only reads the months' counts.
 */
const COMMIT = `
local groups = (#KEYS - 1) / 3
local out = {}
if redis.call('SET', KEYS[#KEYS], '1', 'NX', 'PX', ${DONE_TTL_MS}) == false then
  for g = 0, groups - 1 do out[g + 1] = tonumber(redis.call('GET', KEYS[g * 3 + 1]) or '0') end
  return out
end
local a = 1
for g = 0, groups - 1 do
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

export type AdmissionRedis = Redis & {
  mboaAdmit(numberOfKeys: number, ...args: Array<string | number>): Promise<number[]>;
  mboaCommit(numberOfKeys: number, ...args: Array<string | number>): Promise<number[]>;
  mboaMirror(key: string): Promise<number>;
  mboaLeaseWrite(
    used: string,
    holds: string,
    window: string,
    pending: string,
    done: string,
    ...args: Array<string | number>
  ): Promise<number>;
  mboaRaise(key: string, calls: number, ttlMs: number): Promise<number>;
};

/** The client with the scripts defined as commands (once per client: several stores may share it). */
export function withScripts(redis: Redis): AdmissionRedis {
  if (!('mboaAdmit' in redis)) {
    redis.defineCommand('mboaAdmit', { lua: ADMIT });
    redis.defineCommand('mboaCommit', { lua: COMMIT });
    redis.defineCommand('mboaMirror', { numberOfKeys: 1, lua: MIRROR });
    redis.defineCommand('mboaLeaseWrite', { numberOfKeys: 5, lua: LEASE_WRITE });
    redis.defineCommand('mboaRaise', { numberOfKeys: 1, lua: RAISE });
  }
  return redis as AdmissionRedis;
}
