/**
 * The one distance between two points, in JavaScript as in SQL: the great-circle distance on
 * the sphere PostgreSQL's earthdistance uses (`earth()`, 6,378,168 m), so a figure worked out
 * here (a comparable's distance, the nearest quarter) and `earth_distance` in a query agree.
 */

export interface Point {
  lat: number;
  lng: number;
}

/** earthdistance's `earth()`: the sphere's radius in metres. */
export const EARTH_RADIUS_M = 6_378_168;

const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine; equal to `earth_distance` to the micrometre). */
export function distanceM(a: Point, b: Point): number {
  const sinLat = Math.sin(((b.lat - a.lat) * RAD) / 2);
  const sinLng = Math.sin(((b.lng - a.lng) * RAD) / 2);
  const h = sinLat * sinLat + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * sinLng * sinLng;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
