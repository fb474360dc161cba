/**
 * The area of a market history around a point, as computed and cached: `near` rounded to
 * a grid and `radius_m` to the nearest 100 m, so that nearby asks share one computation
 * (README, "Market history"). The grid's step grows with the radius: 0.001° (about 110 m)
 * times the radius's whole kilometres (at least one), so the point moves by at most about
 * 8 % of a radius of 1 km or more, and by at most 78 m for a smaller one.
 * The answer says the point and radius used (`meta.area`, and the `X-Mboa-Area` header).
 */
import type { GeoPoint } from '../../../contract/geo.js';
import { HISTORY_RADIUS_DEFAULT_M, type THistoryQueryParsed } from '../../../contract/history.js';
import { matchKey } from '../../platform/text.js';

export interface AreaUsed {
  lat: number;
  lng: number;
  radius_m: number;
}

/** Radii are rounded to this many metres, never below it. */
export const AREA_RADIUS_STEP_M = 100;
/** The grid's step per whole kilometre of radius, in degrees. */
export const AREA_GRID_STEP_DEG = 0.001;

/** Rounded to `step` (a multiple of 0.001°), written with three decimals as the answer shows it. */
const onGrid = (value: number, step: number) => Number((Math.round(value / step) * step).toFixed(3));

/** The point and radius an area history is computed for. */
export function snapArea(near: GeoPoint, radiusM: number): AreaUsed {
  const radius = Math.max(AREA_RADIUS_STEP_M, Math.round(radiusM / AREA_RADIUS_STEP_M) * AREA_RADIUS_STEP_M);
  const step = AREA_GRID_STEP_DEG * Math.max(1, Math.floor(radius / 1000));
  return { lat: onGrid(near.lat, step), lng: onGrid(near.lng, step), radius_m: radius };
}

/** `lat,lng;radius_m` of the area used (the `X-Mboa-Area` header). */
export const areaHeader = (a: AreaUsed) => `${a.lat.toFixed(3)},${a.lng.toFixed(3)};${a.radius_m}`;
/** The area an area history is computed for (null without `near`). */
export const areaOf = (q: THistoryQueryParsed): AreaUsed | null =>
  q.near === undefined ? null : snapArea(q.near, q.radius_m ?? HISTORY_RADIUS_DEFAULT_M);

/**
 * The cache key of an area history: from the query alone (the city by its matching key), so
 * the cost of a call (api/costs.ts) can tell, before admitting it, whether it is computed already.
 */
export function areaHistoryKey(q: THistoryQueryParsed, area: AreaUsed): string {
  return `history-area:${q.currency}:${matchKey(q.city)}:${area.lat},${area.lng},${area.radius_m}:${q.purpose}:${q.type ?? '-'}:${q.bedrooms ?? '-'}:${q.months}`;
}
