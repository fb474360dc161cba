/**
 * The market explorer's calls, over HTTP against a real server: the page reads /api/v1 as
 * one of its session's keys, so plan gates, datasets and figures are the key's own; its
 * calls are never charged to the monthly quota; they are limited per dashboard session
 * (429 past the limit, another session unaffected); a credential is refused once it no
 * longer stands for a live session holding that key.
 */
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyUsage } from '../../server/accounts/usage.js';
import type { TestServer } from '../helpers/server.js';
import { get, storedUsage } from '../helpers/server.js';
import { itWhen } from '../helpers/requires.js';
import { explorerGet, explorerPage, explorerUser, logIn, startExplorerServer, testKeyOf } from './explorer-helpers.js';
import { csrfOf } from './helpers.js';

let t: TestServer;
/** A quarter of Douala whose rents rest on enough listings, found in the tables themselves. */
let neighborhood: string;
beforeAll(async () => {
  t = await startExplorerServer();
  const { rows } = await t.db.pool.query<{ neighborhood: string }>(
    `SELECT neighborhood FROM market_stats
     WHERE city = 'Douala' AND purpose = 'rent' AND neighborhood IS NOT NULL AND type IS NULL AND bedrooms IS NULL AND volume >= 5
     ORDER BY volume DESC, neighborhood LIMIT 1`,
  );
  neighborhood = rows[0].neighborhood;
});
afterAll(() => t.close());

const q = (s: string) => encodeURIComponent(s);

describe('the page', () => {
  it('hands its script a credential acting as the account’s live key, under a strict CSP, and says its calls are not charged', async () => {
    const user = await explorerUser(t, 'pro');
    const page = await explorerPage(user);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.html).not.toMatch(/<script(?![^>]*(src=|type="application\/json"))/);
    expect(page.config.key).toMatchObject({ kind: 'live', prefix: user.key.slice(0, page.config.key!.prefix.length) });
    expect(page.config.plan).toBe('pro');
    expect(page.config.view).toEqual({ city: 'Douala', purpose: 'rent', type: null, bedrooms: null, colour: 'median' });
    expect(page.html).toContain('data-testid="explorer-uncounted"');
    expect(page.html).toMatch(/not charged to your monthly quota/);
    // Douala's quarters, each at its gazetteer point.
    expect(page.config.cities[0].neighborhoods.length).toBeGreaterThanOrEqual(90);
    // The view asked for, spelt any way; anything unknown falls back.
    const asked = await explorerPage(user, '?city=yaounde&purpose=sale&type=villa&bedrooms=3&colour=change');
    expect(asked.config.view).toEqual({ city: 'Yaoundé', purpose: 'sale', type: 'villa', bedrooms: 3, colour: 'change' });
    const odd = await explorerPage(user, '?city=Paris&purpose=lease&bedrooms=12&colour=red');
    expect(odd.config.view).toEqual({ city: 'Douala', purpose: 'rent', type: null, bedrooms: null, colour: 'median' });
  });

  it('loads under 250 kB compressed, everything from this server', async () => {
    const user = await explorerUser(t, 'pro');
    const page = await explorerPage(user);
    const assets = [...page.html.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.map((a) => a.split('?')[0]).sort()).toEqual([
      '/dashboard/assets/dashboard.css',
      '/dashboard/assets/dashboard.js',
      '/dashboard/assets/explorer.css',
      '/dashboard/assets/explorer.js',
    ]);
    expect(page.html).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
    let bytes = gzipSync(page.html).length;
    for (const asset of assets) {
      const res = await fetch(`${t.baseUrl}${asset}`);
      expect(res.status, asset).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      bytes += gzipSync(Buffer.from(await res.arrayBuffer())).length;
    }
    console.info(`explorer: page and assets ${(bytes / 1024).toFixed(1)} kB gzipped`);
    expect(bytes).toBeLessThan(250 * 1024);
  });

  it('sends a visitor without a session to log in, and back', async () => {
    const res = await fetch(`${t.baseUrl}/dashboard/market?city=Douala`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dashboard/login?next=%2Fmarket%3Fcity%3DDouala');
  });
});

describe('calls of the explorer', () => {
  it('answer the figures the key’s own call answers, and are never charged', async () => {
    const user = await explorerUser(t, 'pro');
    const { config } = await explorerPage(user);
    const paths = [
      `/api/v1/market/stats?city=Douala&neighborhood=${q(neighborhood)}&purpose=rent`,
      `/api/v1/market/history?city=Douala&neighborhood=${q(neighborhood)}&purpose=rent&months=36`,
      `/api/v1/listings?city=Douala&neighborhood=${q(neighborhood)}&purpose=rent&limit=50`,
    ];
    const before = await storedUsage(t, user.accountId);
    const answers = [];
    for (const path of paths) {
      const res = await explorerGet(t.baseUrl, path, config.credential!);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-mboa-dataset')).toBe('live');
      expect(res.body.meta.quota.used).toBe(before);
      answers.push(res.body);
    }
    // Twenty more, and the CSV: still nothing charged.
    for (let i = 0; i < 20; i++) expect((await explorerGet(t.baseUrl, paths[0], config.credential!)).status).toBe(200);
    const csv = await explorerGet(t.baseUrl, paths[1], config.credential!, { Accept: 'text/csv' });
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await storedUsage(t, user.accountId)).toBe(before);

    // The same calls with the key: the same figures, each charged once (so the count above could have moved).
    for (const [i, path] of paths.entries()) {
      const direct = await get(t.baseUrl, path, user.key);
      expect(direct.status).toBe(200);
      expect(answers[i].data).toEqual(direct.body.data);
      expect(direct.body.meta.quota.used).toBe(before + i + 1);
    }
    const directCsv = await get(t.baseUrl, paths[1], user.key, { Accept: 'text/csv' });
    expect(csv.text).toBe(directCsv.text);
    expect(await storedUsage(t, user.accountId)).toBe(before + paths.length + 1);
    expect((await monthlyUsage(t.db.prisma, user.accountId)).used).toBe(before + paths.length + 1);
  });

  it('meet the plan’s gates as the key does: Starter has no history, valuations are Enterprise’s (a preview on the sample aside)', async () => {
    const starter = await explorerUser(t, 'starter');
    const { config } = await explorerPage(starter);
    const history = `/api/v1/market/history?city=Douala&neighborhood=${q(neighborhood)}&purpose=rent&months=36`;
    const viaPage = await explorerGet(t.baseUrl, history, config.credential!);
    const viaKey = await get(t.baseUrl, history, starter.key);
    expect(viaPage.status).toBe(403);
    expect(viaPage.body.code).toBe('plan_forbidden');
    expect(viaPage.body.detail).toBe(viaKey.body.detail);
    expect((await explorerGet(t.baseUrl, `/api/v1/market/trends?city=Douala`, config.credential!)).body.code).toBe('plan_forbidden');
    expect((await explorerGet(t.baseUrl, `/api/v1/market/stats?city=Douala&purpose=rent`, config.credential!)).status).toBe(200);

    const valuation = `/api/v1/valuations?city=Douala&neighborhood=${q(neighborhood)}&type=apartment&purpose=rent&bedrooms=2`;
    expect((await explorerGet(t.baseUrl, valuation, config.credential!)).body.code).toBe('plan_forbidden');
    // The preview: the same endpoint over the public sample, marked as such, whatever the plan.
    const preview = await explorerGet(t.baseUrl, valuation, `${config.credential}.preview`);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('x-mboa-dataset')).toBe('sample');
    expect(preview.body.meta.dataset).toBe('sample');
    expect(preview.body.data.estimate.low).toBeLessThanOrEqual(preview.body.data.estimate.price);
    // A preview opens valuations only: the history stays Pro's.
    expect((await explorerGet(t.baseUrl, history, `${config.credential}.preview`)).body.code).toBe('plan_forbidden');
    // Refusals are never charged, and the explorer's answers neither.
    expect(await storedUsage(t, starter.accountId)).toBe(0);
  });

  it('read the public sample, marked, when the session acts as a test key', async () => {
    const user = await explorerUser(t, 'pro');
    const test = await testKeyOf(t, user.accountId);
    const page = await explorerPage(user, `?key=${test.id}`);
    expect(page.config.key).toMatchObject({ id: test.id, kind: 'test' });
    expect(page.html).toContain('data-testid="explorer-sample"');
    const path = `/api/v1/market/stats?city=Douala&purpose=rent`;
    const viaPage = await explorerGet(t.baseUrl, path, page.config.credential!);
    const viaKey = await get(t.baseUrl, path, test.key);
    expect(viaPage.headers.get('x-mboa-dataset')).toBe('sample');
    expect(viaPage.body.meta.dataset).toBe('sample');
    expect(viaPage.body.data).toEqual(viaKey.body.data);
  });

  it('are refused once the credential stands for no live session holding that key', async () => {
    const user = await explorerUser(t, 'pro');
    const other = await explorerUser(t, 'pro');
    const { config } = await explorerPage(user);
    const path = '/api/v1/market/stats?city=Douala&purpose=rent';
    const [sessionId, csrf, keyId] = config.credential!.split('.');
    const otherKey = (await explorerPage(other)).config.key!.id;
    for (const credential of [
      'nonsense',
      `${sessionId}.${'x'.repeat(43)}.${keyId}`,
      `${sessionId}.${csrf}.${otherKey}`,
      `${'0'.repeat(64)}.${csrf}.${keyId}`,
    ]) {
      const res = await explorerGet(t.baseUrl, path, credential);
      expect(res.status, credential).toBe(401);
      expect(res.body.code).toBe('invalid_api_key');
    }
    // A revoked key is refused at once, as the key itself is.
    expect((await explorerGet(t.baseUrl, path, config.credential!)).status).toBe(200);
    await t.db.pool.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [keyId]);
    await expect.poll(async () => (await explorerGet(t.baseUrl, path, config.credential!)).status, { timeout: 5_000 }).toBe(401);
    // A session logged out: its credential, never used before, is refused.
    const again = await explorerUser(t, 'pro');
    const page = await explorerPage(again);
    const home = await again.client.get('/dashboard/');
    expect((await again.client.post('/dashboard/logout', { _csrf: csrfOf(home.text) })).status).toBe(303);
    expect((await explorerGet(t.baseUrl, path, page.config.credential!)).status).toBe(401);
    // No page for a visitor either.
    expect((await again.client.get('/dashboard/market')).status).toBe(303);
  });
});

describe('what the explorer may not do', () => {
  it('export in bulk: refused, and nothing charged', async () => {
    const user = await explorerUser(t, 'enterprise');
    const { config } = await explorerPage(user);
    const res = await explorerGet(t.baseUrl, '/api/v1/exports/listings?city=Kribi', config.credential!);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('plan_forbidden');
    expect(res.body.detail).toContain('with your API key');
    expect((await get(t.baseUrl, '/api/v1/exports/listings?city=Kribi', user.key)).status).toBe(200);
    expect(await storedUsage(t, user.accountId)).toBe(1);
  });
});

describe('the per-session limit', () => {
  const limited = (redis: boolean) => async () => {
    const server = await startExplorerServer({ explorerLimit: { points: 5, windowSeconds: 60 }, redis });
    try {
      const user = await explorerUser(server, 'enterprise');
      const { config } = await explorerPage(user);
      const path = `/api/v1/market/stats?city=Douala&neighborhood=${q(neighborhood)}&purpose=rent`;
      for (let i = 0; i < 5; i++) expect((await explorerGet(server.baseUrl, path, config.credential!)).status).toBe(200);
      const refused = await explorerGet(server.baseUrl, path, config.credential!);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(refused.body.detail).toContain('5 calls per 60 s for one dashboard session');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // The key itself is not limited by it, nor is another session of the same account.
      expect((await get(server.baseUrl, path, user.key)).status).toBe(200);
      const second = await logIn(server, user.email);
      const page = await second.get('/dashboard/market');
      const credential = /"credential":"([^"]+)"/.exec(page.text)![1];
      expect((await explorerGet(server.baseUrl, path, credential)).status).toBe(200);
      // Only the key's own call was charged.
      expect(await storedUsage(server, user.accountId)).toBe(1);
    } finally {
      await server.close();
    }
  };
  it('answers 429 past the limit, in memory without Redis', limited(false));
  itWhen(Boolean(process.env.REDIS_URL), 'Redis (REDIS_URL)')('answers 429 past the limit, counted in Redis', limited(true));
});
