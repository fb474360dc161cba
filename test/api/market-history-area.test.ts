/**
 * GET /market/history around a point (`near`, `radius_m`): the area is computed for the
 * point and radius rounded to a grid, which the answer states (`meta.area`, `X-Mboa-Area`);
 * the listings of that area are chosen here by distances computed in the test (haversine
 * on earthdistance's sphere), then every figure of every month checked against SQL over
 * those listings; the rounding rule checked by the test's own arithmetic; the parameters' rules.
 */
import { describe, expect, it } from 'vitest';
import { HISTORY_MIN_SAMPLE, HISTORY_RADIUS_MAX_M } from '../../contract/history.js';
import { expectHistoryEqualsDirect } from '../helpers/market-history.js';
import { get, serverWithAccount } from '../helpers/server.js';
import { haversine } from '../helpers/geo.js';

const t = serverWithAccount('pro');

const AKWA = { lat: 4.0483, lng: 9.7043 };

/** Ids of the Douala listings whose searchable point lies within `radius` metres of `p`, by the test's own arithmetic. */
async function idsWithin(p: { lat: number; lng: number }, radius: number, extra = 'TRUE'): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ id: string; geo_lat: number; geo_lng: number }>(
    `SELECT id, geo_lat, geo_lng FROM listings l WHERE city_key = 'douala' AND geo_lat IS NOT NULL AND ${extra}`,
  );
  return rows.filter((r) => haversine(p.lat, p.lng, r.geo_lat, r.geo_lng) <= radius).map((r) => r.id);
}

/** The area an answer says it was computed for. */
async function areaUsed(path: string): Promise<{ lat: number; lng: number; radius_m: number }> {
  const res = await get(t.baseUrl, path, t.key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.area;
}

/** The rule of the README, by the test's own arithmetic: radius to 100 m, point to 0.001° × whole km of radius. */
function expectedArea(lat: number, lng: number, radius: number) {
  const r = Math.max(100, Math.round(radius / 100) * 100);
  const step = 0.001 * Math.max(1, Math.floor(r / 1000));
  const snap = (v: number) => Number((Math.round(v / step) * step).toFixed(3));
  return { lat: snap(lat), lng: snap(lng), radius_m: r };
}

describe('GET /api/v1/market/history near a point', () => {
  it('gives the series of the listings within the area used, equal to SQL over the listings the test finds there', async () => {
    const path = `/api/v1/market/history?city=Douala&near=${AKWA.lat},${AKWA.lng}&radius_m=3000&purpose=rent&months=12`;
    const area = await areaUsed(path);
    expect(area).toEqual(expectedArea(AKWA.lat, AKWA.lng, 3000));
    const ids = await idsWithin(area, area.radius_m);
    expect(ids.length).toBeGreaterThan(50);
    const points = await expectHistoryEqualsDirect(t, path, "l.purpose = 'rent' AND l.id = ANY($3)", [ids], HISTORY_MIN_SAMPLE);
    expect(points).toHaveLength(12);
    expect(points[0]).toMatchObject({ city: 'Douala', neighborhood: null, purpose: 'rent', type: null, bedrooms: null });
  });

  it('combines with type and bedrooms, and takes 1,000 m when radius_m is absent', async () => {
    const path = `/api/v1/market/history?city=douala&near=${AKWA.lat},${AKWA.lng}&purpose=rent&months=6`;
    const area = await areaUsed(path);
    expect(area).toEqual(expectedArea(AKWA.lat, AKWA.lng, 1000));
    const ids = await idsWithin(area, area.radius_m);
    await expectHistoryEqualsDirect(t, path, "l.purpose = 'rent' AND l.id = ANY($3)", [ids], 1);
    const widePath = `/api/v1/market/history?city=douala&near=${AKWA.lat},${AKWA.lng}&radius_m=4000&purpose=rent&type=apartment&bedrooms=2&months=6`;
    const wideArea = await areaUsed(widePath);
    const wide = await idsWithin(wideArea, wideArea.radius_m);
    await expectHistoryEqualsDirect(
      t,
      widePath,
      "l.purpose = 'rent' AND l.type = 'apartment' AND l.bedrooms = 2 AND l.id = ANY($3)",
      [wide],
      1,
    );
  });

  it('rounds the point to the grid and the radius to 100 m, says so in JSON and CSV, and nearby points share one answer', async () => {
    for (const [lat, lng, radius] of [
      [4.0483, 9.7043, 5000],
      [4.05149, 9.69951, 2449],
      [4.0449, 9.7101, 160],
      [4.0401, 9.7, 40],
    ]) {
      const path = `/api/v1/market/history?city=Douala&near=${lat},${lng}&radius_m=${radius}&purpose=sale&months=3`;
      const expected = expectedArea(lat, lng, radius);
      expect(await areaUsed(path), path).toEqual(expected);
      const csv = await fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': t.key, Accept: 'text/csv' } });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('x-mboa-area')).toBe(`${expected.lat.toFixed(3)},${expected.lng.toFixed(3)};${expected.radius_m}`);
      // Every row names its area too, in JSON and in the CSV's own columns (a spreadsheet keeps no header).
      const rows = (await csv.text()).trimEnd().split('\r\n');
      const columns = rows[0].split(',');
      const json = await get(t.baseUrl, path, t.key);
      for (const [i, point] of json.body.data.entries()) {
        expect(point).toMatchObject({ near: `${expected.lat},${expected.lng}`, radius_m: expected.radius_m });
        const cells = rows[i + 1].replace(`"${expected.lat},${expected.lng}"`, 'NEAR').split(',');
        expect(cells[columns.indexOf('near')]).toBe('NEAR');
        expect(cells[columns.indexOf('radius_m')]).toBe(String(expected.radius_m));
      }
      expect(rows).toHaveLength(json.body.data.length + 1);
      expect(rows[1]).toContain(`"${expected.lat},${expected.lng}"`);
    }
    // Two points 100 m apart in one cell of the 5 km grid: one computation, the same answer.
    const a = await get(t.baseUrl, '/api/v1/market/history?city=Douala&near=4.0483,9.7043&radius_m=5000&purpose=rent', t.key);
    const b = await get(t.baseUrl, '/api/v1/market/history?city=Douala&near=4.0491,9.7035&radius_m=4960&purpose=rent', t.key);
    expect(b.body.meta.area).toEqual(a.body.meta.area);
    expect(b.body.data).toEqual(a.body.data);
    // A city or quarter series has no area.
    const city = await get(t.baseUrl, '/api/v1/market/history?city=Douala&purpose=rent&months=2', t.key);
    expect(city.body.meta.area).toBeUndefined();
    expect(city.headers.get('x-mboa-area')).toBeNull();
    expect(city.body.data.every((p: { near: unknown; radius_m: unknown }) => p.near === null && p.radius_m === null)).toBe(true);
  });

  it('refuses a radius out of range, radius_m alone, near with a quarter and bad coordinates, naming them', async () => {
    for (const [query, path] of [
      [`near=${AKWA.lat},${AKWA.lng}&radius_m=${HISTORY_RADIUS_MAX_M + 1}`, 'radius_m'],
      [`near=${AKWA.lat},${AKWA.lng}&radius_m=0`, 'radius_m'],
      ['radius_m=1000', 'radius_m'],
      [`near=${AKWA.lat},${AKWA.lng}&neighborhood=Akwa`, 'near'],
      ['near=94.1,9.7', 'near'],
      ['near=4.05', 'near'],
    ]) {
      const res = await get(t.baseUrl, `/api/v1/market/history?city=Douala&purpose=rent&${query}`, t.key);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(
        res.body.errors.map((e: { path: string }) => e.path),
        query,
      ).toContain(path);
    }
  });
});
