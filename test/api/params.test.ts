/**
 * The server accepts exactly what the reference says: whole numbers in digits, real
 * calendar instants with valid offsets, no unknown parameter on any route, no trailing
 * slash. Anything else is a 400 (404 for a path) naming the fault, never a 500, never charged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('enterprise');
let listingId: string;

beforeAll(async () => {
  const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1");
  listingId = rows[0].id;
});

async function expect400(path: string, parameter: string, message?: RegExp) {
  const res = await get(t.baseUrl, path, t.key);
  expect(res.status, `${path}: ${res.text}`).toBe(400);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.code).toBe('validation_error');
  const error = res.body.errors.find((e: { path: string }) => e.path === parameter);
  expect(error, JSON.stringify(res.body.errors)).toBeDefined();
  expect(res.body.detail).toContain(parameter);
  if (message) expect(error.message).toMatch(message);
  return res;
}

describe('whole numbers', () => {
  const notDigits = ['1e3', '0x10', '+5', '-0', ' 5', '5 ', '5.0', '5.', '.5', '1_000', '1,000', 'Infinity', 'NaN', '٥', '0b101', ''];
  it.each(notDigits)('min_price=%j is a 400: digits only', async (value) => {
    await expect400(`/api/v1/listings?min_price=${encodeURIComponent(value)}`, 'min_price', /whole number written in digits/);
  });

  it.each(['limit=1e1', 'limit=%2B5', 'max_surface=0x10', 'min_bedrooms=2.0', 'min_bathrooms=1e0'])('%s is a 400', async (query) => {
    await expect400(`/api/v1/listings?${query}`, query.split('=')[0]);
  });

  it('says when a number is given twice', async () => {
    await expect400('/api/v1/listings?min_price=1&min_price=2', 'min_price', /given once/);
  });

  it.each([
    ['/api/v1/listings?city=Douala&city=Yaounde', 'city'],
    ['/api/v1/listings?neighborhood=Akwa&neighborhood=Bonapriso', 'neighborhood'],
    ['/api/v1/listings?listed_after=2026-01-01&listed_after=2026-02-01', 'listed_after'],
  ])('says when a text or date is given twice: %s', async (path, param) => {
    await expect400(path, param, /^must be given once$/);
  });

  it('accepts digits, leading zeros included, and applies the value', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?min_price=000100000000&limit=200', t.key);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const l of res.body.data) expect(l.price).toBeGreaterThanOrEqual(100_000_000);
  });
});

describe('dates and timestamps', () => {
  const invalid: Array<[string, RegExp]> = [
    ['2026-01-01T00:00:00%2B99:99', /not a UTC offset/],
    ['2026-01-01T00:00:00%2B24:00', /not a UTC offset/],
    ['2026-01-01T00:00:00%2B00:60', /not a UTC offset/],
    ['2026-01-01T00:00:00-23:60', /not a UTC offset/],
    ['2026-01-01T00:00:00%2B9999', /must be a date/],
    ['0000-01-01', /year 0000 is out of range/],
    ['0000-01-01T00:00:00Z', /year 0000 is out of range/],
    ['9999-12-31', /out of range/],
    ['2026-02-29', /not a calendar date/],
    ['2026-02-30T00:00:00Z', /not a calendar date/],
    ['2026-13-01', /not a calendar date/],
    ['2026-01-01T24:00:00Z', /not a time of day/],
    ['2026-01-01T12:00:60Z', /not a time of day/],
    ['2026-01-01T12:00:00', /must be a date/],
    ['2026-01-01T12:00Z', /must be a date/],
    ['2026-01-01 12:00:00Z', /must be a date/],
    ['1735689600', /must be a date/],
    ['yesterday', /must be a date/],
  ];
  it.each(invalid)('listed_after=%s is a 400 naming listed_after', async (value, reason) => {
    await expect400(`/api/v1/listings?listed_after=${value}`, 'listed_after', reason);
  });
  it.each(invalid)('updated_after=%s is a 400 naming updated_after', async (value, reason) => {
    await expect400(`/api/v1/listings?updated_after=${value}`, 'updated_after', reason);
  });

  it('charges none of them', async () => {
    const before = await storedUsage(t, t.caller.id);
    for (const [value] of invalid) await get(t.baseUrl, `/api/v1/listings?listed_after=${value}`, t.key);
    expect(await storedUsage(t, t.caller.id)).toBe(before);
  });

  it('applies a timestamp with an offset as the instant it denotes', async () => {
    const { rows } = await t.db.pool.query<{ listed_at: Date }>(
      "SELECT listed_at FROM listings WHERE status = 'active' ORDER BY listed_at DESC OFFSET 40 LIMIT 1",
    );
    const instant = rows[0].listed_at;
    // The same instant written in UTC+01:00.
    const local = new Date(instant.getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
    const res = await get(t.baseUrl, `/api/v1/listings?listed_after=${encodeURIComponent(local)}&limit=200`, t.key);
    expect(res.status).toBe(200);
    const { rows: count } = await t.db.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM listings WHERE status = 'active' AND listed_at >= $1",
      [instant],
    );
    expect(count[0].n).toBeGreaterThan(40);
    expect(res.body.meta.total).toBe(count[0].n);
    for (const l of res.body.data) expect(Date.parse(l.listed_at)).toBeGreaterThanOrEqual(instant.getTime());
  });
});

describe('unknown parameters on every route', () => {
  it('refuses them on /listings/{id}, which takes currency only', async () => {
    await expect400(`/api/v1/listings/${listingId}?foo=1`, 'foo', /unknown query parameter/);
    await expect400(`/api/v1/listings/${listingId}?city=Douala`, 'city', /unknown query parameter/);
    const ok = await get(t.baseUrl, `/api/v1/listings/${listingId}?currency=EUR`, t.key);
    expect(ok.status).toBe(200);
  });

  it('refuses them on /ping, which takes none', async () => {
    await expect400('/api/v1/ping?verbose=1', 'verbose', /unknown query parameter/);
  });
});

describe('trailing slashes', () => {
  it.each(['/api/v1/listings/', '/api/v1/ping/', '/api/v1/market/stats/', '/api/v1/market/trends/'])(
    '%s is a 404, not the endpoint',
    async (path) => {
      const before = await storedUsage(t, t.caller.id);
      const res = await get(t.baseUrl, path, t.key);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
      expect(await storedUsage(t, t.caller.id)).toBe(before);
    },
  );

  it('/api/v1/listings/{id}/ is a 404', async () => {
    const res = await get(t.baseUrl, `/api/v1/listings/${listingId}/`, t.key);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});
