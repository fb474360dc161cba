/**
 * One distance: the JavaScript figure (a comparable's distance, the nearest quarter) and
 * PostgreSQL's `earth_distance` (radius search, distance order) agree, so an answer never
 * mixes two measures of the same gap.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/platform/db.js';
import { distanceM } from '../../server/domain/places/distance.js';

const db = openDatabase(process.env.DATABASE_URL!, { max: 1 });
afterAll(() => db.close());

const PAIRS: [number, number, number, number][] = [
  [4.0483, 9.7043, 4.0483, 9.7043], // same point
  [4.0483, 9.7043, 4.0611, 9.7299], // Akwa to Bonamoussadi, a few km
  [3.848, 11.502, 3.87, 11.51], // within Yaoundé
  [4.0483, 9.7043, 3.848, 11.502], // Douala to Yaoundé
  [2.0, 8.5, 13.1, 16.2], // across Cameroon
];

describe('distanceM', () => {
  it('equals earth_distance to the millimetre, from a metre to across the country', async () => {
    for (const [aLat, aLng, bLat, bLng] of PAIRS) {
      const { rows } = await db.pool.query<{ d: number }>('SELECT earth_distance(ll_to_earth($1, $2), ll_to_earth($3, $4)) AS d', [
        aLat,
        aLng,
        bLat,
        bLng,
      ]);
      expect(Math.abs(distanceM({ lat: aLat, lng: aLng }, { lat: bLat, lng: bLng }) - Number(rows[0].d))).toBeLessThan(0.001);
    }
  });
});
