/**
 * The geographic filters in SQL (`near` with `radius_m`, `bbox`) and the distance to
 * `near`, over each listing's searchable point (`geo_lat`, `geo_lng`: its own point, else
 * its quarter's centroid; null when only its city is known, so such listings never match).
 *
 * cube + earthdistance (in PostgreSQL's contrib and in PGlite alike; PostGIS has no PGlite
 * build): a GiST index on `listing_earth(geo_lat, geo_lng)`, the point as earthdistance's
 * `earth` (see migration 20261125060200_listing_geo). Each condition is written twice: a
 * cube containing the area (`@>`, answered by the index) and the exact test (great-circle
 * distance, or the latitude and longitude bounds), which the database applies to the
 * index's candidates only.
 */
import { type GeoBox, type GeoPoint, RADIUS_DEFAULT_M } from '../../../contract/geo.js';

/** The geographic filters as the database applies them: plain numbers, so a cursor can be bound to them. */
export interface GeoFilters {
  nearLat?: number;
  nearLng?: number;
  radiusM?: number;
  bboxMinLng?: number;
  bboxMinLat?: number;
  bboxMaxLng?: number;
  bboxMaxLat?: number;
}

/** What the builder needs of filters.ts's SqlConditions (not imported: filters.ts imports this module). */
interface Conditions {
  param(value: unknown): string;
  add(condition: string): void;
}

/** The geographic filters of a query; a `near` without `radius_m` reaches `radiusDefault` metres. */
export function geoFilters(q: { near?: GeoPoint; radius_m?: number; bbox?: GeoBox }, radiusDefault = RADIUS_DEFAULT_M): GeoFilters {
  const f: GeoFilters = {};
  if (q.near !== undefined) {
    f.nearLat = q.near.lat;
    f.nearLng = q.near.lng;
    f.radiusM = q.radius_m ?? radiusDefault;
  }
  if (q.bbox !== undefined) {
    f.bboxMinLng = q.bbox.minLng;
    f.bboxMinLat = q.bbox.minLat;
    f.bboxMaxLng = q.bbox.maxLng;
    f.bboxMaxLat = q.bbox.maxLat;
  }
  return f;
}

const POINT = (alias: string) => `listing_earth(${alias}.geo_lat, ${alias}.geo_lng)`;

/** The exact great-circle distance in metres from `near` to the listing's point (null without `near`). */
export function distanceSql(f: GeoFilters, sql: Conditions, alias = 'l'): string | null {
  if (f.nearLat === undefined || f.nearLng === undefined) return null;
  return `earth_distance(listing_earth(${sql.param(f.nearLat)}::float8, ${sql.param(f.nearLng)}::float8), ${POINT(alias)})`;
}

/**
 * The great-circle distance in metres from (`lat`, `lng`), SQL expressions, to the
 * listing's point by the haversine formula on earthdistance's sphere, in plain float
 * arithmetic: within a micrometre of `earth_distance`, at a tenth of its cost. Never the
 * answer's figure: it only spares `earth_distance` the points clearly on one side of a bound.
 */
export function haversineOf(lat: string, lng: string, alias: string): string {
  const a = `power(sin(radians(${alias}.geo_lat - ${lat}) / 2), 2) + cos(radians(${lat})) * cos(radians(${alias}.geo_lat)) * power(sin(radians(${alias}.geo_lng - ${lng}) / 2), 2)`;
  return `(2 * earth() * asin(least(1::float8, sqrt(${a}))))`;
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** The smallest and largest of the values a continuous function takes over [lo, hi], from its ends and turning points. */
function range(fn: (x: number) => number, lo: number, hi: number, turns: number[]): [number, number] {
  const values = [fn(lo), fn(hi), ...turns.filter((t) => t > lo && t < hi).map(fn)];
  return [Math.min(...values), Math.max(...values)];
}

/** [min, max] of the products of two ranges. */
function product(a: [number, number], b: [number, number]): [number, number] {
  const p = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]];
  return [Math.min(...p), Math.max(...p)];
}

/**
 * The box of the unit-sphere coordinates (x, y, z as ll_to_earth computes them, before
 * the earth's radius) of every point of a latitude/longitude box, a little wider so that
 * rounding never leaves a point on an edge out: what the index selects, before the exact test.
 */
export function unitCubeOf(b: GeoBox): { low: [number, number, number]; high: [number, number, number] } {
  const cosLat = range((d) => Math.cos(rad(d)), b.minLat, b.maxLat, [0]);
  const cosLng = range((d) => Math.cos(rad(d)), b.minLng, b.maxLng, [0, -180, 180]);
  const sinLng = range((d) => Math.sin(rad(d)), b.minLng, b.maxLng, [-90, 90]);
  const x = product(cosLat, cosLng);
  const y = product(cosLat, sinLng);
  const z: [number, number] = [Math.sin(rad(b.minLat)), Math.sin(rad(b.maxLat))];
  const PAD = 1e-6; // about 6 m on the earth's surface
  return { low: [x[0] - PAD, y[0] - PAD, z[0] - PAD], high: [x[1] + PAD, y[1] + PAD, z[1] + PAD] };
}

/**
 * Adds the geographic conditions of `f` on the listings aliased `alias` to `sql`; without
 * the cubes (`cube` false) for a plan that reaches the candidates another way (geo-page.ts).
 */
export function addGeoConditions(f: GeoFilters, sql: Conditions, alias: string, cube = true): void {
  const point = POINT(alias);
  if (f.nearLat !== undefined && f.nearLng !== undefined && f.radiusM !== undefined) {
    const radius = `${sql.param(f.radiusM)}::float8`;
    const [lat, lng] = [`${sql.param(f.nearLat)}::float8`, `${sql.param(f.nearLng)}::float8`];
    const centre = `listing_earth(${lat}, ${lng})`;
    if (cube) sql.add(`earth_box(${centre}, ${radius}) @> ${point}`);
    // The haversine formula on earthdistance's sphere, in plain arithmetic, decides every
    // point farther than a metre from the circle (it differs from earth_distance by under a
    // micrometre); earth_distance, ten times dearer (its earth points are checked values),
    // decides the ring between: the same listings, exactly, at a tenth of the cost.
    const haversine = haversineOf(lat, lng, alias);
    sql.add(`(${haversine} <= ${radius} - 1 OR (${haversine} <= ${radius} + 1 AND earth_distance(${centre}, ${point}) <= ${radius}))`);
  }
  if (f.bboxMinLng !== undefined && f.bboxMinLat !== undefined && f.bboxMaxLng !== undefined && f.bboxMaxLat !== undefined) {
    const box = { minLng: f.bboxMinLng, minLat: f.bboxMinLat, maxLng: f.bboxMaxLng, maxLat: f.bboxMaxLat };
    const { low, high } = unitCubeOf(box);
    const scaled = (v: number) => `earth() * ${sql.param(v)}::float8`;
    if (cube) sql.add(`cube(ARRAY[${low.map(scaled).join(', ')}], ARRAY[${high.map(scaled).join(', ')}]) @> ${point}`);
    sql.add(`${alias}.geo_lat BETWEEN ${sql.param(box.minLat)}::float8 AND ${sql.param(box.maxLat)}::float8`);
    sql.add(`${alias}.geo_lng BETWEEN ${sql.param(box.minLng)}::float8 AND ${sql.param(box.maxLng)}::float8`);
  }
}
