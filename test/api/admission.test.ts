/**
 * What the fast path must not give up: the quota exact across instances, nobody refused
 * while quota remains, slots of calls that never come back freed (never charged), and
 * changes to keys, accounts and data seen by every instance within a second.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeKey } from '../../server/accounts/keys.js';
import { changePlan } from '../../server/accounts/plan-changes.js';
import { Admission, type AdmissionCaller } from '../../server/quota/admission.js';
import { createLogger } from '../../server/platform/logger.js';
import { BackgroundWork } from '../../server/platform/background-work.js';
import { itWhen } from '../helpers/requires.js';
import { get, startTestServer, storedUsage, type TestServer } from '../helpers/server.js';

const hasRedis = Boolean(process.env.REDIS_URL);
const SEARCH = '/api/v1/listings?limit=1';

async function connectedRedis(): Promise<Redis> {
  const redis = new Redis(process.env.REDIS_URL!);
  await new Promise((resolve) => redis.once('ready', resolve));
  return redis;
}

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe.each([
  { store: 'postgres', available: true },
  { store: 'redis', available: hasRedis },
])('quota counted in $store', ({ store, available }) => {
  const it = itWhen(available, 'Redis (REDIS_URL)');

  it('1,000 concurrent calls through 3 instances against a quota of 200: exactly 200 answers of 200, and 200 stored', async () => {
    const servers = await Promise.all([1, 2, 3].map(() => startTestServer({ redis: store === 'redis' })));
    try {
      const { id, key } = await servers[0].account('enterprise', { monthlyQuota: 200 });
      const answers = await Promise.all(Array.from({ length: 1000 }, (_, i) => get(servers[i % 3].baseUrl, SEARCH, key)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(200);
      expect(statuses.filter((s) => s === 429)).toHaveLength(800);
      expect(answers.filter((a) => a.status === 429).every((a) => a.body.code === 'quota_exceeded')).toBe(true);
      for (const s of servers) await s.server.flushUsage();
      expect(await storedUsage(servers[0], id)).toBe(200);
      const { rows } = await t.db.pool.query<{ calls: number }>('SELECT sum(calls)::int AS calls FROM daily_usage WHERE account_id = $1', [
        id,
      ]);
      expect(rows[0].calls).toBe(200);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  }, 120_000);

  it('never refuses while quota remains: a call waits for slots held by calls that may still fail', async () => {
    const { id } = await t.account('pro', { monthlyQuota: 10 });
    const keyId = (await t.db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [id])).rows[0].id;
    const redis = store === 'redis' ? await connectedRedis() : undefined;
    const admission = new Admission({ pool: t.db.pool, redis, logger: createLogger('silent'), background: new BackgroundWork() });
    const caller: AdmissionCaller = { accountId: id, keyId, monthlyQuota: 10, ratePerMinute: null };
    try {
      const now = new Date();
      const held = [];
      for (let i = 0; i < 10; i++) {
        const r = await admission.admit(caller, 'listings.search', true, now);
        expect(r.outcome).toBe('admitted');
        held.push(r.ticket!);
      }
      // Ten slots held, none counted: the eleventh waits instead of being refused...
      const waiting = admission.admit(caller, 'listings.search', true, now);
      await new Promise((r) => setTimeout(r, 300));
      // ...and gets the slot the first failed call frees.
      await admission.settle(held[0], false);
      const eleventh = await waiting;
      expect(eleventh.outcome).toBe('admitted');
      // Now the nine others succeed: ten counted, the quota is used up, and the next is refused.
      for (const ticket of held.slice(1)) await admission.settle(ticket, true);
      await admission.settle(eleventh.ticket!, true);
      const refused = await admission.admit(caller, 'listings.search', true, now);
      expect(refused.outcome).toBe('quota_exceeded');
      expect(refused.used).toBe(10);
    } finally {
      await admission.stop();
      redis?.disconnect();
    }
  });

  it('frees the slots of calls that never come back (a crashed instance) without charging them', async () => {
    const { id } = await t.account('pro', { monthlyQuota: 3 });
    const keyId = (await t.db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [id])).rows[0].id;
    const redis = store === 'redis' ? await connectedRedis() : undefined;
    const crashed = new Admission({
      pool: t.db.pool,
      redis,
      logger: createLogger('silent'),
      background: new BackgroundWork(),
      holdTtlMs: 800,
    });
    const caller: AdmissionCaller = { accountId: id, keyId, monthlyQuota: 3, ratePerMinute: null };
    try {
      for (let i = 0; i < 3; i++) expect((await crashed.admit(caller, 'listings.search', true, new Date())).outcome).toBe('admitted');
      // The instance dies with three calls in flight: nothing settles them.
      await new Promise((r) => setTimeout(r, 1_000));
      const survivor = new Admission({ pool: t.db.pool, redis, logger: createLogger('silent'), background: new BackgroundWork() });
      const after = await survivor.admit(caller, 'listings.search', true, new Date());
      expect(after.outcome).toBe('admitted');
      expect(after.used).toBe(1);
      await survivor.settle(after.ticket!, true);
      await survivor.flushNow();
      const { rows } = await t.db.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1', [id]);
      expect(rows[0].used).toBe(1);
      await survivor.stop();
    } finally {
      await crashed.stop();
      redis?.disconnect();
    }
  });
});

describe('changes reach every instance within a second', () => {
  const within = (probe: () => Promise<number>, status: number) => expect.poll(probe, { timeout: 1_000, interval: 50 }).toBe(status);

  it('a revoked key, a suspended account and a plan change', async () => {
    const a = await startTestServer();
    const b = await startTestServer();
    try {
      const revoked = await a.account('pro');
      const suspended = await a.account('pro');
      const upgraded = await a.account('starter');
      // Every key is known (cached) on both instances first.
      for (const s of [a, b]) {
        for (const k of [revoked.key, suspended.key]) expect((await get(s.baseUrl, SEARCH, k)).status).toBe(200);
        expect((await get(s.baseUrl, '/api/v1/market/trends', upgraded.key)).status).toBe(403);
      }
      await revokeKey(t.db.prisma, revoked.id, revoked.key.slice(0, 16));
      await t.db.prisma.account.update({ where: { id: suspended.id }, data: { status: 'suspended' } });
      await changePlan(t.db.prisma, upgraded.id, 'pro');
      for (const s of [a, b]) {
        await within(async () => (await get(s.baseUrl, SEARCH, revoked.key)).status, 401);
        await within(async () => (await get(s.baseUrl, SEARCH, suspended.key)).status, 403);
        await within(async () => (await get(s.baseUrl, '/api/v1/market/trends', upgraded.key)).status, 200);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a data load: the exact total of a search counts the new listing at once', async () => {
    const { key } = await t.account('enterprise');
    const path = '/api/v1/listings?city=Kribi&type=warehouse&status=any&limit=1';
    const before = (await get(t.baseUrl, path, key)).body.meta.total as number;
    expect((await get(t.baseUrl, path, key)).body.meta.total).toBe(before); // now remembered
    const { rows } = await t.db.pool.query<{ id: string }>(
      `INSERT INTO listings (id, title, price, city, city_key, neighborhood, neighborhood_key, surface, bedrooms, bathrooms, type, purpose,
                             status, listed_at, updated_at, source, source_ref)
       SELECT 'lst_' || substr(md5(random()::text), 1, 20), 'Entrepôt test', 90000000, 'Kribi', 'kribi', 'Centre', 'centre', 800, 0, 1,
              'warehouse', 'sale', 'active', now(), now(), 'test-admission', md5(random()::text)
       RETURNING id`,
    );
    try {
      await expect.poll(async () => (await get(t.baseUrl, path, key)).body.meta.total, { timeout: 1_000, interval: 50 }).toBe(before + 1);
    } finally {
      await t.db.pool.query('DELETE FROM listings WHERE id = $1', [rows[0].id]);
    }
  });
});
