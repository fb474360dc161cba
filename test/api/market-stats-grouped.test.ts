/**
 * `GET /market/stats?group_by=neighborhood`: every quarter of a city in one call. Each row
 * is exactly what the call for that quarter alone answers, the figures equal an
 * independent SQL GROUP BY over the active listings, the call is charged once like any
 * stats call, and naming a quarter as well is a 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { get, serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('pro');

// The figures as of now: an earlier suite may have left listings the last refresh did not see.
beforeAll(() => refreshMarketFigures(t.db.pool));

type Row = Record<string, unknown> & { neighborhood: string | null; purpose: string; type: string | null; sample_size: number };

/** Figures of the active listings of a city per quarter (named as the places table names it), written apart from the server's SQL. */
async function directByNeighborhood(city: string, where: string, params: unknown[]) {
  const { rows } = await t.db.pool.query(
    `SELECT p.neighborhood, count(*)::int AS volume, round(avg(l.price))::float8 AS avg_price,
            min(l.price)::float8 AS min_price, max(l.price)::float8 AS max_price,
            round(percentile_cont(0.25) WITHIN GROUP (ORDER BY l.price))::float8 AS p25_price,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY l.price))::float8 AS median_price,
            round(percentile_cont(0.75) WITHIN GROUP (ORDER BY l.price))::float8 AS p75_price,
            count(l.price_per_m2)::int AS ppm_n,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY l.price_per_m2))::float8 AS median_ppm
     FROM listings l JOIN places p ON p.city_key = l.city_key AND p.neighborhood_key = l.neighborhood_key
     WHERE l.status = 'active' AND l.city = $1 AND ${where}
     GROUP BY p.neighborhood ORDER BY p.neighborhood`,
    [city, ...params],
  );
  return rows as Array<Record<string, number> & { neighborhood: string }>;
}

const q = (s: string) => encodeURIComponent(s);

describe('GET /api/v1/market/stats?group_by=neighborhood', () => {
  it.each([
    ['rents of Douala', 'city=Douala&purpose=rent', 'Douala', `l.purpose = 'rent'`],
    ['sales of Yaoundé', 'city=Yaound%C3%A9&purpose=sale', 'Yaoundé', `l.purpose = 'sale'`],
    [
      'two-bedroom apartments for rent in Douala',
      'city=Douala&purpose=rent&type=apartment&bedrooms=2',
      'Douala',
      `l.purpose = 'rent' AND l.type = 'apartment' AND l.bedrooms = 2`,
    ],
  ])('%s: one row per quarter, equal to SQL GROUP BY and to each quarter’s own call', async (_what, query, city, where) => {
    const grouped = await get(t.baseUrl, `/api/v1/market/stats?${query}&group_by=neighborhood`, t.key);
    expect(grouped.status).toBe(200);
    const rows: Row[] = grouped.body.data;
    expect(grouped.body.meta).toMatchObject({ total: rows.length, returned: rows.length });

    const direct = await directByNeighborhood(city, where, []);
    expect(direct.length).toBeGreaterThan(3);
    expect(rows.map((r) => r.neighborhood).sort()).toEqual(direct.map((d) => d.neighborhood).sort());
    for (const d of direct) {
      const row = rows.find((r) => r.neighborhood === d.neighborhood)!;
      expect(row, d.neighborhood).toMatchObject({
        city,
        volume: d.volume,
        sample_size: d.volume,
        avg_price: d.avg_price,
        min_price: d.min_price,
        p25_price: d.p25_price,
        median_price: d.median_price,
        p75_price: d.p75_price,
        max_price: d.max_price,
        price_per_m2_sample_size: d.ppm_n,
        median_price_per_m2: d.median_ppm,
      });
    }

    // Each row is, field for field, the answer of that quarter's own call.
    for (const row of rows) {
      const one = await get(t.baseUrl, `/api/v1/market/stats?${query}&neighborhood=${q(row.neighborhood!)}`, t.key);
      expect(one.status).toBe(200);
      expect(one.body.data, row.neighborhood!).toEqual([row]);
    }
  });

  it('without a city, the quarters of every city; with several purposes, a row per quarter and purpose', async () => {
    const all = await get(t.baseUrl, '/api/v1/market/stats?group_by=neighborhood&purpose=rent', t.key);
    const { rows: cities } = await t.db.pool.query<{ city: string; n: number }>(
      `SELECT l.city, count(DISTINCT l.neighborhood_key)::int AS n FROM listings l
       WHERE l.status = 'active' AND l.purpose = 'rent' AND l.neighborhood_key IS NOT NULL GROUP BY l.city`,
    );
    for (const c of cities) expect(all.body.data.filter((r: Row) => r.city === c.city).length, c.city).toBe(c.n);

    const both = await get(t.baseUrl, '/api/v1/market/stats?city=douala&purpose=rent,sale&group_by=neighborhood', t.key);
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT DISTINCT neighborhood_key, purpose FROM listings
       WHERE status = 'active' AND city = 'Douala' AND purpose IN ('rent', 'sale') AND neighborhood_key IS NOT NULL) x`,
    );
    expect(both.body.data.length).toBe(rows[0].n);
    for (const r of both.body.data as Row[]) expect(r.neighborhood).not.toBeNull();
  });

  it('is charged once, like any stats call', async () => {
    const first = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=rent', t.key);
    const grouped = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=rent&group_by=neighborhood', t.key);
    const after = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=sale', t.key);
    expect(grouped.body.data.length).toBeGreaterThan(10);
    expect(grouped.body.meta.quota.used).toBe(first.body.meta.quota.used + 1);
    expect(after.body.meta.quota.used).toBe(grouped.body.meta.quota.used + 1);
    expect(grouped.headers.get('x-quota-remaining')).toBe(String(grouped.body.meta.quota.remaining));
  });

  it('with `neighborhood` as well is a 400 naming group_by, and not charged', async () => {
    const before = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=rent', t.key);
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&neighborhood=Akwa&group_by=neighborhood', t.key);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['group_by']);
    const after = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=rent', t.key);
    expect(after.body.meta.quota.used).toBe(before.body.meta.quota.used + 1);
  });

  it('takes group_by=NEIGHBORHOOD in any case; trends still group by bedrooms only', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=douala&purpose=rent&group_by=NEIGHBORHOOD', t.key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(10);
    const trends = await get(t.baseUrl, '/api/v1/market/trends?city=douala&group_by=neighborhood', t.key);
    expect(trends.status).toBe(400);
    expect(trends.body.errors.map((e: { path: string }) => e.path)).toEqual(['group_by']);
  });
});
