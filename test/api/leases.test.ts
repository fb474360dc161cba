/**
 * Leases (server/quota/leases.ts): under a steady stream of counted calls an instance takes
 * its next calls' slots from Redis ahead, and nothing of the quota's exactness is given up:
 * every answered call counted once, none past the quota, and what a lease leaves unused
 * given back (slots and per-minute calls).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { Admission, type AdmissionCaller, type Ticket } from '../../server/quota/admission.js';
import { LEASE_MIN_RATE, LEASE_MS, MAX_LEASE } from '../../server/quota/leases.js';
import { createLogger } from '../../server/platform/logger.js';
import { BackgroundWork } from '../../server/platform/background-work.js';
import { itOnServer, itWhen } from '../helpers/requires.js';
import { get, startTestServer, storedUsage, type TestServer } from '../helpers/server.js';

const it = itWhen(Boolean(process.env.REDIS_URL), 'Redis (REDIS_URL)');
/**
 * 9,000 admissions at once measure Redis's scripts. The embedded database runs in the test's
 * own process, where its work can hold the event loop past Redis's 500 ms command timeout:
 * admission then rightly falls back to PostgreSQL, and the slots in Redis no longer measure it.
 */
const itBurst = process.env.MBOA_TEST_EMBEDDED === '1' ? itOnServer('the embedded database shares the event loop with Redis replies') : it;
const DETAIL_MISS = '/api/v1/listings?limit=1';

let redis: Redis;
let servers: TestServer[] = [];
beforeAll(async () => {
  if (!process.env.REDIS_URL) return;
  redis = new Redis(process.env.REDIS_URL);
  servers = await Promise.all([1, 2].map(() => startTestServer({ redis: true })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  redis?.disconnect();
});

/** `total` calls, `concurrency` at a time, alternating between the instances. */
async function stream(key: string, total: number, concurrency: number) {
  const statuses: number[] = [];
  const codes: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const a = await get(servers[i % servers.length].baseUrl, DETAIL_MISS, key);
        statuses.push(a.status);
        if (a.status !== 200) codes.push(a.body.code);
      }
    }),
  );
  return { statuses, codes };
}

/** Slots held in Redis and calls of the minute's windows for an account. */
async function inRedis(accountId: string) {
  const holds = await redis.keys(`mboa:qh:{${accountId}}:*`);
  const held = holds.length ? (await Promise.all(holds.map((k) => redis.zcard(k)))).reduce((a, b) => a + b, 0) : 0;
  const windows = await redis.keys(`mboa:rl:{${accountId}}:*`);
  const calls = windows.length ? (await redis.mget(...windows)).reduce((n, v) => n + Number(v ?? 0), 0) : 0;
  return { held, calls };
}

const leased = () => servers.reduce((n, s) => n + s.server.admission.leasedCalls, 0);

describe('leases', () => {
  it('a steady stream through 2 instances: most calls leased, each counted once, nothing left held', async () => {
    const { id, key } = await servers[0].account('enterprise', { monthlyQuota: 100_000, rateLimit: 1_000_000 });
    const before = leased();
    const { statuses } = await stream(key, 2_000, 24);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2_000);
    expect(leased() - before).toBeGreaterThan(1_000);
    // A lease counts its calls once it ends (within LEASE_MS), and gives back what it left
    // unused: then no slot is held, and the window has exactly the calls made.
    await new Promise((r) => setTimeout(r, LEASE_MS * 3));
    for (const s of servers) await s.server.flushUsage();
    expect(await storedUsage(servers[0], id)).toBe(2_000);
    expect(await inRedis(id)).toEqual({ held: 0, calls: 2_000 });
  }, 60_000);

  it('up to the quota and past it: exactly the quota answered and stored, the rest refused', async () => {
    const { id, key } = await servers[0].account('enterprise', { monthlyQuota: 1_500, rateLimit: 1_000_000 });
    const before = leased();
    const { statuses, codes } = await stream(key, 2_500, 24);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1_500);
    expect(codes.length).toBe(1_000);
    expect(new Set(codes)).toEqual(new Set(['quota_exceeded']));
    expect(leased() - before).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, LEASE_MS * 3));
    for (const s of servers) await s.server.flushUsage();
    expect(await storedUsage(servers[0], id)).toBe(1_500);
    expect((await inRedis(id)).held).toBe(0);
  }, 60_000);

  it('a leased call that fails is not charged, and its slot goes back to the quota', async () => {
    const { id } = await servers[0].account('pro', { monthlyQuota: 10_000 });
    const keyId = (await servers[0].db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [id])).rows[0].id;
    const admission = new Admission({ pool: servers[0].db.pool, redis, logger: createLogger('silent'), background: new BackgroundWork() });
    const caller: AdmissionCaller = { accountId: id, keyId, monthlyQuota: 10_000, ratePerMinute: 100_000 };
    try {
      // Two periods of demand, then a burst: the burst is served from a lease.
      const tickets = [];
      for (let round = 0; round < 3; round++) {
        const admitted = await Promise.all(Array.from({ length: 40 }, () => admission.admit(caller, 'listings.search', true, new Date())));
        for (const a of admitted) {
          expect(a.outcome).toBe('admitted');
          tickets.push(a.ticket!);
        }
        await new Promise((r) => setTimeout(r, LEASE_MS));
      }
      expect(admission.leasedCalls).toBeGreaterThan(0);
      // Every other call fails: 60 answered, 60 not.
      await Promise.all(tickets.map((t, i) => admission.settle(t, i % 2 === 0)));
      await admission.stop();
      const { rows } = await servers[0].db.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1', [id]);
      expect(rows[0].used).toBe(60);
      expect((await inRedis(id)).held).toBe(0);
    } finally {
      await admission.stop();
    }
  }, 30_000);

  it('Redis lost while leased calls are in flight: the answered ones are counted in PostgreSQL, once', async () => {
    const { id } = await servers[0].account('pro', { monthlyQuota: 10_000 });
    const keyId = (await servers[0].db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [id])).rows[0].id;
    // Its own connection to Redis, to lose.
    const own = new Redis(process.env.REDIS_URL!);
    await new Promise((r) => own.once('ready', r));
    const admission = new Admission({
      pool: servers[0].db.pool,
      redis: own,
      logger: createLogger('silent'),
      background: new BackgroundWork(),
    });
    const caller: AdmissionCaller = { accountId: id, keyId, monthlyQuota: 10_000, ratePerMinute: 100_000 };
    try {
      const tickets: Ticket[] = [];
      // Bursts of 40, half a lease period apart, until the demand has earned a lease (a lease
      // is sized on the calls of the last period: on a loaded machine three bursts may not do).
      for (let round = 0; round < 20 && !tickets.some((t) => t.lease); round++) {
        const admitted = await Promise.all(Array.from({ length: 40 }, () => admission.admit(caller, 'listings.search', true, new Date())));
        tickets.push(...admitted.map((a) => a.ticket!));
        await new Promise((r) => setTimeout(r, LEASE_MS / 2));
      }
      const fromLeases = tickets.filter((t) => t.lease).length;
      expect(fromLeases).toBeGreaterThan(0);
      // What Redis counted before it was lost: the calls admitted alone, none answered yet.
      own.disconnect();
      await Promise.all(tickets.map((t, i) => admission.settle(t, i % 2 === 0)));
      await admission.stop();
      const { rows } = await servers[0].db.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1', [id]);
      // Every other call answered 2xx: exactly those are charged.
      expect(rows[0].used).toBe(Math.ceil(tickets.length / 2));
    } finally {
      await admission.stop();
      own.disconnect();
    }
  }, 30_000);

  it('over the per-minute limit while another instance holds leased calls: waits for them instead of being refused', async () => {
    const { id } = await servers[0].account('pro', { monthlyQuota: 100_000, rateLimit: LEASE_MIN_RATE });
    const keyId = (await servers[0].db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [id])).rows[0].id;
    const caller: AdmissionCaller = { accountId: id, keyId, monthlyQuota: 100_000, ratePerMinute: LEASE_MIN_RATE };
    const open = () => new Admission({ pool: servers[0].db.pool, redis, logger: createLogger('silent'), background: new BackgroundWork() });
    const [a, b] = [open(), open()];
    const admit = (x: Admission) => x.admit(caller, 'listings.search', true, new Date());
    try {
      const nextPeriod = () => new Promise((r) => setTimeout(r, LEASE_MS - (Date.now() % LEASE_MS) + 5));
      // Instance a: one call (Redis learns the month's count), 10 calls within one period,
      // then in the next period one more, which takes a lease of 10.
      expect((await admit(a)).outcome).toBe('admitted');
      await nextPeriod();
      for (const r of await Promise.all(Array.from({ length: 10 }, () => admit(a)))) expect(r.outcome).toBe('admitted');
      await nextPeriod();
      expect((await admit(a)).outcome).toBe('admitted');
      const window = `mboa:rl:{${id}}:${Math.floor(Date.now() / 60_000)}`;
      expect(await redis.get(`${window}:leased`)).toBe('10');
      expect(await redis.get(window)).toBe('21');
      // 12 calls made, 9 leased and unused: all of instance b's 988 calls at once get through,
      // the last of them once a's lease gives its 9 back...
      const rest = LEASE_MIN_RATE - 12;
      const burst = await Promise.all(Array.from({ length: rest }, () => admit(b)));
      expect(burst.filter((r) => r.outcome === 'admitted')).toHaveLength(rest);
      // ...and then the limit holds: exactly the limit in the window, none leased, the next refused.
      expect(await redis.get(window)).toBe(String(LEASE_MIN_RATE));
      expect(await redis.get(`${window}:leased`)).toBe('0');
      expect((await admit(b)).outcome).toBe('rate_limited');
    } finally {
      await a.stop();
      await b.stop();
    }
  }, 30_000);

  itBurst(
    '9,000 calls admitted and answered in one turn: sent as several scripts, each counted once, no slot left held',
    async () => {
      const { id } = await servers[0].account('enterprise', { monthlyQuota: 20_000 });
      const keyId = (await servers[0].db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [id])).rows[0].id;
      const admission = new Admission({
        pool: servers[0].db.pool,
        redis,
        logger: createLogger('silent'),
        background: new BackgroundWork(),
      });
      const caller: AdmissionCaller = { accountId: id, keyId, monthlyQuota: 20_000, ratePerMinute: null };
      try {
        // One instant for all: calls spread over two lease periods would ask for a lease.
        const now = new Date();
        const admitted = await Promise.all(Array.from({ length: 9_000 }, () => admission.admit(caller, 'listings.search', true, now)));
        expect(admitted.every((a) => a.outcome === 'admitted')).toBe(true);
        // Each call holds its slot; a lease, if a slow turn made one (the calls' clock crossed a
        // lease period while they waited to be sent), holds at most MAX_LEASE more until it ends.
        const held = (await inRedis(id)).held;
        expect(held).toBeGreaterThanOrEqual(9_000);
        expect(held).toBeLessThanOrEqual(9_000 + MAX_LEASE);
        await Promise.all(admitted.map((a) => admission.settle(a.ticket!, true)));
        // Stopping ends any lease, which gives back what it did not use.
        await admission.stop();
        expect((await inRedis(id)).held).toBe(0);
        const { rows } = await servers[0].db.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1', [id]);
        expect(rows[0].used).toBe(9_000);
      } finally {
        await admission.stop();
      }
    },
    60_000,
  );
});
