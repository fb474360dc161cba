/** Distances worked out in the tests, independently of the database's earthdistance. */

/** earthdistance's earth() radius, metres. */
const R = 6_378_168;
const rad = (d: number) => (d * Math.PI) / 180;

/** Great-circle distance in metres on earthdistance's sphere (haversine). */
export function haversine(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = Math.sin(rad(lat2 - lat1) / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(rad(lng2 - lng1) / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(a)));
}
