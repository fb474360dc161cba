/** Points and distances over a city. */

export interface Point {
  lat: number;
  lng: number;
}

/** Planar distance in metres (good to a fraction of a percent over a city). */
export function distanceM(a: Point, b: Point): number {
  const dLat = (a.lat - b.lat) * 111_320;
  const dLng = (a.lng - b.lng) * 111_320 * Math.cos(((a.lat + b.lat) / 2) * (Math.PI / 180));
  return Math.sqrt(dLat * dLat + dLng * dLng);
}
