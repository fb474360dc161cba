/**
 * Rate limit and quota, per account and exact: small per-account overrides make them
 * reachable; concurrency must never let an account past its quota or lose a count.
 */
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { PING_RATE_PER_MINUTE } from '../../contract/plans.js';
import { itWhen } from '../helpers/requires.js';
import { get, startTestServer, storedUsage, type TestServer } from '../helpers/server.js';

const SEARCH = '/api/v1/listings?limit=1';
const redis = Boolean(process.env.REDIS_URL);

// The same rules whether the counts live in Redis or in PostgreSQL (no Redis configured,
// or Redis lost: see test/faults for the switch between the two).
describe.each([
  { store: 'postgres', available: true },
  { store: 'redis', available: redis },
])('counted in $store', ({ store, available }) => {
  let t: TestServer;
  beforeAll(async () => {
    if (available) t = await startTestServer({ redis: store === 'redis' });
  });
  afterAll(() => t?.close());
  const it = itWhen(available, 'Redis (REDIS_URL)');

  describe('rate limit', () => {
    it('refuses the call past the per-minute limit with 429 rate_limited, Retry-After and meta.quota', async () => {
      const { key } = await t.account('starter', { rateLimit: 3 });
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await get(t.baseUrl, SEARCH, key));
      expect(answers.slice(0, 3).map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers[0].headers.get('ratelimit-policy')).toBe('"minute";q=3;w=60');
      expect(answers[0].headers.get('ratelimit')).toMatch(/^"minute";r=2;t=\d+$/);
      expect(answers[2].headers.get('x-ratelimit-remaining')).toBe('0');
      const refused = answers[3];
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(refused.headers.get('x-should-retry')).toBeNull();
      expect(refused.body.meta.quota).toMatchObject({ plan: 'starter', used: 3, limit: 10000, remaining: 9997 });
    });

    it('is per account, not per key: a second key does not buy more calls', async () => {
      const account = await t.account('pro', { rateLimit: 2 });
      const { createKey } = await import('../../server/accounts/keys.js');
      const second = (await createKey(t.db.prisma, account.id, 'second')).key;
      expect((await get(t.baseUrl, SEARCH, account.key)).status).toBe(200);
      expect((await get(t.baseUrl, SEARCH, second)).status).toBe(200);
      expect((await get(t.baseUrl, SEARCH, second)).status).toBe(429);
      expect((await get(t.baseUrl, SEARCH, account.key)).status).toBe(429);
    });

    it('is shared by every server instance', async () => {
      const a = await startTestServer({ redis: store === 'redis' });
      const b = await startTestServer({ redis: store === 'redis' });
      try {
        const { key } = await a.account('starter', { rateLimit: 4 });
        const statuses = [];
        for (const server of [a, b, a, b, a]) statuses.push((await get(server.baseUrl, SEARCH, key)).status);
        expect(statuses).toEqual([200, 200, 200, 200, 429]);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });

  describe('ping', () => {
    it('answers past the per-minute limit, never takes from it, and shows it as it stands', async () => {
      const { id, key } = await t.account('starter', { rateLimit: 3, monthlyQuota: 50 });
      const before = await get(t.baseUrl, '/api/v1/ping', key);
      expect(before.status).toBe(200);
      expect(before.headers.get('ratelimit')).toMatch(/^"minute";r=3;t=\d+$/);
      for (let i = 0; i < 3; i++) expect((await get(t.baseUrl, SEARCH, key)).status).toBe(200);
      expect((await get(t.baseUrl, SEARCH, key)).status).toBe(429);
      for (let i = 0; i < 10; i++) {
        const ping = await get(t.baseUrl, '/api/v1/ping', key);
        expect(ping.status, ping.text).toBe(200);
        expect(ping.headers.get('ratelimit-policy')).toBe('"minute";q=3;w=60');
        expect(ping.headers.get('x-ratelimit-remaining')).toBe('0');
        expect(ping.headers.get('ratelimit')).toMatch(/^"minute";r=0;t=\d+$/);
        expect(ping.body.meta.quota).toMatchObject({ used: 3, remaining: 47, limit: 50 });
        expect(ping.headers.get('x-quota-remaining')).toBe('47');
      }
      expect(await storedUsage(t, id)).toBe(3);
    });

    it(`has a limit of its own, ${PING_RATE_PER_MINUTE} a minute per account, apart from the plan's`, async () => {
      const { key } = await t.account('pro', { rateLimit: 5 });
      const answers = await Promise.all(Array.from({ length: PING_RATE_PER_MINUTE + 5 }, () => get(t.baseUrl, '/api/v1/ping', key)));
      const refused = answers.filter((a) => a.status === 429);
      // Within one minute's window, or two when the test straddles a window's end.
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.length).toBeLessThanOrEqual(5);
      expect(refused[0].body.detail).toMatch(/pings a minute/);
      // The plan's window is untouched.
      expect((await get(t.baseUrl, SEARCH, key)).headers.get('ratelimit')).toMatch(/^"minute";r=4;/);
    });
  });

  describe('quota', () => {
    it('counts 2xx calls only; errors and ping are never charged', async () => {
      const { id, key } = await t.account('starter', { monthlyQuota: 100 });
      expect((await get(t.baseUrl, SEARCH, key)).body.meta.quota).toMatchObject({ used: 1, remaining: 99, limit: 100 });
      expect((await get(t.baseUrl, '/api/v1/listings?limit=500', key)).status).toBe(400);
      expect((await get(t.baseUrl, `/api/v1/listings/lst_${'z'.repeat(20)}`, key)).status).toBe(404);
      expect((await get(t.baseUrl, '/api/v1/market/trends', key)).status).toBe(403);
      const ping = await get(t.baseUrl, '/api/v1/ping', key);
      expect(ping.body.meta.quota).toMatchObject({ used: 1, remaining: 99 });
      expect(ping.body.data).toMatchObject({ status: 'ok' });
      const notFound = await get(t.baseUrl, `/api/v1/listings/lst_${'z'.repeat(20)}`, key);
      expect(notFound.body.meta.quota).toMatchObject({ used: 1 });
      expect(await storedUsage(t, id)).toBe(1);
    });

    it('sends quota headers and resets_at on the 1st of next month, 00:00 UTC', async () => {
      const { key } = await t.account('pro');
      const res = await get(t.baseUrl, SEARCH, key);
      const now = new Date();
      const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
      expect(res.body.meta.quota.resets_at).toBe(reset.toISOString());
      expect(res.headers.get('x-quota-limit')).toBe('100000');
      expect(res.headers.get('x-quota-remaining')).toBe('99999');
      expect(res.headers.get('x-quota-reset')).toBe(String(reset.getTime() / 1000));
    });

    it('refuses past the quota with 429 quota_exceeded, Retry-After to the reset and X-Should-Retry: false', async () => {
      const { key } = await t.account('starter', { monthlyQuota: 3 });
      for (let i = 0; i < 3; i++) expect((await get(t.baseUrl, SEARCH, key)).status).toBe(200);
      const refused = await get(t.baseUrl, SEARCH, key);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('quota_exceeded');
      expect(refused.headers.get('x-should-retry')).toBe('false');
      expect(refused.body.detail).toMatch(/upgrade your plan/);
      const now = new Date();
      const untilReset = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
      expect(Math.abs(Number(refused.headers.get('retry-after')) - untilReset)).toBeLessThan(30);
      expect(refused.body.meta.quota).toMatchObject({ used: 3, remaining: 0, limit: 3 });
      // Ping still answers, showing the exhausted quota.
      const ping = await get(t.baseUrl, '/api/v1/ping', key);
      expect(ping.status).toBe(200);
      expect(ping.body.meta.quota.remaining).toBe(0);
    });

    it('never lets concurrent calls past the quota, and loses no count', async () => {
      const quota = 25;
      const { id, key } = await t.account('enterprise', { monthlyQuota: quota });
      const answers = await Promise.all(Array.from({ length: 80 }, () => get(t.baseUrl, SEARCH, key)));
      const ok = answers.filter((a) => a.status === 200);
      expect(ok).toHaveLength(quota);
      expect(answers.filter((a) => a.status === 429 && a.body.code === 'quota_exceeded')).toHaveLength(80 - quota);
      // An Enterprise contract has no bigger plan: the way to more calls is the account manager.
      const refusal = answers.find((a) => a.status === 429)!.body.detail as string;
      expect(refusal).toMatch(/account manager/);
      expect(refusal).not.toMatch(/upgrade/);
      expect(new Set(ok.map((a) => a.body.meta.quota.used))).toEqual(new Set(Array.from({ length: quota }, (_, i) => i + 1)));
      expect(await storedUsage(t, id)).toBe(quota);
    });

    it('is unlimited on Enterprise without override: limit and remaining null', async () => {
      const res = await get(t.baseUrl, SEARCH, t.keys.enterprise);
      expect(res.body.meta.quota).toMatchObject({ plan: 'enterprise', limit: null, remaining: null });
      expect(res.headers.get('ratelimit')).toBeNull();
      expect(res.headers.get('x-quota-limit')).toBe('unlimited');
    });

    it('keeps the per-day, per-endpoint, per-key breakdown equal to the monthly count', async () => {
      const { id, key } = await t.account('pro');
      for (const path of [SEARCH, '/api/v1/market/stats', '/api/v1/market/trends']) {
        const res = await get(t.baseUrl, path, key);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
      expect((await get(t.baseUrl, '/api/v1/listings?limit=0', key)).status).toBe(400); // not counted
      await t.server.flushUsage();
      const { rows } = await t.db.pool.query<{ endpoint: string; calls: number }>(
        'SELECT endpoint, sum(calls)::int AS calls FROM daily_usage WHERE account_id = $1 GROUP BY endpoint ORDER BY endpoint',
        [id],
      );
      expect(rows).toEqual([
        { endpoint: 'listings.search', calls: 1 },
        { endpoint: 'market.stats', calls: 1 },
        { endpoint: 'market.trends', calls: 1 },
      ]);
      expect(await storedUsage(t, id)).toBe(3);
    });
  });
});
