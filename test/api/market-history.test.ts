/**
 * GET /market/history: every figure of every month checked against SQL written here, one
 * month at a time (prices in effect at the month's end read from price_history), for a
 * city, a quarter and a bedroom count; the minimum sample; the year-on-year arithmetic;
 * the parameters' bounds; the plans; the CSV answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HISTORY_MIN_SAMPLE } from '../../contract/history.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { DAY_MS, plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { expectHistoryEqualsDirect } from '../helpers/market-history.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('pro');
const source = plantSource();
const FEW = { city: 'Douala', neighborhood: 'Bonapriso', type: 'warehouse', purpose: 'furnished_rent' };

beforeAll(async () => {
  // Three warehouses for furnished rent in one quarter, published over the last months: too few for any price figure.
  await plantListings(t.db.pool, source, [
    { ...FEW, price: 900_000, surface: 400, listedAt: new Date(Date.now() - 200 * DAY_MS) },
    { ...FEW, price: 950_000, surface: 420, listedAt: new Date(Date.now() - 150 * DAY_MS) },
    { ...FEW, price: 990_000, surface: 430, listedAt: new Date(Date.now() - 120 * DAY_MS) },
  ]);
  await refreshMarketFigures(t.db.pool);
});
afterAll(() => removePlanted(t.db.pool, source));

interface Point {
  month: string;
  [k: string]: unknown;
}

/** The answer of `path`, every month checked against SQL over the listings (helpers/market-history.ts). */
const expectSeriesEqualsDirect = (path: string, series: string, params: unknown[], minActive: number) =>
  expectHistoryEqualsDirect(t, path, series, params, minActive);

/** The Douala quarter with the most rent listings, as the places table names it. */
async function busiestNeighborhood() {
  const { rows } = await t.db.pool.query(
    `SELECT neighborhood_key AS key, count(*)::int FROM listings WHERE city_key = 'douala' AND purpose = 'rent' AND neighborhood_key IS NOT NULL
     GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
  );
  const { rows: named } = await t.db.pool.query(`SELECT neighborhood FROM places WHERE city_key = 'douala' AND neighborhood_key = $1`, [
    rows[0].key,
  ]);
  return { key: rows[0].key as string, name: named[0].neighborhood as string };
}

describe('GET /api/v1/market/history', () => {
  it('gives, for a city, one point per month (24 by default, the last complete one last) equal to SQL over the listings', async () => {
    const points = await expectSeriesEqualsDirect(
      '/api/v1/market/history?city=douala&purpose=rent',
      "l.city_key = 'douala' AND l.purpose = 'rent'",
      [],
      20,
    );
    expect(points).toHaveLength(24);
    const lastComplete = new Date();
    lastComplete.setUTCDate(1);
    lastComplete.setUTCMonth(lastComplete.getUTCMonth() - 1);
    expect(points[23].month).toBe(lastComplete.toISOString().slice(0, 7));
    expect(points[0]).toMatchObject({ city: 'Douala', neighborhood: null, purpose: 'rent', type: null, bedrooms: null });
  });

  it('gives the same for a quarter, a type and a bedroom count (5 meaning 5 or more)', async () => {
    const q = await busiestNeighborhood();
    const neighborhood = await expectSeriesEqualsDirect(
      `/api/v1/market/history?city=Douala&neighborhood=${encodeURIComponent(q.name)}&purpose=rent&months=12`,
      "l.city_key = 'douala' AND l.purpose = 'rent' AND l.neighborhood_key = $3",
      [q.key],
      HISTORY_MIN_SAMPLE,
    );
    expect(neighborhood).toHaveLength(12);
    expect(neighborhood[0]).toMatchObject({ neighborhood: q.name });
    await expectSeriesEqualsDirect(
      '/api/v1/market/history?city=douala&purpose=sale&bedrooms=2&months=6',
      "l.city_key = 'douala' AND l.purpose = 'sale' AND l.bedrooms = 2",
      [],
      HISTORY_MIN_SAMPLE,
    );
    await expectSeriesEqualsDirect(
      '/api/v1/market/history?city=douala&purpose=sale&type=villa&bedrooms=5&months=6',
      "l.city_key = 'douala' AND l.purpose = 'sale' AND l.type = 'villa' AND l.bedrooms >= 5",
      [],
      HISTORY_MIN_SAMPLE,
    );
  });

  it(`gives counts but no price figure under ${HISTORY_MIN_SAMPLE} listings`, async () => {
    const res = await get(
      t.baseUrl,
      '/api/v1/market/history?city=Douala&neighborhood=Bonapriso&purpose=furnished_rent&type=warehouse&months=12',
      t.key,
    );
    expect(res.status).toBe(200);
    const withListings = (res.body.data as Point[]).filter((p) => (p.active_listings as number) > 0);
    expect(withListings.length).toBeGreaterThan(2);
    for (const p of withListings) {
      expect(p.active_listings as number).toBeLessThan(HISTORY_MIN_SAMPLE);
      expect(p).toMatchObject({
        median_price: null,
        p25_price: null,
        p75_price: null,
        median_price_per_m2: null,
        median_price_change_pct: null,
      });
    }
  });

  it('gives the change of the median against the same month a year before, in %, one decimal', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/history?city=douala&purpose=sale&months=36', t.key);
    const points = res.body.data as { month: string; median_price: number | null; median_price_change_pct: number | null }[];
    expect(points).toHaveLength(36);
    let given = 0;
    for (let i = 12; i < 36; i++) {
      const [now, before] = [points[i].median_price, points[i - 12].median_price];
      const expected = now === null || before === null ? null : Math.round(((now - before) / before) * 1000) / 10;
      expect(points[i].median_price_change_pct, points[i].month).toBe(expected);
      if (expected !== null) given++;
    }
    expect(given).toBeGreaterThan(6);
    // The 24-month answer carries the same changes: the year before its first month is read too.
    const short = await get(t.baseUrl, '/api/v1/market/history?city=douala&purpose=sale', t.key);
    expect(short.body.data.map((p: Point) => p.median_price_change_pct)).toEqual(points.slice(12).map((p) => p.median_price_change_pct));
  });

  it('refuses months out of 1..36, a missing purpose or city, bedrooms over 5 and an unknown parameter, naming them', async () => {
    for (const [query, path] of [
      ['city=douala&purpose=rent&months=0', 'months'],
      ['city=douala&purpose=rent&months=37', 'months'],
      ['city=douala&purpose=rent&months=1.5', 'months'],
      ['city=douala', 'purpose'],
      ['purpose=rent', 'city'],
      ['city=douala&purpose=rent&bedrooms=6', 'bedrooms'],
      ['city=douala&purpose=rent&group_by=type', 'group_by'],
    ]) {
      const res = await get(t.baseUrl, `/api/v1/market/history?${query}`, t.key);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        query,
      ).toContain(path);
    }
  });

  it('refuses a sub-quarter, naming the quarter whose history it is part of, uncharged', async () => {
    const before = await storedUsage(t, t.caller.id);
    const res = await get(t.baseUrl, '/api/v1/market/history?city=Douala&neighborhood=Akwa%20I&purpose=rent', t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'neighborhood', message: 'Akwa I is a sub-quarter of Akwa: history is kept for Akwa', suggestions: ['Akwa'] },
    ]);
    expect(res.body.detail).toContain('ask for Akwa');
    expect(await storedUsage(t, t.caller.id)).toBe(before);
  });

  it('is refused to Starter (403), answered and counted for Pro', async () => {
    const starter = await t.account('starter');
    const refused = await get(t.baseUrl, '/api/v1/market/history?city=douala&purpose=rent', starter.key);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_forbidden');
    expect(refused.body.detail).toMatch(/Pro, Enterprise/);
    const pro = await t.account('pro');
    const before = await storedUsage(t, pro.id);
    const ok = await get(t.baseUrl, '/api/v1/market/history?city=douala&purpose=rent', pro.key);
    expect(ok.status).toBe(200);
    expect(await storedUsage(t, pro.id)).toBe(before + 1);
    expect(ok.body.meta.quota.used).toBe(before + 1);
  });

  it('answers CSV on Accept: text/csv, equal to the JSON, and counted alike', async () => {
    const path = '/api/v1/market/history?city=douala&purpose=rent&type=apartment&months=18';
    const json = await get(t.baseUrl, path, t.key);
    const csv = await get(t.baseUrl, path, t.key, { Accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('x-quota-remaining')).toBe(String(json.body.meta.quota.remaining - 1));
    const [header, ...lines] = csv.text.trimEnd().split('\r\n');
    const columns = header.split(',');
    expect(lines).toHaveLength(18);
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v])));
    for (const [i, p] of (json.body.data as Record<string, any>[]).entries()) {
      const flat: Record<string, unknown> = {
        ...p,
        removed_sold: p.removed_listings.sold,
        removed_rented: p.removed_listings.rented,
        removed_withdrawn: p.removed_listings.withdrawn,
      };
      for (const c of columns) expect(rows[i][c], `${p.month} ${c}`).toBe(flat[c] === null ? '' : String(flat[c]));
    }
    expect(columns).not.toContain('removed_listings');
  });
});
