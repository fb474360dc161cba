/** Market figures read from the precomputed tables equal direct SQL over listings. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshMarketFigures } from '../../server/market/refresh.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let key: string;
beforeAll(async () => {
  t = await startTestServer();
  key = (await t.account('pro')).key;
  await refreshMarketFigures(t.db.pool);
});
afterAll(() => t.close());

describe('GET /api/v1/market/stats', () => {
  it('gives one row per city and purpose equal to a direct aggregate over active listings', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=douala', key);
    expect(res.status).toBe(200);
    const { rows } = await t.db.pool.query(
      `SELECT purpose, count(*)::int AS volume, round(avg(price))::float8 AS avg, min(price)::float8 AS min, max(price)::float8 AS max,
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price))::float8 AS median
       FROM listings WHERE status = 'active' AND city = 'Douala' GROUP BY purpose ORDER BY purpose`,
    );
    expect(res.body.data.length).toBe(rows.length);
    expect(res.body.meta).toMatchObject({ total: rows.length, returned: rows.length });
    for (const r of rows) {
      const row = res.body.data.find((d: { purpose: string }) => d.purpose === r.purpose);
      expect(row).toMatchObject({
        city: 'Douala', type: null, currency: 'XAF',
        volume: r.volume, avg_price: r.avg, min_price: r.min, max_price: r.max, median_price: r.median,
      });
    }
  });

  it('filters by purpose and type', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?purpose=sale&type=villa', key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(1);
    for (const row of res.body.data) expect(row).toMatchObject({ purpose: 'sale', type: 'villa' });
    const { rows } = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM listings WHERE status = 'active' AND purpose = 'sale' AND type = 'villa'",
    );
    expect(res.body.data.reduce((s: number, r: { volume: number }) => s + r.volume, 0)).toBe(rows[0].n);
  });

  it('answers an unknown city with an empty list', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=Atlantis', key);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('GET /api/v1/market/trends', () => {
  it('counts the last 30 days of listings per neighbourhood, type and purpose, with the change against the 30 before', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/trends?city=Douala', key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    const row = res.body.data.find((r: { new_listings: number }) => r.new_listings > 0);
    const end = new Date(row.period_end);
    const start = new Date(row.period_start);
    expect(end.getTime() - start.getTime()).toBe(30 * 86_400_000);
    const { rows } = await t.db.pool.query(
      `SELECT count(*) FILTER (WHERE listed_at >= $1 AND listed_at < $2)::int AS cur,
              count(*) FILTER (WHERE listed_at >= $3 AND listed_at < $1)::int AS prev
       FROM listings WHERE city = 'Douala' AND neighborhood = $4 AND type = $5 AND purpose = $6`,
      [start, end, new Date(start.getTime() - 30 * 86_400_000), row.neighborhood, row.type, row.purpose],
    );
    expect(row.new_listings).toBe(rows[0].cur);
    if (rows[0].prev > 0) {
      expect(row.new_listings_change_pct).toBeCloseTo(Math.round(((rows[0].cur - rows[0].prev) / rows[0].prev) * 1000) / 10, 5);
    } else {
      expect(row.new_listings_change_pct).toBeNull();
    }
  });

  it('filters accent-insensitively by neighbourhood', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/trends?city=YAOUNDE&neighborhood=bastos', key);
    expect(res.status).toBe(200);
    for (const row of res.body.data) expect(row).toMatchObject({ city: 'Yaoundé', neighborhood: 'Bastos' });
  });
});
