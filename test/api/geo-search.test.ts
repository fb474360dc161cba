/**
 * Geographic search over real HTTP and the seeded database: `near` + `radius_m`, `bbox`
 * and `sort=distance` find exactly the listings a full scan finds by distances computed
 * here (haversine on earthdistance's sphere), page through every result with cursors,
 * combine with the other filters, and the export takes them too. A few listings get a
 * point of their own for the file (restored after), so both precisions are searched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, serverWithAccount } from '../helpers/server.js';
import { haversine } from '../helpers/geo.js';

const t = serverWithAccount('enterprise');

interface Row {
  id: string;
  status: string;
  city: string;
  type: string;
  lat: number | null;
  lng: number | null;
  precision: 'street' | 'neighborhood' | null;
}

const AKWA = { lat: 4.0483, lng: 9.7043 };
let moved: Array<{ id: string; lat: number | null; lng: number | null }> = [];

/** Every listing with its public point worked out here: own point, else its quarter's centroid (city-only ones have none). */
async function allRows(): Promise<Row[]> {
  const { rows } = await t.db.pool.query<Row & { qlat: number | null; qlng: number | null }>(
    `SELECT l.id, l.status::text, l.city, l.type::text, l.lat, l.lng, q.lat AS qlat, q.lng AS qlng, NULL AS precision
     FROM listings l LEFT JOIN neighborhoods q ON q.city_key = l.city_key AND q.name = l.neighborhood`,
  );
  return rows.map((r) =>
    r.lat !== null && r.lng !== null
      ? { ...r, precision: 'street' }
      : r.qlat !== null
        ? { ...r, lat: r.qlat, lng: r.qlng, precision: 'neighborhood' }
        : { ...r, lat: null, lng: null, precision: null },
  );
}

async function walk(query: string): Promise<{ items: Array<Record<string, any>>; total: number; pages: number }> {
  const items: Array<Record<string, any>> = [];
  let cursor: string | null = null;
  let total = -1;
  let pages = 0;
  do {
    const page = await get(t.baseUrl, `/api/v1/listings?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, t.key);
    expect(page.status, page.text).toBe(200);
    if (total < 0) total = page.body.meta.total;
    items.push(...page.body.data);
    cursor = page.body.meta.next_cursor;
    pages++;
  } while (cursor);
  return { items, total, pages };
}

beforeAll(async () => {
  // 40 Douala listings get their own point, scattered within ~3 km of Akwa (the trigger places them).
  const { rows } = await t.db.pool.query<{ id: string; lat: number | null; lng: number | null }>(
    `SELECT id, lat, lng FROM listings WHERE city = 'Douala' ORDER BY id LIMIT 40`,
  );
  moved = rows;
  for (const [i, r] of rows.entries()) {
    const lat = Math.round((AKWA.lat + Math.sin(i * 1.7) * 0.025) * 1000) / 1000;
    const lng = Math.round((AKWA.lng + Math.cos(i * 2.3) * 0.025) * 1000) / 1000;
    await t.db.pool.query('UPDATE listings SET lat = $2, lng = $3 WHERE id = $1', [r.id, lat, lng]);
  }
});

afterAll(async () => {
  for (const r of moved) await t.db.pool.query('UPDATE listings SET lat = $2, lng = $3 WHERE id = $1', [r.id, r.lat, r.lng]);
});

describe('near and radius_m', () => {
  it('finds exactly the listings within the radius, none missing, each with its distance', async () => {
    const all = await allRows();
    const { items, total } = await walk(`near=${AKWA.lat},${AKWA.lng}&radius_m=2000&status=any&limit=200`);
    const expected = all.filter((r) => r.lat !== null && haversine(AKWA.lat, AKWA.lng, r.lat, r.lng!) <= 2000);
    expect(expected.some((r) => r.precision === 'street')).toBe(true);
    expect(expected.some((r) => r.precision === 'neighborhood')).toBe(true);
    expect(new Set(items.map((i) => i.id))).toEqual(new Set(expected.map((r) => r.id)));
    expect(total).toBe(expected.length);
    const byId = new Map(all.map((r) => [r.id, r]));
    for (const item of items) {
      const row = byId.get(item.id)!;
      expect(item.location).toEqual({ lat: row.lat, lng: row.lng, precision: row.precision });
      expect(Number.isInteger(item.distance_m)).toBe(true);
      expect(Math.abs(item.distance_m - haversine(AKWA.lat, AKWA.lng, row.lat!, row.lng!))).toBeLessThanOrEqual(0.5 + 1e-6);
    }
    // Listings placed by their city alone are never found, even at the city's centroid.
    const cityOnly = all.filter((r) => r.precision === null).map((r) => r.id);
    expect(items.filter((i) => cityOnly.includes(i.id))).toEqual([]);
  });

  it('sort=distance: nearest first, ties by id, every page through cursors', async () => {
    const { items, total, pages } = await walk(`near=${AKWA.lat},${AKWA.lng}&radius_m=3000&sort=distance&limit=25`);
    expect(pages).toBeGreaterThan(2);
    expect(items).toHaveLength(total);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    const exact = (i: Record<string, any>) => haversine(AKWA.lat, AKWA.lng, i.location.lat, i.location.lng);
    for (let k = 1; k < items.length; k++) {
      const [a, b] = [items[k - 1], items[k]];
      const [da, db] = [exact(a), exact(b)];
      // Same point: ordered by id; otherwise nearer first (beyond float noise).
      if (a.location.lat === b.location.lat && a.location.lng === b.location.lng) expect(a.id < b.id).toBe(true);
      else expect(da).toBeLessThanOrEqual(db + 1e-6);
    }
    expect(items.every((i) => i.status === 'active')).toBe(true);
  });

  it('combines with city and type, and with bbox (both apply)', async () => {
    const all = await allRows();
    const box = { minLng: 9.69, minLat: 4.03, maxLng: 9.72, maxLat: 4.06 };
    const { items } = await walk(
      `near=${AKWA.lat},${AKWA.lng}&radius_m=5000&city=douala&type=apartment,house&bbox=${box.minLng},${box.minLat},${box.maxLng},${box.maxLat}&limit=200`,
    );
    const expected = all.filter(
      (r) =>
        r.lat !== null &&
        r.status === 'active' &&
        r.city === 'Douala' &&
        ['apartment', 'house'].includes(r.type) &&
        haversine(AKWA.lat, AKWA.lng, r.lat, r.lng!) <= 5000 &&
        r.lat >= box.minLat &&
        r.lat <= box.maxLat &&
        r.lng! >= box.minLng &&
        r.lng! <= box.maxLng,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(new Set(items.map((i) => i.id))).toEqual(new Set(expected.map((r) => r.id)));
  });

  it('takes the default radius of 5,000 m', async () => {
    const near = `near=${AKWA.lat},${AKWA.lng}&status=any`;
    // With status=any, 5 km is a heavy read: one after the other, on a key of its own (heavy reads are capped per account).
    const { key } = await t.account('enterprise');
    const dflt = await get(t.baseUrl, `/api/v1/listings?${near}`, key);
    const explicit = await get(t.baseUrl, `/api/v1/listings?${near}&radius_m=5000`, key);
    expect([dflt.status, explicit.status], explicit.text).toEqual([200, 200]);
    expect(dflt.body.meta.total).toBe(explicit.body.meta.total);
    expect(dflt.body.meta.total).toBeGreaterThan(0);
  });

  it('binds cursors to the geographic filters', async () => {
    const first = await get(t.baseUrl, `/api/v1/listings?near=${AKWA.lat},${AKWA.lng}&radius_m=3000&limit=5`, t.key);
    const cursor = encodeURIComponent(first.body.meta.next_cursor);
    const other = await get(t.baseUrl, `/api/v1/listings?near=${AKWA.lat},${AKWA.lng}&radius_m=3001&limit=5&cursor=${cursor}`, t.key);
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('invalid_cursor');
  });
});

describe('bbox', () => {
  it('finds exactly the listings inside the box, edges included', async () => {
    const all = await allRows();
    const box = { minLng: 9.68, minLat: 4.02, maxLng: 9.74, maxLat: 4.08 };
    const { items, total } = await walk(`bbox=${box.minLng},${box.minLat},${box.maxLng},${box.maxLat}&status=any&limit=200`);
    const expected = all.filter(
      (r) => r.lat !== null && r.lat >= box.minLat && r.lat <= box.maxLat && r.lng! >= box.minLng && r.lng! <= box.maxLng,
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(total).toBe(expected.length);
    expect(new Set(items.map((i) => i.id))).toEqual(new Set(expected.map((r) => r.id)));
    expect(items.every((i) => i.distance_m === undefined)).toBe(true);
  });
});

describe('invalid geographic parameters', () => {
  it.each([
    ['near=95,9.7', 'near'],
    ['near=4.05', 'near'],
    ['near=4.05,abc', 'near'],
    ['near=4.05,9.7&radius_m=60000', 'radius_m'],
    ['near=4.05,9.7&radius_m=0', 'radius_m'],
    ['radius_m=1000', 'radius_m'],
    ['bbox=9.7,4.0,9.7,4.1', 'bbox'],
    ['bbox=9.8,4.0,9.7,4.1', 'bbox'],
    ['bbox=9.7,4.1,9.8,4.0', 'bbox'],
    ['bbox=9.7,4.0,9.8', 'bbox'],
    ['bbox=9.7,-91,9.8,4', 'bbox'],
    ['sort=distance', 'sort'],
  ])('%s is a 400 naming %s', async (query, parameter) => {
    const res = await get(t.baseUrl, `/api/v1/listings?${query}`, t.key);
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual([parameter]);
  });

  it('the export refuses them the same way', async () => {
    const res = await get(t.baseUrl, '/api/v1/exports/listings?near=4,200', t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['near']);
  });
});

describe('the export with near', () => {
  it('streams the same listings as the search, each line with its distance_m', async () => {
    const query = `near=${AKWA.lat},${AKWA.lng}&radius_m=2500&type=apartment`;
    const res = await fetch(`${t.baseUrl}/api/v1/exports/listings?${query}`, { headers: { 'X-API-Key': t.key } });
    expect(res.status).toBe(200);
    const lines = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, any>);
    const { items } = await walk(`${query}&limit=200`);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).toEqual([...items].sort((a, b) => (a.id < b.id ? -1 : 1)));
    for (const line of lines) {
      expect(Math.abs(line.distance_m - haversine(AKWA.lat, AKWA.lng, line.location.lat, line.location.lng))).toBeLessThanOrEqual(
        0.5 + 1e-6,
      );
    }
  });
});

describe('the searchable point follows the data', () => {
  /** Runs `body` in a transaction that is rolled back: nothing stays. */
  async function rolledBack(body: (c: import('pg').PoolClient) => Promise<void>) {
    const c = await t.db.pool.connect();
    try {
      await c.query('BEGIN');
      await body(c);
    } finally {
      await c.query('ROLLBACK');
      c.release();
    }
  }
  const geoOf = async (c: import('pg').PoolClient, id: string) =>
    (await c.query<{ geo_lat: number | null; geo_lng: number | null }>('SELECT geo_lat, geo_lng FROM listings WHERE id = $1', [id]))
      .rows[0];

  it('a gazetteer change that moves a centroid moves the listings placed there, not those with their own point', async () => {
    await rolledBack(async (c) => {
      const { rows } = await c.query<{ id: string; city_key: string; neighborhood: string }>(
        `SELECT l.id, l.city_key, l.neighborhood FROM listings l JOIN neighborhoods q ON q.city_key = l.city_key AND q.name = l.neighborhood
         WHERE l.lat IS NULL LIMIT 1`,
      );
      const at = rows[0];
      await c.query('UPDATE neighborhoods SET lat = lat + 0.01, lng = lng - 0.02 WHERE city_key = $1 AND name = $2', [
        at.city_key,
        at.neighborhood,
      ]);
      const q = (await c.query('SELECT lat, lng FROM neighborhoods WHERE city_key = $1 AND name = $2', [at.city_key, at.neighborhood]))
        .rows[0];
      expect(await geoOf(c, at.id)).toEqual({ geo_lat: q.lat, geo_lng: q.lng });
      await c.query('DELETE FROM neighborhoods WHERE city_key = $1 AND name = $2', [at.city_key, at.neighborhood]);
      expect(await geoOf(c, at.id)).toEqual({ geo_lat: null, geo_lng: null });
      const own = moved[0].id;
      const before = await geoOf(c, own);
      await c.query('UPDATE neighborhoods SET lat = lat + 0.01 WHERE city_key = $1', [at.city_key]);
      expect(await geoOf(c, own)).toEqual(before);
    });
  });

  it('admin alias add places the listings it moves to a quarter at its centroid', async () => {
    const { addAlias } = await import('../../server/ingest/neighborhoods.js');
    await rolledBack(async (c) => {
      const { rows } = await c.query<{ id: string }>(
        "SELECT id FROM listings WHERE city = 'Douala' AND lat IS NULL ORDER BY id DESC LIMIT 1",
      );
      const id = rows[0].id;
      await c.query("UPDATE listings SET neighborhood = NULL, neighborhood_key = NULL, raw_neighborhood = 'Bonapriso Sudd' WHERE id = $1", [
        id,
      ]);
      expect(await geoOf(c, id)).toEqual({ geo_lat: null, geo_lng: null });
      await addAlias(c, 'Douala', 'Bonapriso Sudd', 'Bonapriso');
      const q = (await c.query("SELECT lat, lng FROM neighborhoods WHERE city_key = 'douala' AND name = 'Bonapriso'")).rows[0];
      expect(q).toBeDefined();
      expect(await geoOf(c, id)).toEqual({ geo_lat: q.lat, geo_lng: q.lng });
    });
  });
});
