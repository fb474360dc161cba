/**
 * GET /market/history around a point (`near`, `radius_m`): the listings of the area chosen
 * here by distances computed in the test (haversine on earthdistance's sphere), then every
 * figure of every month checked against SQL over those listings; the parameters' rules.
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

describe('GET /api/v1/market/history near a point', () => {
  it('gives the series of the listings within radius_m, equal to SQL over the listings the test finds there', async () => {
    const ids = await idsWithin(AKWA, 3000);
    expect(ids.length).toBeGreaterThan(50);
    const points = await expectHistoryEqualsDirect(
      t,
      `/api/v1/market/history?city=Douala&near=${AKWA.lat},${AKWA.lng}&radius_m=3000&purpose=rent&months=12`,
      "l.purpose = 'rent' AND l.id = ANY($3)",
      [ids],
      HISTORY_MIN_SAMPLE,
    );
    expect(points).toHaveLength(12);
    expect(points[0]).toMatchObject({ city: 'Douala', neighborhood: null, purpose: 'rent', type: null, bedrooms: null });
  });

  it('combines with type and bedrooms, and takes 1,000 m when radius_m is absent', async () => {
    const ids = await idsWithin(AKWA, 1000);
    await expectHistoryEqualsDirect(
      t,
      `/api/v1/market/history?city=douala&near=${AKWA.lat},${AKWA.lng}&purpose=rent&months=6`,
      "l.purpose = 'rent' AND l.id = ANY($3)",
      [ids],
      1,
    );
    const wide = await idsWithin(AKWA, 4000);
    await expectHistoryEqualsDirect(
      t,
      `/api/v1/market/history?city=douala&near=${AKWA.lat},${AKWA.lng}&radius_m=4000&purpose=rent&type=apartment&bedrooms=2&months=6`,
      "l.purpose = 'rent' AND l.type = 'apartment' AND l.bedrooms = 2 AND l.id = ANY($3)",
      [wide],
      1,
    );
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
