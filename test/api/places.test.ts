/**
 * Unknown cities and neighbourhoods: a 400 that suggests the closest known names, never
 * charged, on search, stats and trends. Known means the catalog, or a place listings
 * were loaded for (from the next market refresh): imported places stay searchable.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { DAY_MS, plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { PLANS } from '../../contract/plans.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('pro');
const source = plantSource();

afterAll(() => removePlanted(t.db.pool, source));

const ENDPOINTS = ['/api/v1/listings', '/api/v1/market/stats', '/api/v1/market/trends'];

describe.each(ENDPOINTS)('%s', (endpoint) => {
  it('refuses a misspelt city with 400, suggests the city meant, and does not charge the call', async () => {
    const before = await storedUsage(t, t.caller.id);
    const res = await get(t.baseUrl, `${endpoint}?city=Doula`, t.key);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors).toEqual([{ path: 'city', message: 'unknown city "Doula"; did you mean Douala?', suggestions: ['Douala'] }]);
    expect(res.body.detail).toBe('city: unknown city "Doula"; did you mean Douala?');
    expect(res.body.meta.quota.used).toBe(before);
    expect(await storedUsage(t, t.caller.id)).toBe(before);
  });

  it('suggests the neighbourhood meant within the city', async () => {
    const res = await get(t.baseUrl, `${endpoint}?city=douala&neighborhood=Bonaprisso`, t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0]).toMatchObject({ path: 'neighborhood', suggestions: ['Bonapriso'] });
    expect(res.body.errors[0].message).toContain('not a known neighbourhood of Douala');
  });

  it('says where a neighbourhood of another city is', async () => {
    const res = await get(t.baseUrl, `${endpoint}?city=Douala&neighborhood=Bastos`, t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('neighborhood');
    expect(res.body.errors[0].message).toContain('"Bastos" is in Yaoundé');
  });

  it('lists the known cities when none is close', async () => {
    const res = await get(t.baseUrl, `${endpoint}?city=Paris`, t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'city', suggestions: [] });
    expect(res.body.errors[0].message).toMatch(/known cities: Douala, Yaoundé, .*Ebolowa/);
  });

  it('reports an unknown city and an unknown neighbourhood together', async () => {
    const res = await get(t.baseUrl, `${endpoint}?city=Doula&neighborhood=Bonaprisso`, t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['city', 'neighborhood']);
    expect(res.body.errors[1].suggestions).toContain('Bonapriso');
  });

  it('names an unknown place in the same answer as the other parameters at fault, before taking any of the minute', async () => {
    const { key } = await t.account('pro');
    const res = await get(t.baseUrl, `${endpoint}?city=Doula&currency=ABC`, key);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['currency', 'city']);
    expect(res.body.errors[1].suggestions).toEqual(['Douala']);
    // Refused before admission: the per-minute window is untouched.
    const next = await get(t.baseUrl, `${endpoint}?city=Douala`, key);
    expect(next.status).toBe(200);
    expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(PLANS.pro.ratePerMinute! - 1);
  });

  it('still matches known names without regard to case and accents, a neighbourhood alone included', async () => {
    for (const query of ['city=YAOUNDÉ', 'city=yaounde&neighborhood=biyem%20assi', 'neighborhood=BASTOS', 'city=ngaoundere']) {
      const res = await get(t.baseUrl, `${endpoint}?${query}`, t.key);
      expect(res.status, `${query}: ${res.text}`).toBe(200);
    }
  });
});

describe('places outside the catalog', () => {
  it('are known once listings bring them (after the market refresh that follows every load), and searchable', async () => {
    const before = await get(t.baseUrl, '/api/v1/listings?city=Mbalmayo', t.key);
    expect(before.status).toBe(400);
    expect(before.body.errors[0].path).toBe('city');

    const ids = await plantListings(t.db.pool, source, [
      {
        city: 'Mbalmayo',
        neighborhood: 'Oyack',
        type: 'house',
        purpose: 'sale',
        price: 35_000_000,
        surface: 180,
        listedAt: new Date(Date.now() - 3 * DAY_MS),
      },
      {
        city: 'Mbalmayo',
        neighborhood: 'Oyack',
        type: 'house',
        purpose: 'sale',
        price: 42_000_000,
        surface: 200,
        listedAt: new Date(Date.now() - 9 * DAY_MS),
        status: 'withdrawn',
      },
      {
        city: 'Douala',
        neighborhood: 'Bonadibong',
        type: 'apartment',
        purpose: 'rent',
        price: 250_000,
        surface: 90,
        listedAt: new Date(Date.now() - 2 * DAY_MS),
      },
    ]);
    await refreshMarketFigures(t.db.pool);

    const search = await get(t.baseUrl, '/api/v1/listings?city=mbalmayo&neighborhood=OYACK&status=any', t.key);
    expect(search.status).toBe(200);
    expect(search.body.data.map((l: { id: string }) => l.id).sort()).toEqual([ids[0], ids[1]].sort());

    const newNeighborhood = await get(t.baseUrl, '/api/v1/listings?city=Douala&neighborhood=Bonadibong', t.key);
    expect(newNeighborhood.status).toBe(200);
    expect(newNeighborhood.body.data.map((l: { id: string }) => l.id)).toEqual([ids[2]]);

    const stats = await get(t.baseUrl, '/api/v1/market/stats?city=Mbalmayo', t.key);
    expect(stats.status).toBe(200);
    expect(stats.body.data).toEqual([
      expect.objectContaining({ city: 'Mbalmayo', purpose: 'sale', volume: 1, sample_size: 1, median_price: 35_000_000 }),
    ]);

    const typo = await get(t.baseUrl, '/api/v1/market/trends?city=Mbalmyo', t.key);
    expect(typo.status).toBe(400);
    expect(typo.body.errors[0].suggestions).toEqual(['Mbalmayo']);
  });
});
