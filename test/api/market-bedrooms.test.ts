/**
 * Market statistics and trends by number of bedrooms (`bedrooms`, `group_by=bedrooms`):
 * each row equals direct SQL over the listings of its bucket (5 meaning 5 or more),
 * listings without a bedroom count are in no bucket but in the every-count row, and bad
 * values are a 400 naming the parameter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TREND_MIN_SAMPLE } from '../../contract/schemas.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { DAY_MS, plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { get, serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('pro');
const source = plantSource();

/** A quarter, type and purpose whose trends are planted here: buckets of 2, 5 or more (5, 6, 7 bedrooms), 1, and unknown counts. */
const G = { city: 'Kribi', neighborhood: 'Lobé', type: 'apartment', purpose: 'rent' };
const Q = `city=kribi&neighborhood=lobe&type=apartment&purpose=rent`;

beforeAll(async () => {
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY_MS);
  const plant = (bedrooms: number | null, days: number[], price: number) =>
    days.map((d, i) => ({ ...G, bedrooms, price: price + i * 5_000, surface: 60 + i, listedAt: at(d) }));
  await plantListings(t.db.pool, source, [
    ...plant(2, [1, 3, 6, 9, 14, 20], 150_000),
    ...plant(2, [33, 37, 44, 51, 57], 140_000),
    ...plant(5, [2, 8, 15], 400_000),
    ...plant(7, [4, 11, 25], 520_000),
    ...plant(6, [32, 39, 46, 53, 58], 450_000),
    ...plant(1, [5, 12], 90_000),
    ...plant(null, [7, 10, 16, 22], 200_000),
    ...plant(null, [35, 41], 210_000),
  ]);
  await refreshMarketFigures(t.db.pool);
});
afterAll(() => removePlanted(t.db.pool, source));

/** The bucket of a listing, written apart from the server's SQL. */
const BUCKET = 'CASE WHEN bedrooms >= 5 THEN 5 ELSE bedrooms END';

/** Figures of active listings matching `where`, per bucket (listings without a count left out), each by its own aggregate. */
async function directStats(where: string, params: unknown[]) {
  const { rows } = await t.db.pool.query(
    `SELECT ${BUCKET} AS bedrooms, count(*)::int AS volume, round(avg(price))::float8 AS avg_price,
            min(price)::float8 AS min_price, max(price)::float8 AS max_price,
            round(percentile_cont(0.25) WITHIN GROUP (ORDER BY price))::float8 AS p25_price,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price))::float8 AS median_price,
            round(percentile_cont(0.75) WITHIN GROUP (ORDER BY price))::float8 AS p75_price,
            count(price_per_m2)::int AS ppm_n, round(avg(price_per_m2))::float8 AS avg_ppm,
            round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price_per_m2))::float8 AS median_ppm
     FROM listings WHERE status = 'active' AND bedrooms IS NOT NULL AND ${where}
     GROUP BY 1 ORDER BY 1`,
    params,
  );
  return rows as Record<string, number>[];
}

function expectStatEquals(row: Record<string, unknown>, d: Record<string, number>) {
  expect(row).toMatchObject({
    bedrooms: d.bedrooms,
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
    median_price_per_m2: d.median_ppm,
  });
}

type Row = Record<string, unknown> & { bedrooms: number | null; purpose: string };

describe('GET /api/v1/market/stats by bedrooms', () => {
  it('group_by=bedrooms gives one row per purpose and bucket, each equal to direct SQL over its listings', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=douala&group_by=bedrooms', t.key);
    expect(res.status).toBe(200);
    const rows: Row[] = res.body.data;
    let checked = 0;
    for (const purpose of ['sale', 'rent', 'furnished_rent']) {
      const direct = await directStats('city = \'Douala\' AND purpose = $1::"Purpose"', [purpose]);
      const mine = rows.filter((r) => r.purpose === purpose);
      expect(mine.map((r) => r.bedrooms).sort()).toEqual(direct.map((d) => d.bedrooms).sort());
      for (const d of direct) {
        const row = mine.find((r) => r.bedrooms === d.bedrooms)!;
        expect(row).toMatchObject({ city: 'Douala', neighborhood: null, type: null, purpose });
        expectStatEquals(row, d);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    expect(res.body.meta).toMatchObject({ total: rows.length, returned: rows.length });
    expect(rows.some((r) => r.bedrooms === 5)).toBe(true);
  });

  it('leaves listings without a bedroom count out of every bucket, and counts them in the every-count row', async () => {
    const all = await get(t.baseUrl, `/api/v1/market/stats?${Q}`, t.key);
    const grouped = await get(t.baseUrl, `/api/v1/market/stats?${Q}&group_by=bedrooms`, t.key);
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(1);
    expect(all.body.data[0]).toMatchObject({ ...G, neighborhood: 'Lobé', bedrooms: null });
    const { rows } = await t.db.pool.query<{ known: number; unknown: number }>(
      `SELECT count(*) FILTER (WHERE bedrooms IS NOT NULL)::int AS known, count(*) FILTER (WHERE bedrooms IS NULL)::int AS unknown
       FROM listings WHERE status = 'active' AND city_key = 'kribi' AND neighborhood_key = 'lobe' AND type = 'apartment' AND purpose = 'rent'`,
    );
    expect(rows[0].unknown).toBeGreaterThanOrEqual(6);
    expect(all.body.data[0].volume).toBe(rows[0].known + rows[0].unknown);
    const buckets: Row[] = grouped.body.data;
    expect(buckets.every((r) => r.bedrooms !== null)).toBe(true);
    expect(buckets.reduce((s, r) => s + (r.volume as number), 0)).toBe(rows[0].known);
    const direct = await directStats("city_key = 'kribi' AND neighborhood_key = 'lobe' AND type = 'apartment' AND purpose = 'rent'", []);
    expect(buckets).toHaveLength(direct.length);
    for (const d of direct)
      expectStatEquals(
        buckets.find((r) => r.bedrooms === d.bedrooms)!,
        d,
      );
  });

  it('bedrooms=5 is 5 or more bedrooms; bedrooms=N alone gives the rows of that bucket only', async () => {
    const top = await get(t.baseUrl, `/api/v1/market/stats?${Q}&bedrooms=5`, t.key);
    expect(top.status).toBe(200);
    expect(top.body.data).toHaveLength(1);
    const [d] = await directStats(
      "city_key = 'kribi' AND neighborhood_key = 'lobe' AND type = 'apartment' AND purpose = 'rent' AND bedrooms >= 5",
      [],
    );
    expect(d.volume).toBeGreaterThanOrEqual(6); // the planted 5 and 7 bedrooms, together
    expectStatEquals(top.body.data[0], d);

    const two = await get(t.baseUrl, '/api/v1/market/stats?purpose=sale&bedrooms=2', t.key);
    expect(two.status).toBe(200);
    expect(two.body.data.length).toBeGreaterThan(1);
    for (const r of two.body.data) expect(r).toMatchObject({ purpose: 'sale', bedrooms: 2, neighborhood: null, type: null });
    const { rows } = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM listings WHERE status = 'active' AND purpose = 'sale' AND bedrooms = 2",
    );
    expect(two.body.data.reduce((s: number, r: { volume: number }) => s + r.volume, 0)).toBe(rows[0].n);
  });

  it('without bedrooms, rows carry bedrooms null and the figures of every count', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=douala&purpose=sale', t.key);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    const { rows } = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM listings WHERE status = 'active' AND city = 'Douala' AND purpose = 'sale'",
    );
    expect(res.body.data[0]).toMatchObject({ bedrooms: null, volume: rows[0].n });
  });
});

describe('GET /api/v1/market/trends by bedrooms', () => {
  /** Both periods of the planted group for one bucket (null: every count), written apart from the server's SQL. */
  async function directTrend(bucket: number | null, start: Date, end: Date) {
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
       FROM listings
       WHERE city_key = 'kribi' AND neighborhood_key = 'lobe' AND type = 'apartment' AND purpose = 'rent'
         AND ($4::int IS NULL OR ${BUCKET} = $4)`,
      [start, end, previousStart, bucket],
    );
    return rows[0] as { cur: number; prev: number; avg_price: number; median_price: number; avg_change: number; count_change: number };
  }

  it('group_by=bedrooms gives one row per bucket with both samples, each equal to direct SQL, changes under the minimum null', async () => {
    const res = await get(t.baseUrl, `/api/v1/market/trends?${Q}&group_by=bedrooms`, t.key);
    expect(res.status).toBe(200);
    const rows: Row[] = res.body.data;
    const buckets = rows.map((r) => r.bedrooms);
    expect(buckets).toEqual(expect.arrayContaining([1, 2, 5]));
    expect(buckets).not.toContain(null);
    const start = new Date(rows[0].period_start as string);
    const end = new Date(rows[0].period_end as string);
    for (const row of rows) {
      const d = await directTrend(row.bedrooms, start, end);
      const enough = d.cur >= TREND_MIN_SAMPLE && d.prev >= TREND_MIN_SAMPLE;
      expect(row, JSON.stringify(row)).toMatchObject({
        new_listings: d.cur,
        sample_size: d.cur,
        previous_sample_size: d.prev,
        avg_price: d.avg_price,
        median_price: d.median_price,
      });
      expect(row.new_listings_change_pct).toBe(enough ? d.count_change : null);
      expect(row.avg_price_change_pct).toBe(enough ? d.avg_change : null);
    }
    // 5, 6 and 7 bedrooms are one bucket: 6 published now, 5 before, so its changes are given.
    const top = rows.find((r) => r.bedrooms === 5)!;
    expect(top.sample_size as number).toBeGreaterThanOrEqual(6);
    expect(top.previous_sample_size as number).toBeGreaterThanOrEqual(5);
    expect(top.new_listings_change_pct).not.toBeNull();
    expect(rows.find((r) => r.bedrooms === 1)!.new_listings_change_pct).toBeNull();
  });

  it('bedrooms=2 gives that bucket only; without it, one every-count row that includes unknown counts', async () => {
    const two = await get(t.baseUrl, `/api/v1/market/trends?${Q}&bedrooms=2`, t.key);
    expect(two.status).toBe(200);
    expect(two.body.data).toHaveLength(1);
    const row = two.body.data[0];
    const d2 = await directTrend(2, new Date(row.period_start), new Date(row.period_end));
    expect(row).toMatchObject({ bedrooms: 2, new_listings: d2.cur, previous_sample_size: d2.prev });

    const all = await get(t.baseUrl, `/api/v1/market/trends?${Q}`, t.key);
    expect(all.body.data).toHaveLength(1);
    const dAll = await directTrend(null, new Date(row.period_start), new Date(row.period_end));
    expect(all.body.data[0]).toMatchObject({
      bedrooms: null,
      new_listings: dAll.cur,
      previous_sample_size: dAll.prev,
      avg_price: dAll.avg_price,
    });
    const grouped = await get(t.baseUrl, `/api/v1/market/trends?${Q}&group_by=bedrooms`, t.key);
    const sum = grouped.body.data.reduce((s: number, r: { new_listings: number }) => s + r.new_listings, 0);
    expect(dAll.cur - sum).toBeGreaterThanOrEqual(4); // the planted adverts without a count
  });
});

describe('bedrooms and group_by are checked', () => {
  it.each([
    ['bedrooms=6', 'bedrooms'],
    ['bedrooms=-1', 'bedrooms'],
    ['bedrooms=2.5', 'bedrooms'],
    ['bedrooms=two', 'bedrooms'],
    ['bedrooms=', 'bedrooms'],
    ['bedrooms=1&bedrooms=2', 'bedrooms'],
    ['group_by=type', 'group_by'],
    ['group_by=', 'group_by'],
    ['group_by=bedroom', 'group_by'],
  ])('%s is a 400 naming the parameter, on stats and trends', async (query, path) => {
    for (const endpoint of ['stats', 'trends']) {
      const res = await get(t.baseUrl, `/api/v1/market/${endpoint}?city=douala&${query}`, t.key);
      expect(res.status, `${endpoint} ${query}`).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    }
  });

  it('takes group_by in any case', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=douala&purpose=rent&group_by=BEDROOMS', t.key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(1);
    for (const r of res.body.data) expect(r.bedrooms).not.toBeNull();
  });
});
