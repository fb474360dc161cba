/**
 * The plans that stop at the page (server/api/listings/geo-page.ts): a radius or box search
 * by date walks the area's grid cells, a nearest-first one walks the GiST index. Over real
 * HTTP, every page through cursors gives the same ids in the same order as the plain SQL
 * (every match, sorted) written here; and the SQL the server runs reads, by EXPLAIN
 * ANALYZE, no more than a page per cell of the index instead of every match.
 */
import { describe, expect, it } from 'vitest';
import { CursorCodec } from '../../server/api/listings/cursor.js';
import { effectiveFilters } from '../../server/domain/listing/filters.js';
import { searchListings } from '../../server/api/listings/search.js';
import { ZListingsQuery } from '../../contract/schemas.js';
import { get, serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('enterprise');
const CURSORS = new CursorCodec(['plan-test-cursor-secret-0123456789-abcdefgh']);
const AKWA = { lat: 4.0483, lng: 9.7043 };
const NEAR = `near=${AKWA.lat},${AKWA.lng}`;

/** The plain SQL: every match, sorted (what the search answered before these plans). */
const DIST = `earth_distance(ll_to_earth(${AKWA.lat}, ${AKWA.lng}), ll_to_earth(l.geo_lat, l.geo_lng))`;
const inRadius = (m: number) => `l.geo_lat IS NOT NULL AND ${DIST} <= ${m}`;
const inBox = (minLng: number, minLat: number, maxLng: number, maxLat: number) =>
  `l.geo_lat BETWEEN ${minLat} AND ${maxLat} AND l.geo_lng BETWEEN ${minLng} AND ${maxLng}`;
const NEWEST = 'l.listed_at DESC, l.id DESC';
const OLDEST = 'l.listed_at ASC, l.id ASC';
const NEAREST = `${DIST}, l.id`;

async function plainIds(where: string, order: string): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ id: string }>(`SELECT l.id FROM listings l WHERE ${where} ORDER BY ${order}`);
  return rows.map((r) => r.id);
}

async function walk(query: string): Promise<{ ids: string[]; total: number; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total = -1;
  let pages = 0;
  do {
    const page = await get(t.baseUrl, `/api/v1/listings?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, t.key);
    expect(page.status, page.text).toBe(200);
    if (total < 0) total = page.body.meta.total;
    ids.push(...page.body.data.map((d: { id: string }) => d.id));
    cursor = page.body.meta.next_cursor;
    pages++;
  } while (cursor);
  return { ids, total, pages };
}

const CASES: Array<[string, string, string, string, number?]> = [
  ['radius 2 km, newest first (cells)', `${NEAR}&radius_m=2000`, `l.status = 'active' AND ${inRadius(2000)}`, NEWEST],
  ['radius 2 km, oldest first (cells)', `${NEAR}&radius_m=2000&sort=listed_at`, `l.status = 'active' AND ${inRadius(2000)}`, OLDEST],
  ['radius 2 km, nearest first (GiST walk)', `${NEAR}&radius_m=2000&sort=distance`, `l.status = 'active' AND ${inRadius(2000)}`, NEAREST],
  [
    'radius 700 m, removed listings, newest first',
    `${NEAR}&radius_m=700&status=withdrawn`,
    `l.status = 'withdrawn' AND ${inRadius(700)}`,
    NEWEST,
  ],
  [
    'radius 3 km, sold, nearest first',
    `${NEAR}&radius_m=3000&status=sold&sort=distance`,
    `l.status = 'sold' AND ${inRadius(3000)}`,
    NEAREST,
  ],
  [
    'box about 4 × 4 km, newest first (cells)',
    'bbox=9.686,4.030,9.722,4.066',
    `l.status = 'active' AND ${inBox(9.686, 4.03, 9.722, 4.066)}`,
    NEWEST,
  ],
  [
    'radius and box together, nearest first',
    `${NEAR}&radius_m=2500&bbox=9.690,4.040,9.730,4.080&sort=distance`,
    `l.status = 'active' AND ${inRadius(2500)} AND ${inBox(9.69, 4.04, 9.73, 4.08)}`,
    NEAREST,
  ],
  [
    'radius with rents only, newest first (cells, filter applied in each)',
    `${NEAR}&radius_m=2000&purpose=rent`,
    `l.status = 'active' AND l.purpose = 'rent' AND ${inRadius(2000)}`,
    NEWEST,
  ],
  [
    'radius with rents only, nearest first (GiST and a sort)',
    `${NEAR}&radius_m=2000&purpose=rent&sort=distance`,
    `l.status = 'active' AND l.purpose = 'rent' AND ${inRadius(2000)}`,
    NEAREST,
  ],
  [
    'radius 30 km, newest first (too many cells: GiST and a sort)',
    `${NEAR}&radius_m=30000`,
    `l.status = 'active' AND ${inRadius(30000)}`,
    NEWEST,
    200,
  ],
  ['any status, newest first (GiST and a sort)', `${NEAR}&radius_m=2000&status=any`, inRadius(2000), NEWEST],
  [
    'far from any listing',
    'near=2.0,14.0&radius_m=1000',
    `l.status = 'active' AND l.geo_lat IS NOT NULL AND earth_distance(ll_to_earth(2, 14), ll_to_earth(l.geo_lat, l.geo_lng)) <= 1000`,
    NEWEST,
  ],
];

describe('geographic pages that stop at the page', () => {
  // Pages of 7 (a heavy read, over 100 km², in pages of 200: its cost is capped per minute).
  it.each(CASES)('%s: every page gives the plain SQL’s ids in its order', async (_name, query, where, order, limit = 7) => {
    const expected = await plainIds(where, order);
    const paged = await walk(`${query}&limit=${limit}`);
    expect(paged.ids).toEqual(expected);
    expect(paged.total).toBe(expected.length);
    const first = await get(t.baseUrl, `/api/v1/listings?${query}&limit=50`, t.key);
    expect(first.body.data.map((d: { id: string }) => d.id)).toEqual(expected.slice(0, 50));
  });

  it('has enough data to tell: matches beyond one page, ties at a centroid, several cells', async () => {
    const all = await plainIds(`l.status = 'active' AND ${inRadius(2000)}`, NEAREST);
    expect(all.length).toBeGreaterThan(60);
    const { rows } = await t.db.pool.query<{ cells: number; tied: number }>(
      `SELECT count(DISTINCT listing_cell(l.geo_lat, l.geo_lng))::int AS cells,
              (SELECT max(n) FROM (SELECT count(*)::int AS n FROM listings l WHERE l.status = 'active' AND ${inRadius(2000)} GROUP BY geo_lat, geo_lng) x) AS tied
       FROM listings l WHERE l.status = 'active' AND ${inRadius(2000)}`,
    );
    expect(rows[0].cells).toBeGreaterThan(1);
    expect(rows[0].tied).toBeGreaterThan(7);
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}
const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

/** The SQL the search runs for a query, and the nodes of its EXPLAIN ANALYZE. */
async function planOf(query: Record<string, string>): Promise<PlanNode[]> {
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const pool = {
    query: (sql: string, params: unknown[]) => {
      seen.push({ sql, params });
      return t.db.pool.query(sql, params);
    },
  };
  const q = ZListingsQuery.parse(query);
  await searchListings({ pool: pool as never, schema: 'public' }, CURSORS, q, effectiveFilters(q));
  const page = seen.find((s) => s.sql.includes('WITH hits'))!;
  const { rows } = await t.db.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${page.sql}`,
    page.params,
  );
  return nodesOf(rows[0]['QUERY PLAN'][0].Plan);
}

describe('the plans', () => {
  it('newest first in a radius: the cell index, index-only, reading far fewer entries than the matches', async () => {
    const nodes = await planOf({ near: `${AKWA.lat},${AKWA.lng}`, radius_m: '2000', limit: '5' });
    const scans = nodes.filter((n) => n['Index Name'] === 'listings_geo_cell_idx');
    expect(scans.length).toBe(1);
    expect(scans[0]['Node Type']).toBe('Index Only Scan');
    const read = scans[0]['Actual Loops'] * (scans[0]['Actual Rows'] + (scans[0]['Rows Removed by Filter'] ?? 0));
    const matches = (await plainIds(`l.status = 'active' AND ${inRadius(2000)}`, NEWEST)).length;
    // Each cell's walk stops at a page (6 rows): at most cells × 6 entries, however many match.
    expect(scans[0]['Actual Rows']).toBeLessThanOrEqual(6);
    expect(read).toBeLessThan(matches);
    expect(nodes.some((n) => n['Index Name'] === 'listings_geo_idx')).toBe(false);
  });

  it('nearest first: the GiST index walked in distance order for the reach, then only the rows within it', async () => {
    const nodes = await planOf({ near: `${AKWA.lat},${AKWA.lng}`, radius_m: '2000', sort: 'distance', limit: '5' });
    const gist = nodes.filter((n) => n['Index Name'] === 'listings_geo_idx');
    expect(gist.length).toBeGreaterThanOrEqual(1);
    const matches = (await plainIds(`l.status = 'active' AND ${inRadius(2000)}`, NEAREST)).length;
    // Every scan of the index reads fewer rows than the radius's matches: none gathers them all.
    for (const n of gist) expect(n['Actual Rows'] * n['Actual Loops'], JSON.stringify(n)).toBeLessThan(matches);
  });
});
