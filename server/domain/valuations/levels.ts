/**
 * Each quarter's price level against its city, for the city method: what a quarter with
 * few adverts borrows, and where a quarter with none stands. Per pool (rents, sales of
 * built property, land) and city:
 *
 * - the city's reference level is the median of its quarters' levels, not the mean of its
 *   adverts, so one upscale quarter that dominates a feed (Bonapriso in Douala, Bastos in
 *   Yaoundé) does not lift every other quarter's estimate;
 * - a quarter's level is its own adverts' mean level shrunk toward a prior worth
 *   `LEVEL_SHRINK` adverts, and the prior is the level of its nearest quarters with adverts
 *   (by the gazetteer's centroids, up to `NEIGHBOURS` within `NEIGHBOUR_M`, each weighed
 *   by its adverts), else the city's reference;
 * - a gazetteer quarter without adverts gets that prior as its level (n = 0).
 */
import { GAZETTEER } from '../places/gazetteer.js';
import { distanceM, type Point } from '../places/distance.js';

/** A quarter level rests on this many adverts' worth of its prior too. */
export const LEVEL_SHRINK = 3;
const NEIGHBOURS = 3;
const NEIGHBOUR_M = 4_000;

/** `city` → quarter key → centroid (top-level quarters of the gazetteer). */
const CENTROIDS = new Map(
  [...GAZETTEER.values()].map((c) => [
    c.key,
    new Map([...c.byName.values()].filter((q) => q.name === q.neighborhood).map((q) => [q.key, q.point as Point])),
  ]),
);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface NeighborhoodLevel {
  delta: number;
  /** Adverts of the quarter itself the level rests on (0: borrowed from its neighbours). */
  n: number;
}

/**
 * `sums`: `pool|city|quarter` → the sum of its adverts' levels (against any common origin
 * per pool and city) and their count. Returns the levels against the city's reference and,
 * per `pool|city`, the variance of the quarters' own levels around it.
 */
export function shrinkLevels(sums: Map<string, { dev: number; n: number }>) {
  const byCity = new Map<string, Array<{ neighborhood: string; mean: number; n: number }>>();
  for (const [k, s] of sums) {
    if (s.n <= 0) continue;
    const at = k.lastIndexOf('|');
    const city = k.slice(0, at);
    const list = byCity.get(city) ?? [];
    list.push({ neighborhood: k.slice(at + 1), mean: s.dev / s.n, n: s.n });
    byCity.set(city, list);
  }
  const neighborhoodLevels = new Map<string, NeighborhoodLevel>();
  const neighborhoodSpread = new Map<string, number>();
  for (const [city, neighborhoods] of byCity) {
    const ref = median(neighborhoods.map((q) => q.mean));
    const centroids = CENTROIDS.get(city.slice(city.indexOf('|') + 1));
    const prior = (key: string): number => {
      const at = centroids?.get(key);
      if (!at) return 0;
      const near = neighborhoods
        .filter((q) => q.neighborhood !== key && centroids!.has(q.neighborhood))
        .map((q) => ({ q, d: distanceM(at, centroids!.get(q.neighborhood)!) }))
        .filter((x) => x.d <= NEIGHBOUR_M)
        .sort((a, b) => a.d - b.d)
        .slice(0, NEIGHBOURS);
      const w = near.reduce((s, x) => s + x.q.n / (x.q.n + LEVEL_SHRINK), 0);
      if (w === 0) return 0;
      const borrowed = near.reduce((s, x) => s + (x.q.mean - ref) * (x.q.n / (x.q.n + LEVEL_SHRINK)), 0) / w;
      // Neighbours with few adverts say less: the prior leans on the city in proportion.
      return (borrowed * w) / (w + 1);
    };
    let s2 = 0;
    let n = 0;
    for (const q of neighborhoods) {
      const own = q.mean - ref;
      neighborhoodLevels.set(`${city}|${q.neighborhood}`, {
        delta: (q.n * own + LEVEL_SHRINK * prior(q.neighborhood)) / (q.n + LEVEL_SHRINK),
        n: q.n,
      });
      s2 += own * own * q.n;
      n += q.n;
    }
    for (const key of centroids?.keys() ?? []) {
      if (!neighborhoodLevels.has(`${city}|${key}`)) neighborhoodLevels.set(`${city}|${key}`, { delta: prior(key), n: 0 });
    }
    neighborhoodSpread.set(city, n > 0 ? s2 / n : 0.25);
  }
  return { neighborhoodLevels, neighborhoodSpread };
}
