/**
 * Usage on the dashboard equals what the API counted: the home page's used / remaining /
 * reset from monthly_usage, and Pro's analytics (per day, endpoint, key) from daily_usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDay, monthStart, nextMonthStart } from '../../server/accounts/policy.js';
import { monthlyUsage } from '../../server/accounts/usage.js';
import { apiGet, type DashboardServer, revealedKey, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
let listingId: string;
beforeAll(async () => {
  t = await startDashboardServer();
  const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1");
  listingId = rows[0].id;
});
afterAll(() => t.close());

const attr = (html: string, testid: string, name: string) => new RegExp(`data-testid="${testid}" ${name}="([^"]*)"`).exec(html)?.[1];

describe('home', () => {
  it('shows this month’s used, remaining and reset exactly as the API counted them', async () => {
    const client = t.client();
    const { key, accountId } = await signUp(t, client, { plan: 'starter' });
    let last;
    for (let i = 0; i < 3; i++) last = await apiGet(t.baseUrl, '/api/v1/listings?limit=2', key);
    expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=500', key)).status).toBe(400); // not counted
    expect((await apiGet(t.baseUrl, '/api/v1/market/trends', key)).status).toBe(403); // not counted
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(200); // free

    const page = await client.get('/dashboard/');
    const counted = await monthlyUsage(t.db.prisma, accountId);
    expect(counted.used).toBe(3);
    expect(last!.body.meta.quota.used).toBe(3);
    expect(attr(page.text, 'usage-used', 'data-used')).toBe('3');
    const text = textOf(page.text);
    expect(text).toContain('3 of 10,000 calls used');
    expect(text).toContain('Remaining 9,997');
    const reset = nextMonthStart(new Date());
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(reset);
    expect(text).toContain(`Resets ${day}, 00:00 UTC (01:00 in Douala)`);
    expect(text).toContain('Usage analytics come with Pro');
    expect(text).toContain('1 active key, 1 allowed');
  });

  it('says unlimited for Enterprise', async () => {
    const client = t.client();
    const { key } = await signUp(t, client, { plan: 'enterprise' });
    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);
    const text = textOf((await client.get('/dashboard/')).text);
    expect(text).toContain('1 call counted, unlimited plan');
    expect(text).toContain('Remaining Unlimited');
    expect(text).toContain('Rate limit Unlimited');
    expect(text).toContain('1 active key, no limit');
    expect(text).not.toContain('Usage analytics come with Pro');
  });
});

describe('analytics (Pro and Enterprise)', () => {
  it('breaks this month down per day, endpoint and key, equal to daily_usage and monthly_usage', async () => {
    const client = t.client();
    const { key: a, accountId } = await signUp(t, client, { plan: 'pro' });
    const b = revealedKey((await client.submit('/dashboard/keys', '/dashboard/keys', { name: 'Risk team' })).text);
    const calls: Array<[string, string]> = [
      [a, '/api/v1/listings?limit=1'],
      [a, '/api/v1/listings?city=Douala&limit=1'],
      [a, '/api/v1/market/stats?city=Douala'],
      [b, '/api/v1/market/trends?city=Douala'],
      [b, `/api/v1/listings/${listingId}`],
      [b, '/api/v1/ping'],
    ];
    for (const [key, path] of calls) expect((await apiGet(t.baseUrl, path, key)).status).toBe(200);
    await t.flushUsage();

    const page = await client.get('/dashboard/usage');
    expect(page.status).toBe(200);
    expect(attr(page.text, 'usage-total', 'data-used')).toBe('5');
    const wide = page.text.slice(page.text.indexOf('chart-wide'), page.text.indexOf('chart-narrow'));
    const bars = [...wide.matchAll(/data-day="([\d-]+)" data-calls="(\d+)"/g)].map((m) => [m[1], Number(m[2])] as const);
    const now = new Date();
    expect(bars).toHaveLength(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate());
    expect(bars.filter(([, n]) => n > 0)).toEqual([[isoDay(now), 5]]);

    // The tables hold what daily_usage holds.
    const { rows: perEndpoint } = await t.db.pool.query<{ endpoint: string; calls: number }>(
      'SELECT endpoint, sum(calls)::int AS calls FROM daily_usage WHERE account_id = $1 GROUP BY endpoint',
      [accountId],
    );
    expect(Object.fromEntries(perEndpoint.map((r) => [r.endpoint, r.calls]))).toEqual({
      'listings.search': 2,
      'listings.get': 1,
      'market.stats': 1,
      'market.trends': 1,
    });
    const byEndpoint = textOf(page.text.slice(page.text.indexOf('data-testid="by-endpoint"'), page.text.indexOf('data-testid="by-key"')));
    expect(byEndpoint).toContain('listings 2 40%');
    expect(byEndpoint).toContain('listings/{id} 1 20%');
    expect(byEndpoint).toContain('market/stats 1 20%');
    expect(byEndpoint).toContain('market/trends 1 20%');
    expect(byEndpoint).not.toContain('ping');
    const byKey = textOf(page.text.slice(page.text.indexOf('data-testid="by-key"')));
    expect(byKey).toContain(`Main key ${a.slice(0, 16)}… 3 60%`);
    expect(byKey).toContain(`Risk team ${b.slice(0, 16)}… 2 40%`);
    expect((await monthlyUsage(t.db.prisma, accountId)).used).toBe(5);
    expect(page.text).toContain('<svg class="chart chart-wide"');
    expect(page.text).toContain('<title>');
  });

  it('shows an earlier month, day by day, with links between months', async () => {
    const client = t.client();
    const { accountId, key } = await signUp(t, client, { plan: 'enterprise' });
    const keyId = (await t.db.prisma.apiKey.findFirstOrThrow({ where: { accountId } })).id;
    const thisMonth = monthStart(new Date());
    const last = new Date(Date.UTC(thisMonth.getUTCFullYear(), thisMonth.getUTCMonth() - 1, 1));
    const month = isoDay(last).slice(0, 7);
    await t.db.prisma.account.update({ where: { id: accountId }, data: { createdAt: last } });
    // What the API would have written: the month's count and its per-day breakdown together.
    await t.db.pool.query('INSERT INTO monthly_usage (account_id, month, used) VALUES ($1, $2::date, 12)', [accountId, isoDay(last)]);
    await t.db.pool.query(
      `INSERT INTO daily_usage (account_id, day, endpoint, api_key_id, calls) VALUES
       ($1, $2::date, 'listings.search', $4, 7), ($1, $3::date, 'market.stats', $4, 5)`,
      [accountId, `${month}-03`, `${month}-17`, keyId],
    );
    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);

    const page = await client.get(`/dashboard/usage?month=${month}`);
    expect(page.status).toBe(200);
    expect(attr(page.text, 'usage-total', 'data-used')).toBe('12');
    const wide = page.text.slice(page.text.indexOf('chart-wide'), page.text.indexOf('chart-narrow'));
    const nonZero = [...wide.matchAll(/data-day="([\d-]+)" data-calls="(\d+)"/g)]
      .filter((m) => m[2] !== '0')
      .map((m) => [m[1], Number(m[2])]);
    expect(nonZero).toEqual([
      [`${month}-03`, 7],
      [`${month}-17`, 5],
    ]);
    expect(page.text).not.toContain('Previous month');
    expect(page.text).toContain(`href="/dashboard/usage?month=${isoDay(thisMonth).slice(0, 7)}"`);
    const current = await client.get('/dashboard/usage');
    expect(attr(current.text, 'usage-total', 'data-used')).toBe('1');
    expect(current.text).toContain(`href="/dashboard/usage?month=${month}"`);
  });

  it('answers a month it cannot show with 400 and says which months it can', async () => {
    const client = t.client();
    await signUp(t, client, { plan: 'pro' });
    const current = isoDay(monthStart(new Date())).slice(0, 7);
    for (const bad of ['2026-13', 'last', '1999-01', '2999-01', `${current}&month=${current}`]) {
      const page = await client.get(`/dashboard/usage?month=${bad}`);
      expect(page.status, bad).toBe(400);
      expect(textOf(page.text)).toContain(`Choose a month between ${current}`);
    }
  });
});

describe('Starter', () => {
  it('sees its month’s count and an invitation to upgrade instead of the breakdown', async () => {
    const client = t.client();
    const { key } = await signUp(t, client, { plan: 'starter' });
    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);
    await t.flushUsage(); // counted once answered, a moment after the caller has its answer
    const page = await client.get('/dashboard/usage');
    expect(page.status).toBe(200);
    expect(attr(page.text, 'usage-total', 'data-used')).toBe('1');
    expect(page.text).toContain('data-testid="upgrade-invite"');
    expect(page.text).not.toContain('<svg class="chart');
    expect(page.text).not.toContain('data-testid="by-key"');
    expect(textOf(page.text)).toContain(
      'Pro also adds market/trends, 100,000 calls a month and 300 calls per minute, for 250,000 FCFA per month.',
    );
  });
});
