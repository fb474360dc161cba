/**
 * Heavy reads (README, "Heavy reads"; the one table: server/api/costs.ts) are admitted per
 * account by cost: a concurrency cap and a cost-weighted rate, each refusal a 429
 * `rate_limited` with `Retry-After` and a detail naming the cap, never charged; an area
 * history already computed is no heavy read; a read stopped by its statement timeout is a
 * 503 `unavailable` with `Retry-After` and no stack, counted against availability for a
 * cheap read and not for a heavy one.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { get, serverWithAccount, startTestServer, type TestServer } from '../helpers/server.js';

const t = serverWithAccount('pro');
const fresh = (i: number) => `near=${(4.0 + i * 0.011).toFixed(4)},${(9.7 + i * 0.007).toFixed(4)}`;
const AREA = '/api/v1/market/history?city=Douala&purpose=rent&radius_m=5000';
const COUNTRY = '/api/v1/listings?bbox=8.4,1.6,16.2,13.1&status=any&limit=1';

const used = async (server: { baseUrl: string }, key: string) =>
  (await get(server.baseUrl, '/api/v1/ping', key)).body.meta.quota.used as number;

describe('heavy reads, admitted by cost', () => {
  it('runs one area history of an account at a time: the others get 429 naming the concurrency cap, uncharged', async () => {
    const { key } = await t.account('pro');
    const before = await used(t, key);
    const answers = await Promise.all([1, 2, 3, 4].map((i) => get(t.baseUrl, `${AREA}&${fresh(i)}`, key)));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(ok.length + refused.length).toBe(4);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(r.body.code).toBe('rate_limited');
      expect(r.body.detail).toMatch(/^Concurrency cap of heavy reads: at most 1 heavy read of one account/);
      expect(r.body.detail).toMatch(/an area history of 5,000 m not computed yet/);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await used(t, key)).toBe(before + ok.length);
    // Computed now: the same areas are no heavy reads, all answered at once.
    const again = await Promise.all(ok.map((a) => get(t.baseUrl, `${AREA}&near=${a.body.meta.area.lat},${a.body.meta.area.lng}`, key)));
    expect(again.map((a) => a.status)).toEqual(ok.map(() => 200));
    const same = await Promise.all(
      [1, 1, 1].map(() => get(t.baseUrl, `${AREA}&near=${ok[0].body.meta.area.lat},${ok[0].body.meta.area.lng}`, key)),
    );
    expect(same.map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it('takes each read’s cost from a budget per minute: past it, 429 naming the cost cap with the wait, uncharged', async () => {
    // Starter: 20 units a minute; a whole-country box over removed listings too costs 10.
    const { key } = await t.account('starter');
    const before = await used(t, key);
    expect((await get(t.baseUrl, COUNTRY, key)).status).toBe(200);
    expect((await get(t.baseUrl, COUNTRY, key)).status).toBe(200);
    const third = await get(t.baseUrl, COUNTRY, key);
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('rate_limited');
    expect(third.body.detail).toMatch(
      /^Cost cap of heavy reads: 20 cost units a minute per account on a server, and this call \(a geographic read over [\d,]+ km² with status=any\) costs 10\. Retry in \d+ s\.$/,
    );
    const wait = Number(third.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(30);
    expect(third.body.meta.quota.used).toBe(before + 2);
    expect(await used(t, key)).toBe(before + 2);
    // A cheap read still answers meanwhile; so does a small radius of active listings.
    expect((await get(t.baseUrl, '/api/v1/listings?city=Douala&limit=1', key)).status).toBe(200);
    expect((await get(t.baseUrl, '/api/v1/listings?near=4.05,9.70&radius_m=5000&limit=1', key)).status).toBe(200);
  });
});

describe.skipIf(inject('embedded'))(
  'a read past its statement timeout (PostgreSQL: the embedded database enforces no statement timeout)',
  () => {
    let slow: TestServer;
    beforeAll(async () => {
      // Timeouts short enough that every read of these routes runs past them.
      slow = await startTestServer({ server: { statementTimeouts: { cheap: 1, heavy: 1 } } });
    });
    afterAll(() => slow?.close());

    const failures = async (accountId: string) => {
      const { rows } = await slow.db.pool.query<{ failed: number }>(
        'SELECT coalesce(sum(failed), 0)::int AS failed FROM monthly_failures WHERE account_id = $1',
        [accountId],
      );
      return rows[0].failed;
    };

    it('is a 503 unavailable with Retry-After and no stack, uncharged; Mboa’s failure for a cheap read, not for a heavy one', async () => {
      const { id, key } = await slow.account('pro');
      const heavy = await get(slow.baseUrl, `${AREA}&${fresh(9)}`, key);
      expect(heavy.status).toBe(503);
      expect(heavy.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(heavy.body.code).toBe('unavailable');
      expect(heavy.body.detail).toMatch(
        /^This read \(an area history of 5,000 m not computed yet\) was stopped at its time limit of 0\.001 s and not charged\./,
      );
      expect(Number(heavy.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(heavy.text).not.toMatch(/at .*\.ts|canceling statement|SELECT/);

      const cheap = await get(slow.baseUrl, '/api/v1/listings?city=Douala&purpose=rent&min_price=1234', key);
      expect(cheap.status).toBe(503);
      expect(cheap.body.code).toBe('unavailable');
      expect(cheap.body.detail).toMatch(
        /^This read was stopped at its time limit of 0\.001 s and not charged: the service is overloaded\./,
      );
      expect(cheap.text).not.toMatch(/canceling statement|SELECT/);
      expect(await used(slow, key)).toBe(0);
      // Written every few seconds: the cheap read's failure, and only it.
      await expect.poll(() => failures(id), { timeout: 15_000, interval: 250 }).toBe(1);
      await new Promise((ok) => setTimeout(ok, 5_500));
      expect(await failures(id)).toBe(1);
    });
  },
);
