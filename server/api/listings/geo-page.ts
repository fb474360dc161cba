/**
 * The SQL that picks a geographic page's ids without gathering every match.
 *
 * - **By date** (`-listed_at`, `listed_at`): the area's grid cells (migration
 *   20261127213000_geo_cell_index: `listing_cell(geo_lat, geo_lng)`, 0.02° a side), and in
 *   each, a walk of the B-tree on (cell, status, listed_at, id) in the page's order, each
 *   entry tested exactly (distance, box) from the point the index carries, stopping at a
 *   page; then the cells' pages merged. A cursor's position bounds each walk, so page N
 *   costs what page 1 costs. Used when the search names one status (the default `active`)
 *   and the area touches at most GEO_MAX_CELLS cells; otherwise the GiST index and a sort.
 * - **By distance**: a nearest-first walk of the GiST index (`<->`, cube's Euclidean
 *   distance between the points as earthdistance places them; `earth_distance` is that
 *   chord turned into an arc, so both order alike), bounded by the area's cube, stopping
 *   at a page; ties of the chord (listings at one quarter's centroid) sorted by id.
 *
 * Both return the same ids in the same order as the plain query (every match sorted): the
 * conditions are the same, only the path to them differs (test/api/geo-plans.test.ts).
 */
import type { EffectiveFilters, SqlConditions } from '../../domain/listing/filters.js';
import { addGeoConditions, type GeoFilters } from '../../domain/listing/geo.js';

/** A grid cell's side in degrees: must be the 0.02 of `listing_cell()` in the migration. */
export const GEO_CELL_DEG = 0.02;
/** More cells than this (a radius over about 8 km, a large box): the GiST index and a sort. */
export const GEO_MAX_CELLS = 64;
/** earthdistance's `earth()`: the sphere's radius in metres. */
const EARTH_M = 6_378_168;

const deg = (rad: number) => (rad * 180) / Math.PI;

/** The latitude and longitude bounds of the area the filters select (the radius's circle and the box, both when both), or null. */
function boundsOf(f: GeoFilters): { minLat: number; maxLat: number; minLng: number; maxLng: number } | null {
  let b: { minLat: number; maxLat: number; minLng: number; maxLng: number } | null = null;
  if (f.nearLat !== undefined && f.nearLng !== undefined && f.radiusM !== undefined) {
    const angle = f.radiusM / EARTH_M;
    const cos = Math.cos((f.nearLat * Math.PI) / 180);
    const sinRatio = Math.sin(angle) / cos;
    if (!(cos > 0.01) || sinRatio >= 1) return null;
    // The circle's extent, widened by 1 % and a millionth of a degree: a point on its edge is never left out.
    const dLat = deg(angle) * 1.01 + 1e-6;
    const dLng = deg(Math.asin(sinRatio)) * 1.01 + 1e-6;
    b = { minLat: f.nearLat - dLat, maxLat: f.nearLat + dLat, minLng: f.nearLng - dLng, maxLng: f.nearLng + dLng };
  }
  if (f.bboxMinLat !== undefined && f.bboxMaxLat !== undefined && f.bboxMinLng !== undefined && f.bboxMaxLng !== undefined) {
    const box = { minLat: f.bboxMinLat, maxLat: f.bboxMaxLat, minLng: f.bboxMinLng, maxLng: f.bboxMaxLng };
    b = b
      ? {
          minLat: Math.max(b.minLat, box.minLat),
          maxLat: Math.min(b.maxLat, box.maxLat),
          minLng: Math.max(b.minLng, box.minLng),
          maxLng: Math.min(b.maxLng, box.maxLng),
        }
      : box;
  }
  return b;
}

/**
 * The cells (as `listing_cell()` numbers them) that the area touches, or null when the
 * cell plan does not apply: no area, one crossing the antimeridian or near a pole, or more
 * than GEO_MAX_CELLS cells. An empty list when the radius and the box do not meet.
 */
export function geoCells(f: GeoFilters): GeoCells | null {
  const b = boundsOf(f);
  if (!b) return null;
  if (b.minLng < -180 || b.maxLng > 180 || b.minLat < -90 || b.maxLat > 90) return null;
  if (b.minLat > b.maxLat || b.minLng > b.maxLng) return { cells: [], bounds: b };
  const [r0, r1] = [Math.floor(b.minLat / GEO_CELL_DEG), Math.floor(b.maxLat / GEO_CELL_DEG)];
  const [c0, c1] = [Math.floor(b.minLng / GEO_CELL_DEG), Math.floor(b.maxLng / GEO_CELL_DEG)];
  if ((r1 - r0 + 1) * (c1 - c0 + 1) > GEO_MAX_CELLS) return null;
  const cells: number[] = [];
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) cells.push(r * 20_000 + c);
  return { cells, bounds: b };
}

/**
 * The cells an area touches, and its latitude and longitude bounds: a test of two plain
 * columns, which spares the great-circle distance to the cells' entries outside them.
 */
export interface GeoCells {
  cells: number[];
  bounds: { minLat: number; maxLat: number; minLng: number; maxLng: number };
}

/** What a page's SQL is made of (search.ts). */
export interface GeoPageParts {
  listings: string;
  /** `WHERE …` of every filter, the cursor's position included; without the GiST cube test for the cell plan. */
  where: string;
  direction: 'ASC' | 'DESC';
  limit: string;
}

/** The ids of a page by date, cell by cell (see above): `id`, `sort_key`, and `distance` with `near`. */
export function cellPageSql(p: GeoPageParts, area: GeoCells, distance: string | null, sql: SqlConditions): string {
  const { minLat, maxLat, minLng, maxLng } = area.bounds;
  const within =
    `l.geo_lat BETWEEN ${sql.param(minLat)}::float8 AND ${sql.param(maxLat)}::float8` +
    ` AND l.geo_lng BETWEEN ${sql.param(minLng)}::float8 AND ${sql.param(maxLng)}::float8`;
  return `SELECT h.* FROM unnest(${sql.param(area.cells)}::int[]) AS c(cell)
         CROSS JOIN LATERAL (
           SELECT l.id, l.listed_at AS sort_key${distance ? `, ${distance} AS distance` : ''} FROM ${p.listings} l
           ${p.where ? `${p.where} AND` : 'WHERE'} listing_cell(l.geo_lat, l.geo_lng) = c.cell AND ${within}
           ORDER BY l.listed_at ${p.direction}, l.id ${p.direction} LIMIT ${p.limit}
         ) h
         ORDER BY h.sort_key ${p.direction}, h.id ${p.direction} LIMIT ${p.limit}`;
}

/** Whether a nearest-first page may walk the GiST index (see `nearestPageSql`): no filter but the status and the area. */
export function nearestWalkFits(f: EffectiveFilters): boolean {
  return Object.entries(f).every(([name, value]) => value === undefined || NEAREST_FILTERS.has(name));
}
const NEAREST_FILTERS = new Set(['status', 'nearLat', 'nearLng', 'radiusM', 'bboxMinLat', 'bboxMaxLat', 'bboxMinLng', 'bboxMaxLng']);

/**
 * The conditions of the nearest-first walk: every filter but the radius (the status, the
 * box's exact test, the cursor's position). The walk stops once it has a page of them.
 */
export function nearestWalkWhere(f: EffectiveFilters, sql: SqlConditions, position: string | null): string {
  const conditions: string[] = [];
  if (f.status !== undefined) conditions.push(`l.status = ${sql.param(f.status)}::"ListingStatus"`);
  const box = { bboxMinLat: f.bboxMinLat, bboxMaxLat: f.bboxMaxLat, bboxMinLng: f.bboxMinLng, bboxMaxLng: f.bboxMaxLng };
  addGeoConditions(box, { param: (v) => sql.param(v), add: (c) => conditions.push(c) }, 'l', false);
  if (position) conditions.push(position);
  return conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * The ids of a page nearest first: `id`, `sort_key`, `distance`. The GiST index walked
 * nearest first (`<->`: cube's Euclidean distance between the points as earthdistance
 * places them; `earth_distance` is that chord as an arc, so both order alike) under
 * `walk` (every filter but the radius), a page of rows: their farthest distance is the
 * reach. At least a page of matches lies within the reach, so the page is the first rows
 * by (distance, id) of the matches within it, found through the index's cube test and
 * sorted: the same rows, ties included, as sorting every match.
 */
export function nearestPageSql(p: GeoPageParts, distance: string, centre: string, walk: string): string {
  const reach = `(SELECT max(n.d) FROM (SELECT ${distance} AS d FROM ${p.listings} l ${walk}
                   ORDER BY listing_earth(l.geo_lat, l.geo_lng) <-> ${centre} LIMIT ${p.limit}) n)`;
  return `SELECT l.id, ${distance} AS sort_key, ${distance} AS distance FROM ${p.listings} l
         ${p.where ? `${p.where} AND` : 'WHERE'} earth_box(${centre}, ${reach}) @> listing_earth(l.geo_lat, l.geo_lng)
         ORDER BY ${distance}, l.id LIMIT ${p.limit}`;
}
