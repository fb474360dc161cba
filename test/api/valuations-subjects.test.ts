/**
 * Every subject gets an honest answer (issue: valuations on real adverts): a point outside
 * the named city, or with lat and lng swapped, is a 400 saying so and never charged; a
 * quarter the gazetteer lacks is valued at the city's level with its name echoed; a type
 * with too few adverts is valued through the nearest type the data holds, with a wider
 * range, or refused with a 422 naming the types tried; every amount is a number.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CellAccumulator, featuresOf } from '../../server/domain/valuations/fit.js';
import { buildModel, type Candidate, valueSubject } from '../../server/domain/valuations/model.js';
import { DAY_MS, plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('enterprise');
const source = plantSource();
/** A town and purpose where the seed has a couple of flats and neither studios nor rooms (checked below). */
const TOWN = { city: 'Ebolowa', neighborhood: 'Abang', purpose: 'sale' };
const FLATS = [20_000_000, 22_000_000, 24_000_000, 26_000_000, 21_000_000, 23_000_000];

beforeAll(async () => {
  const { rows } = await t.db.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM listings WHERE city = $1 AND purpose = 'sale' AND type IN ('studio', 'room')`,
    [TOWN.city],
  );
  expect(rows[0].n).toBe(0);
  const now = Date.now();
  await plantListings(
    t.db.pool,
    source,
    FLATS.map((price, i) => ({ ...TOWN, type: 'apartment', price, surface: 60, bedrooms: 1, listedAt: new Date(now - (i + 1) * DAY_MS) })),
  );
});
afterAll(() => removePlanted(t.db.pool, source));

const qs = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();

function expectNumbers(estimate: Record<string, unknown>) {
  for (const k of ['price', 'low', 'high', 'fsd', 'confidence_level']) {
    expect(typeof estimate[k], k).toBe('number');
    expect(Number.isFinite(estimate[k] as number), k).toBe(true);
  }
  expect(estimate.price as number).toBeGreaterThan(1000);
}

describe('GET /api/v1/valuations: subjects off the beaten track', () => {
  it('refuses a point outside the named city with a 400 saying so, uncharged; swapped lat/lng named as such', async () => {
    const account = await t.account('enterprise');
    const base = { city: 'Douala', type: 'apartment', purpose: 'rent', bedrooms: 2 };
    // Yaoundé's centre, asked as Douala: once valued at 1 XAF from comparables 188 km away.
    const far = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, lat: 3.87, lng: 11.51 })}`, account.key);
    expect(far.status, JSON.stringify(far.body)).toBe(400);
    expect(far.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(far.body.code).toBe('validation_error');
    expect(far.body.detail).toMatch(/not in Douala/);
    expect(far.body.errors[0].path).toBe('lat');
    expect(far.body.errors[0].message).not.toMatch(/swapped/);
    const swapped = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, lat: 9.7, lng: 4.05 })}`, account.key);
    expect(swapped.status).toBe(400);
    expect(swapped.body.errors[0].message).toMatch(/swapped/);
    // A point in the city is valued, and that one call alone is counted.
    const inside = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, lat: 4.05, lng: 9.7 })}`, account.key);
    expect(inside.status, JSON.stringify(inside.body)).toBe(200);
    expectNumbers(inside.body.data.estimate);
    expect(await storedUsage(t, account.id)).toBe(1);
  });

  it('takes the point as near=lat,lng like the search, the same answer as lat and lng, and refuses both at once', async () => {
    const base = { city: 'Douala', type: 'apartment', purpose: 'rent', bedrooms: 2 };
    const byNear = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, near: '4.05,9.7' })}`, t.key);
    const byLatLng = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, lat: 4.05, lng: 9.7 })}`, t.key);
    expect(byNear.status, JSON.stringify(byNear.body)).toBe(200);
    expect({ ...byNear.body.data, as_of: null }).toEqual({ ...byLatLng.body.data, as_of: null });
    const both = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, near: '4.05,9.7', lat: 4.05, lng: 9.7 })}`, t.key);
    expect(both.status).toBe(400);
    expect(both.body.errors).toEqual([{ path: 'near', message: expect.stringMatching(/given once/) }]);
    // In Cameroon but not in Douala: named by the parameter the caller used.
    const far = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, near: '3.87,11.51' })}`, t.key);
    expect(far.status).toBe(400);
    expect(far.body.errors[0]).toMatchObject({ path: 'near', message: expect.stringMatching(/^near=3.87,11.51 is outside Douala/) });
    // Outside Cameroon altogether, swapped: the search's own message, suggesting the swap.
    const swapped = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...base, near: '9.7,4.05' })}`, t.key);
    expect(swapped.status).toBe(400);
    expect(swapped.body.errors[0].message).toMatch(/did you mean near=4.05,9.7/);
  });

  it('values a quarter the gazetteer lacks at the city level, echoing its name', async () => {
    const q = { city: 'Douala', neighborhood: 'Quartier Inconnu', type: 'apartment', purpose: 'rent', bedrooms: 2 };
    const res = await get(t.baseUrl, `/api/v1/valuations?${qs(q)}`, t.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const v = res.body.data;
    expect(v.method).toBe('city_comparables');
    expect(v.subject.neighborhood).toBe('Quartier Inconnu');
    expect(v.method_detail).toMatch(/Quartier Inconnu is not a quarter Mboa knows in Douala/);
    expect(v.valued_as_type).toBeNull();
    expectNumbers(v.estimate);
    // At the city's level: the same estimate as a subject that names no quarter at all.
    const { neighborhood: _, ...noNeighborhood } = q;
    const none = await get(t.baseUrl, `/api/v1/valuations?${qs(noNeighborhood)}`, t.key);
    expect(none.status).toBe(200);
    expect(none.body.data.estimate.price).toBe(v.estimate.price);
  });

  it('values a studio through the flats when the town has no studio, with a wider range; a room without studios is a 422 saying why', async () => {
    const studio = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...TOWN, type: 'studio' })}`, t.key);
    expect(studio.status, JSON.stringify(studio.body)).toBe(200);
    const v = studio.body.data;
    expect(v.valued_as_type).toBe('apartment');
    expect(v.subject.type).toBe('studio');
    expect(v.method_detail).toMatch(/No studio adverts enough .* valued from apartment adverts/);
    expectNumbers(v.estimate);
    expect(v.comparables.length).toBeGreaterThanOrEqual(FLATS.length);
    expect(new Set(v.comparables.map((c: { type: string }) => c.type))).toEqual(new Set(['apartment']));
    // A flat of one bedroom, asked directly: the studio's range is 1.5 times as wide in log terms.
    const flat = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...TOWN, type: 'apartment', bedrooms: 1 })}`, t.key);
    expect(flat.status).toBe(200);
    expect(flat.body.data.valued_as_type).toBeNull();
    expect(v.estimate.fsd).toBeGreaterThan(flat.body.data.estimate.fsd);
    expect(Math.log(v.estimate.high / v.estimate.price)).toBeCloseTo(1.2816 * v.estimate.fsd, 2);

    const room = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...TOWN, type: 'room' })}`, t.key);
    expect(room.status).toBe(422);
    expect(room.body.code).toBe('insufficient_data');
    expect(room.body.detail).toMatch(/0 room adverts for sale in Ebolowa/);
    expect(room.body.detail).toMatch(/Nor are there enough studio adverts there/);
  });

  it('weighs comparables all far from the subject relative to one another: a finite estimate, never 0/0', () => {
    const prices = [100_000, 120_000, 140_000, 110_000, 130_000, 125_000];
    const cells = new CellAccumulator();
    const candidates: Candidate[] = prices.map((price, i) => ({
      id: `c${i}`,
      price,
      surface: null,
      bedrooms: 2,
      bathrooms: 1,
      furnished: false,
      landTitle: null,
      neighborhoodKey: 'makepe',
      point: { lat: 3.87 + i * 0.001, lng: 11.51 },
      ageYears: 0,
    }));
    for (const c of candidates) cells.add('rent', 'apartment', 'douala', 'makepe', featuresOf(c));
    const model = buildModel([...cells.cells.values()]);
    // 188 km from every comparable: each similarity underflows to 0 on its own.
    const v = valueSubject(
      {
        cityKey: 'douala',
        neighborhoodKey: 'makepe',
        point: { lat: 4.05, lng: 9.7 },
        type: 'apartment',
        purpose: 'rent',
        surface: null,
        bedrooms: 2,
        bathrooms: 1,
        furnished: false,
        landTitle: null,
        ageYears: 0,
      },
      candidates,
      'quarter_comparables',
      model,
      20,
    );
    for (const x of [v.price, v.low, v.high, v.fsd]) expect(Number.isFinite(x)).toBe(true);
    // Equal features, equal distances but for a metre or so: the estimate is within the comparables' prices.
    expect(v.price).toBeGreaterThan(Math.min(...prices));
    expect(v.price).toBeLessThan(Math.max(...prices));
    expect(v.comparables.reduce((s, c) => s + c.weight, 0)).toBeCloseTo(1, 9);
  });
});
