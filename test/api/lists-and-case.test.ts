/**
 * What a new customer types, read as they meant it: enum values in any case
 * (`type=Villa`, `currency=eur`), several purposes or types in one call
 * (`purpose=sale,rent`) in the search, the export, the statistics and the trends, with
 * cursors bound to the list; one clear message per bad parameter, in the API's words; and
 * the closest known name for a misspelt parameter (`min_prize`).
 */
import { describe, expect, it } from 'vitest';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('enterprise');

async function count(where: string): Promise<number> {
  const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM listings WHERE ${where}`);
  return rows[0].n;
}

describe('enum values in any case', () => {
  it('reads type=Villa, purpose=SALE, sort=-PRICE, status=Active and currency=eur as their canonical values', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?type=Villa&purpose=SALE&sort=-PRICE&status=Active&currency=eur&limit=50', t.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.total).toBe(await count("status = 'active' AND type = 'villa' AND purpose = 'sale'"));
    expect(res.body.data.length).toBeGreaterThan(1);
    for (const l of res.body.data) expect(l).toMatchObject({ type: 'villa', purpose: 'sale', currency: 'EUR' });
    const prices = res.body.data.map((l: { price: number }) => l.price);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('reads them so in the statistics and trends too', async () => {
    const stats = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=Rent&type=APARTMENT&currency=Eur', t.key);
    expect(stats.status, stats.text).toBe(200);
    expect(stats.body.data.length).toBeGreaterThan(0);
    for (const row of stats.body.data) expect(row).toMatchObject({ purpose: 'rent', type: 'apartment', currency: 'EUR' });
    const trends = await get(t.baseUrl, '/api/v1/market/trends?city=Douala&purpose=Sale', t.key);
    expect(trends.status, trends.text).toBe(200);
    for (const row of trends.body.data) expect(row.purpose).toBe('sale');
  });

  it('still refuses a value that is no spelling of a known one, with the allowed values', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?sort=cheapest', t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path: 'sort', message: expect.stringMatching(/^must be one of: -listed_at, listed_at/) }]);
  });
});

describe('several purposes or types in one call', () => {
  it('counts the rentals of Douala in one search: purpose=rent,furnished_rent', async () => {
    const both = await get(t.baseUrl, '/api/v1/listings?city=Douala&purpose=rent,furnished_rent&limit=200', t.key);
    expect(both.status, both.text).toBe(200);
    const expected = await count("status = 'active' AND city = 'Douala' AND purpose IN ('rent', 'furnished_rent')");
    expect(expected).toBeGreaterThan(0);
    expect(both.body.meta.total).toBe(expected);
    const rent = await get(t.baseUrl, '/api/v1/listings?city=Douala&purpose=rent&limit=1', t.key);
    const furnished = await get(t.baseUrl, '/api/v1/listings?city=Douala&purpose=furnished_rent&limit=1', t.key);
    expect(both.body.meta.total).toBe(rent.body.meta.total + furnished.body.meta.total);
    for (const l of both.body.data) expect(['rent', 'furnished_rent']).toContain(l.purpose);
  });

  it('takes lists of types, in any case and order, repeated values once', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?type=Villa,house,VILLA&purpose=sale&limit=1', t.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.meta.total).toBe(await count("status = 'active' AND type IN ('villa', 'house') AND purpose = 'sale'"));
  });

  it('binds a cursor to its list: another order is the same search, other values are refused', async () => {
    const first = await get(t.baseUrl, '/api/v1/listings?purpose=sale,rent&limit=5', t.key);
    expect(first.status).toBe(200);
    const cursor = encodeURIComponent(first.body.meta.next_cursor);
    const same = await get(t.baseUrl, `/api/v1/listings?purpose=RENT,sale&limit=5&cursor=${cursor}`, t.key);
    expect(same.status, same.text).toBe(200);
    expect(same.body.meta.total).toBe(first.body.meta.total);
    for (const other of ['purpose=sale', 'purpose=sale,furnished_rent', 'purpose=sale,rent,furnished_rent', '']) {
      const res = await get(t.baseUrl, `/api/v1/listings?${other}&limit=5&cursor=${cursor}`, t.key);
      expect(res.status, other).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
  });

  it('exports exactly the listings of any of the values', async () => {
    const res = await fetch(`${t.baseUrl}/api/v1/exports/listings?city=Yaoundé&purpose=sale,rent&type=villa,duplex`, {
      headers: { 'X-API-Key': t.key, 'Accept-Encoding': 'identity' },
    });
    expect(res.status).toBe(200);
    const ids = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    const { rows } = await t.db.pool.query<{ id: string }>(
      "SELECT id FROM listings WHERE status = 'active' AND city = 'Yaoundé' AND purpose IN ('sale', 'rent') AND type IN ('villa', 'duplex') ORDER BY id",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(ids).toEqual(rows.map((r) => r.id));
  });

  it('gives one statistics row per purpose and type listed, never merged', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=sale,rent&type=villa,house', t.key);
    expect(res.status, res.text).toBe(200);
    const keys = res.body.data.map((r: { purpose: string; type: string }) => `${r.purpose}/${r.type}`).sort();
    expect(keys.length).toBeGreaterThan(1);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) expect(['rent/house', 'rent/villa', 'sale/house', 'sale/villa']).toContain(key);
    // Each row is the row asked for alone.
    const alone = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=sale&type=villa', t.key);
    const row = res.body.data.find((r: { purpose: string; type: string }) => r.purpose === 'sale' && r.type === 'villa');
    expect(row).toEqual(alone.body.data[0]);
  });

  it('filters the trends by lists', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/trends?city=Douala&purpose=rent,furnished_rent&type=studio,room', t.key);
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const row of res.body.data) {
      expect(['rent', 'furnished_rent']).toContain(row.purpose);
      expect(['studio', 'room']).toContain(row.type);
    }
  });

  it.each([
    ['purpose=sale,castle', 'purpose', /^must be one or more of: sale, rent, furnished_rent \(several separated by commas\)$/],
    ['type=', 'type', /^must be one or more of: villa/],
    ['purpose=sale&purpose=rent', 'purpose', /^must be given once; one or more of: sale, rent, furnished_rent/],
  ])('%s is one 400 naming %s, never charged', async (query, path, message) => {
    const before = await storedUsage(t, t.caller.id);
    const res = await get(t.baseUrl, `/api/v1/listings?${query}`, t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ path, message: expect.stringMatching(message) }]);
    expect(await storedUsage(t, t.caller.id)).toBe(before);
  });
});

describe('one message per bad parameter, in the API words', () => {
  it.each(['min_price=1e6', 'max_price=1e6', 'limit=abc', 'min_surface=-1', 'min_bedrooms=2.5', 'limit=5&limit=6'])(
    '%s gives one error for its parameter, none from the schema library',
    async (query) => {
      const res = await get(t.baseUrl, `/api/v1/listings?${query}`, t.key);
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].path).toBe(query.split('=')[0]);
      expect(res.body.detail).not.toMatch(/Expected|received|Required|Invalid input/);
      expect(res.body.detail.split('; ')).toHaveLength(1);
    },
  );

  it('min_price=1e6 says what the API takes', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?min_price=1e6', t.key);
    expect(res.body.errors).toEqual([
      { path: 'min_price', message: 'must be a whole number written in digits (no sign, decimal point or exponent)' },
    ]);
  });
});

describe('unknown parameter names', () => {
  it('suggests the closest known one: min_prize → min_price', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?city=Douala&min_prize=1000', t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { path: 'min_prize', message: 'unknown query parameter; did you mean min_price?', suggestions: ['min_price'] },
    ]);
  });

  it('suggests per route, one error per unknown name', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?citty=Douala&purpse=sale', t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ path: 'citty', suggestions: ['city'] }),
      expect.objectContaining({ path: 'purpse', suggestions: ['purpose'] }),
    ]);
  });

  it('lists the known ones when none is close', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/trends?zzzzzzzz=1', t.key);
    expect(res.body.errors).toEqual([
      {
        path: 'zzzzzzzz',
        message: 'unknown query parameter; known parameters: city, neighborhood, type, purpose, bedrooms, group_by, currency',
        suggestions: [],
      },
    ]);
  });
});
