/**
 * Market figures read from the precomputed tables equal direct SQL over listings: per
 * city and per neighbourhood, quartiles and sample sizes included; trends with the
 * sample of both periods and no change % under the minimum sample.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TREND_MIN_SAMPLE } from '../../contract/schemas.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { DAY_MS, plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { get, serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('pro');
const source = plantSource();

// Two planted trend groups: enough listings in both periods, and too few in the previous one.
const ENOUGH = { city: 'Douala', neighborhood: 'Bonapriso', type: 'office', purpose: 'rent' };
const TOO_FEW = { city: 'Ebolowa', neighborhood: 'Abang', type: 'warehouse', purpose: 'furnished_rent' };

beforeAll(async () => {
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
  await plantListings(t.db.pool, source, [
    ...[1, 3, 5, 8, 12, 17, 25].map((d, i) => ({ ...ENOUGH, price: 400_000 + i * 25_000, surface: 80 + i, listedAt: at(d) })),
    ...[33, 38, 41, 47, 52, 58].map((d, i) => ({ ...ENOUGH, price: 380_000 + i * 20_000, surface: 90, listedAt: at(d) })),
    ...[2, 4, 6, 9, 11, 14, 19, 22].map((d, i) => ({ ...TOO_FEW, price: 150_000 + i * 5_000, surface: 300, listedAt: at(d) })),
    ...[35, 50].map((d) => ({ ...TOO_FEW, price: 140_000, surface: 300, listedAt: at(d) })),
  ]);
  await refreshMarketFigures(t.db.pool);
});
afterAll(() => removePlanted(t.db.pool, source));

/** The figures of active listings grouped by `groupBy`, computed here with one aggregate per figure. */
async function directStats(where: string, groupBy: string, params: unknown[] = []) {
  const { rows } = await t.db.pool.query(
    `SELECT ${groupBy}, count(*)::int AS volume, round(avg(price))::float8 AS avg_price, min(price)::float8 AS min_price,
            max(price)::float8 AS max_price,
            round(percentile_cont(0.25) WITHIN GROUP (ORDER BY price))::float8 AS p25_price,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price))::float8 AS median_price,
            round(percentile_cont(0.75) WITHIN GROUP (ORDER BY price))::float8 AS p75_price,
            count(price_per_m2)::int AS ppm_n, round(avg(price_per_m2))::float8 AS avg_ppm,
            round(percentile_cont(0.25) WITHIN GROUP (ORDER BY price_per_m2))::float8 AS p25_ppm,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price_per_m2))::float8 AS median_ppm,
            round(percentile_cont(0.75) WITHIN GROUP (ORDER BY price_per_m2))::float8 AS p75_ppm
     FROM listings WHERE status = 'active' AND ${where} GROUP BY ${groupBy}`,
    params,
  );
  return rows;
}

function expectRowEqualsDirect(row: Record<string, unknown>, d: Record<string, number>) {
  expect(row).toMatchObject({
    volume: d.volume,
    sample_size: d.volume,
    avg_price: d.avg_price,
    min_price: d.min_price,
    p25_price: d.p25_price,
    median_price: d.median_price,
    p75_price: d.p75_price,
    max_price: d.max_price,
    price_per_m2_sample_size: d.ppm_n,
    avg_price_per_m2: d.avg_ppm,
    p25_price_per_m2: d.p25_ppm,
    median_price_per_m2: d.median_ppm,
    p75_price_per_m2: d.p75_ppm,
    currency: 'XAF',
  });
  expect(row.p25_price as number).toBeLessThanOrEqual(row.median_price as number);
  expect(row.median_price as number).toBeLessThanOrEqual(row.p75_price as number);
}

describe('GET /api/v1/market/stats', () => {
  it('gives one row per city and purpose equal to a direct aggregate over active listings, quartiles included', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=douala', t.key);
    expect(res.status).toBe(200);
    const direct = await directStats("city = 'Douala'", 'purpose');
    expect(direct.length).toBeGreaterThan(1);
    expect(res.body.data.length).toBe(direct.length);
    expect(res.body.meta).toMatchObject({ total: direct.length, returned: direct.length });
    for (const d of direct) {
      const row = res.body.data.find((r: { purpose: string }) => r.purpose === d.purpose);
      expect(row).toMatchObject({ city: 'Douala', neighborhood: null, type: null });
      expectRowEqualsDirect(row, d);
    }
  });

  it('gives per-neighbourhood rows, for every type together and per type, equal to direct SQL', async () => {
    // The busiest quarter by key: its figures include its sub-quarters' listings (`Bata Nlongkak` is Nlongkak's).
    const { rows: busiest } = await t.db.pool.query<{ key: string; neighborhood: string; n: number }>(
      `SELECT neighborhood_key AS key, mode() WITHIN GROUP (ORDER BY neighborhood) AS neighborhood, count(*)::int AS n
         FROM listings WHERE status = 'active' AND city = 'Yaoundé' AND neighborhood_key IS NOT NULL
        GROUP BY neighborhood_key ORDER BY n DESC, neighborhood_key LIMIT 1`,
    );
    const { key, neighborhood } = busiest[0];
    expect(busiest[0].n).toBeGreaterThan(10);

    const all = await get(
      t.baseUrl,
      `/api/v1/market/stats?city=yaounde&neighborhood=${encodeURIComponent(neighborhood.toUpperCase())}`,
      t.key,
    );
    expect(all.status).toBe(200);
    const direct = await directStats("city = 'Yaoundé' AND neighborhood_key = $1", 'purpose', [key]);
    expect(direct.length).toBeGreaterThan(0);
    expect(all.body.data.length).toBe(direct.length);
    for (const d of direct) {
      const row = all.body.data.find((r: { purpose: string }) => r.purpose === d.purpose);
      expect(row).toMatchObject({ city: 'Yaoundé', neighborhood, type: null });
      expectRowEqualsDirect(row, d);
    }

    const { rows: typed } = await t.db.pool.query<{ type: string }>(
      `SELECT type::text FROM listings WHERE status = 'active' AND city = 'Yaoundé' AND neighborhood_key = $1
       GROUP BY type ORDER BY count(*) DESC LIMIT 1`,
      [key],
    );
    const type = typed[0].type;
    const byType = await get(
      t.baseUrl,
      `/api/v1/market/stats?city=Yaoundé&neighborhood=${encodeURIComponent(neighborhood)}&type=${type}`,
      t.key,
    );
    const directByType = await directStats("city = 'Yaoundé' AND neighborhood_key = $1 AND type = $2", 'purpose', [key, type]);
    expect(directByType.length).toBeGreaterThan(0);
    expect(byType.body.data.length).toBe(directByType.length);
    for (const d of directByType) {
      const row = byType.body.data.find((r: { purpose: string }) => r.purpose === d.purpose);
      expect(row).toMatchObject({ neighborhood, type });
      expectRowEqualsDirect(row, d);
    }
  });

  it('filters by purpose and type, one row per city without neighbourhood rows', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?purpose=sale&type=villa', t.key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(1);
    for (const row of res.body.data) expect(row).toMatchObject({ purpose: 'sale', type: 'villa', neighborhood: null });
    expect(new Set(res.body.data.map((r: { city: string }) => r.city)).size).toBe(res.body.data.length);
    const { rows } = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM listings WHERE status = 'active' AND purpose = 'sale' AND type = 'villa'",
    );
    expect(res.body.data.reduce((s: number, r: { volume: number }) => s + r.volume, 0)).toBe(rows[0].n);
  });

  it('refuses an unknown city with suggestions instead of an empty list', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=Atlantis', t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'city', suggestions: [] });
    expect(res.body.detail).toContain('Douala');
  });
});

describe('GET /api/v1/market/trends', () => {
  async function directTrend(g: typeof ENOUGH, start: Date, end: Date) {
    const previousStart = new Date(start.getTime() - 30 * DAY_MS);
    const { rows } = await t.db.pool.query(
      `SELECT count(*) FILTER (WHERE listed_at >= $1 AND listed_at < $2)::int AS cur,
              count(*) FILTER (WHERE listed_at >= $3 AND listed_at < $1)::int AS prev,
              round(avg(price) FILTER (WHERE listed_at >= $1 AND listed_at < $2))::float8 AS avg_price,
              round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price) FILTER (WHERE listed_at >= $1 AND listed_at < $2))::float8 AS median_price,
              round(((avg(price) FILTER (WHERE listed_at >= $1 AND listed_at < $2) - avg(price) FILTER (WHERE listed_at >= $3 AND listed_at < $1))
                     / avg(price) FILTER (WHERE listed_at >= $3 AND listed_at < $1) * 100), 1)::float8 AS avg_change,
              round(((count(*) FILTER (WHERE listed_at >= $1 AND listed_at < $2) - count(*) FILTER (WHERE listed_at >= $3 AND listed_at < $1))::numeric
                     / nullif(count(*) FILTER (WHERE listed_at >= $3 AND listed_at < $1), 0) * 100), 1)::float8 AS count_change
       FROM listings WHERE city = $4 AND neighborhood = $5 AND type = $6::"PropertyType" AND purpose = $7::"Purpose"`,
      [start, end, previousStart, g.city, g.neighborhood, g.type, g.purpose],
    );
    return rows[0];
  }

  async function trendRow(g: typeof ENOUGH) {
    const res = await get(
      t.baseUrl,
      `/api/v1/market/trends?city=${encodeURIComponent(g.city)}&neighborhood=${g.neighborhood}&type=${g.type}&purpose=${g.purpose}`,
      t.key,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    return res.body.data[0];
  }

  it(`gives the change in % when both periods have at least ${TREND_MIN_SAMPLE} listings, equal to direct SQL`, async () => {
    const row = await trendRow(ENOUGH);
    const end = new Date(row.period_end);
    const start = new Date(row.period_start);
    expect(end.getTime() - start.getTime()).toBe(30 * DAY_MS);
    const d = await directTrend(ENOUGH, start, end);
    expect(d.cur).toBeGreaterThanOrEqual(TREND_MIN_SAMPLE);
    expect(d.prev).toBeGreaterThanOrEqual(TREND_MIN_SAMPLE);
    expect(row).toMatchObject({
      new_listings: d.cur,
      sample_size: d.cur,
      previous_sample_size: d.prev,
      price_per_m2_sample_size: d.cur,
      avg_price: d.avg_price,
      median_price: d.median_price,
      avg_price_change_pct: d.avg_change,
      new_listings_change_pct: d.count_change,
      currency: 'XAF',
    });
    expect(row.avg_price_change_pct).not.toBeNull();
  });

  it(`gives no change in % when a period has fewer than ${TREND_MIN_SAMPLE} listings, but still its sample sizes`, async () => {
    const row = await trendRow(TOO_FEW);
    const d = await directTrend(TOO_FEW, new Date(row.period_start), new Date(row.period_end));
    expect(d.cur).toBeGreaterThanOrEqual(TREND_MIN_SAMPLE);
    expect(d.prev).toBeGreaterThan(0);
    expect(d.prev).toBeLessThan(TREND_MIN_SAMPLE);
    expect(d.count_change).not.toBeNull(); // what would have been shown: +300 % on 2 listings
    expect(row).toMatchObject({
      sample_size: d.cur,
      previous_sample_size: d.prev,
      avg_price: d.avg_price,
      avg_price_change_pct: null,
      new_listings_change_pct: null,
    });
  });

  it('never gives a change in % under the minimum sample, in any row', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/trends', t.key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(10);
    const withChange = res.body.data.filter((r: { new_listings_change_pct: number | null }) => r.new_listings_change_pct !== null);
    expect(withChange.length).toBeGreaterThan(0);
    for (const r of res.body.data) {
      const enough = r.sample_size >= TREND_MIN_SAMPLE && r.previous_sample_size >= TREND_MIN_SAMPLE;
      expect(r.new_listings_change_pct !== null, JSON.stringify(r)).toBe(enough);
      if (!enough) expect(r.avg_price_change_pct).toBeNull();
    }
  });

  it('filters accent-insensitively by neighbourhood', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/trends?city=YAOUNDE&neighborhood=bastos', t.key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const row of res.body.data) expect(row).toMatchObject({ city: 'Yaoundé', neighborhood: 'Bastos' });
  });
});
