/**
 * The valuation itself, pure: the subject, its candidate comparables and the fitted model
 * in; the estimate, its range and each comparable's adjusted price, similarity and weight
 * out. The API (candidates from SQL) and the evaluation (candidates from the rows it kept)
 * both call `valueSubject`, so what is measured is what is served.
 *
 * Work in log price. Each comparable is adjusted to the subject (surface, bedrooms, age of
 * the advert, and for the city method the quarter's price level), weighed by its
 * similarity, and the estimate is the weighted mean of the adjusted log prices once the
 * comparables far from their weighted median are set aside. The forecast standard
 * deviation comes from the weighted dispersion, shrunk toward the model's own residual
 * variance and widened for the estimate's own error, times a factor calibrated on
 * held-out adverts per stratum (calibration.ts) so that [low, high] holds the price
 * `VALUATION_CONFIDENCE_LEVEL` of the time in each city and method.
 */
import { VALUATION_FSD_BANDS } from '../../../contract/valuations.js';
import { type Calibration, factorOf, Z80 } from './calibration.js';
import { distanceM, type Point } from '../places/distance.js';
import { LEVEL_SHRINK, type NeighborhoodLevel, shrinkLevels } from './levels.js';
import { type CellStats, cellLevel, featuresOf, fitGroup, type GroupModel, regressionFor } from './fit.js';

export type Method = 'quarter_comparables' | 'city_comparables';

/** Prices move together by pool: sale of built property, sale of land, rents. */
export const poolOf = (purpose: string, type: string) => (purpose === 'sale' ? (type === 'land' ? 'land' : 'sale') : 'rent');

export interface Model {
  groups: Map<string, GroupModel>;
  /** `pool|city|quarter` → the quarter's log price level against its city (shrunk), and the adverts it rests on. */
  neighborhoodLevels: Map<string, NeighborhoodLevel>;
  /** `pool|city` → variance of the quarter levels: the uncertainty of a quarter with none. */
  neighborhoodSpread: Map<string, number>;
  /** Adverts set aside from the fit as impossible prices (outliers.ts). */
  outliers: number;
  /** Range factors by stratum, from held-out residuals (calibration.ts); none yet: the methods' defaults. */
  calibration?: Calibration;
}

export { distanceM, type Point };

export function buildModel(cells: CellStats[], outliers = 0): Model {
  const byGroup = new Map<string, CellStats[]>();
  for (const c of cells) {
    const key = `${c.purpose}|${c.type}`;
    byGroup.set(key, [...(byGroup.get(key) ?? []), c]);
  }
  const groups = new Map<string, GroupModel>();
  const sums = new Map<string, { dev: number; n: number }>();
  for (const [key, groupCells] of byGroup) {
    const group = fitGroup(groupCells);
    groups.set(key, group);
    const levels = groupCells.map((c) => ({ c, l: cellLevel(c, group) })).filter((x) => x.l !== null && x.c.neighborhoodKey !== null);
    const cityMean = new Map<string, { s: number; n: number }>();
    for (const { c, l } of levels) {
      const m = cityMean.get(c.cityKey) ?? { s: 0, n: 0 };
      m.s += l!.level * l!.n;
      m.n += l!.n;
      cityMean.set(c.cityKey, m);
    }
    for (const { c, l } of levels) {
      const mean = cityMean.get(c.cityKey)!;
      const k = `${poolOf(c.purpose, c.type)}|${c.cityKey}|${c.neighborhoodKey}`;
      const s = sums.get(k) ?? { dev: 0, n: 0 };
      s.dev += (l!.level - mean.s / mean.n) * l!.n;
      s.n += l!.n;
      sums.set(k, s);
    }
  }
  const { neighborhoodLevels, neighborhoodSpread } = shrinkLevels(sums);
  return { groups, neighborhoodLevels, neighborhoodSpread, outliers };
}

export interface Subject {
  cityKey: string;
  neighborhoodKey: string | null;
  point: Point | null;
  type: string;
  purpose: string;
  surface: number | null;
  bedrooms: number | null;
  furnished: boolean | null;
  landTitle: string | null;
  bathrooms: number | null;
  /** Age of the price valued, in years: 0 for today. */
  ageYears: number;
}

export interface Candidate {
  id: string;
  price: number;
  surface: number | null;
  bedrooms: number | null;
  furnished: boolean | null;
  landTitle: string | null;
  bathrooms: number | null;
  neighborhoodKey: string | null;
  point: Point | null;
  ageYears: number;
}

export interface Adjustments {
  surface: number;
  bedrooms: number;
  bathrooms: number;
  furnished: number;
  land_title: number;
  age: number;
  neighborhood: number;
}

export interface ValuedComparable {
  candidate: Candidate;
  distanceM: number;
  similarity: number;
  /** Multiplicative factors applied to its price; their product times the price is `adjustedPrice`. */
  adjustments: Adjustments;
  adjustedPrice: number;
  weight: number;
}

export interface ValuationResult {
  price: number;
  low: number;
  high: number;
  fsd: number;
  /** The fsd before calibration: what a calibration score is divided by. */
  rawFsd: number;
  confidence: 'high' | 'medium' | 'low';
  comparables: ValuedComparable[];
  sampleSize: number;
  method: Method;
  /** The regression used for a comparable that knows everything the subject knows. */
  coefficients: {
    surface: number | null;
    bedrooms: number | null;
    bathrooms: number | null;
    furnished: number;
    land_title: number;
    age: number;
  };
}

export { Z80 };

/** Similarity bandwidths: a difference of one bandwidth in one feature alone gives exp(-1/2) ≈ 0.61. */
const BANDWIDTH = { ls: 0.35, lb: 0.35, ba: 0.5, ageYears: 1.5, distanceM: 2_500 };
/** A feature one side does not know counts as this factor. */
const UNKNOWN = 0.8;
/** Comparables furnished or titled otherwise than the subject count as this factor. */
const OTHER_TERMS = 0.7;
/** Comparables of another quarter (the city method) count as this factor. */
const OTHER_NEIGHBORHOOD = 0.5;

export function confidenceOf(fsd: number): ValuationResult['confidence'] {
  return fsd <= VALUATION_FSD_BANDS.high ? 'high' : fsd <= VALUATION_FSD_BANDS.medium ? 'medium' : 'low';
}

function weightedMedian(values: number[], weights: number[]): number {
  const order = values.map((_, i) => i).sort((a, b) => values[a] - values[b]);
  const half = weights.reduce((s, w) => s + w, 0) / 2;
  let acc = 0;
  for (const i of order) {
    acc += weights[i];
    if (acc >= half) return values[i];
  }
  return values[order[order.length - 1]];
}

export function valueSubject(subject: Subject, candidates: Candidate[], method: Method, model: Model, maxShown: number): ValuationResult {
  const group = model.groups.get(`${subject.purpose}|${subject.type}`)!;
  const pool = poolOf(subject.purpose, subject.type);
  const level = (q: string | null) => (q === null ? undefined : model.neighborhoodLevels.get(`${pool}|${subject.cityKey}|${q}`));
  const subjectLevel = level(subject.neighborhoodKey);
  const s = featuresOf({ ...subject, price: 1 });
  const full = regressionFor(group, { ls: s.ls !== null, lb: s.lb !== null });
  const scored = candidates.map((c) => {
    const f = featuresOf(c);
    const shared = { ls: s.ls !== null && f.ls !== null, lb: s.lb !== null && f.lb !== null };
    const r = regressionFor(group, shared);
    const dls = shared.ls ? s.ls! - f.ls! : 0;
    const dlb = shared.lb ? s.lb! - f.lb! : 0;
    const dq =
      method === 'city_comparables' && c.neighborhoodKey !== subject.neighborhoodKey
        ? (subjectLevel?.delta ?? 0) - (level(c.neighborhoodKey)?.delta ?? 0)
        : 0;
    const adjustments: Adjustments = {
      surface: Math.exp((r.beta.ls ?? 0) * dls),
      bedrooms: Math.exp((r.beta.lb ?? 0) * dlb),
      bathrooms: Math.exp((r.beta.ba ?? 0) * (s.ba - f.ba) + (r.beta.bk ?? 0) * (s.bk - f.bk)),
      furnished: Math.exp((r.beta.fu ?? 0) * (s.fu - f.fu)),
      land_title: Math.exp((r.beta.lt ?? 0) * (s.lt - f.lt)),
      age: Math.exp((r.beta.age ?? 0) * (s.age - f.age)),
      neighborhood: Math.exp(dq),
    };
    const adjustedPrice = Object.values(adjustments).reduce((acc, factor) => acc * factor, c.price);
    const dist = subject.point && c.point ? distanceM(subject.point, c.point) : null;
    let z2 = ((s.age - f.age) / BANDWIDTH.ageYears) ** 2;
    if (shared.ls) z2 += (dls / BANDWIDTH.ls) ** 2;
    if (shared.lb) z2 += (dlb / BANDWIDTH.lb) ** 2;
    if (s.bk === 1 && f.bk === 1) z2 += ((s.ba - f.ba) / BANDWIDTH.ba) ** 2;
    if (dist !== null) z2 += (dist / BANDWIDTH.distanceM) ** 2;
    // In logs: comparables all far from the subject still weigh relative to one another (never 0 / 0).
    let logSim = -z2 / 2;
    if (s.ls !== null && !shared.ls) logSim += Math.log(UNKNOWN);
    if (s.lb !== null && !shared.lb) logSim += Math.log(UNKNOWN);
    if (s.fu !== f.fu || s.lt !== f.lt) logSim += Math.log(OTHER_TERMS);
    if (c.neighborhoodKey !== subject.neighborhoodKey) logSim += Math.log(OTHER_NEIGHBORHOOD);
    const similarity = Math.exp(logSim);
    return { c, distanceM: dist ?? 0, similarity, logSim, adjustments, adjustedPrice, y: Math.log(adjustedPrice), sigma2: r.sigma2 };
  });
  const top = Math.max(...scored.map((r) => r.logSim));
  const rows = scored.map((r) => ({ ...r, relative: Math.exp(r.logSim - top) }));
  // Set aside comparables far from the weighted median (a mistyped price, a mansion among flats).
  const median = weightedMedian(
    rows.map((r) => r.y),
    rows.map((r) => r.relative),
  );
  const mad = weightedMedian(
    rows.map((r) => Math.abs(r.y - median)),
    rows.map((r) => r.relative),
  );
  const cut = Math.max(4 * 1.4826 * mad, 0.25);
  const kept = rows.filter((r) => Math.abs(r.y - median) <= cut && r.relative > 0);
  const total = kept.reduce((acc, r) => acc + r.relative, 0);
  const weights = kept.map((r) => r.relative / total);
  const mean = kept.reduce((acc, r, i) => acc + weights[i] * r.y, 0);
  const sumW2 = weights.reduce((acc, w) => acc + w * w, 0);
  const nEff = 1 / sumW2;
  const dispersion = kept.reduce((acc, r, i) => acc + weights[i] * (r.y - mean) ** 2, 0) / Math.max(1 - sumW2, 1e-6);
  const modelVar = kept.reduce((acc, r, i) => acc + weights[i] * r.sigma2, 0);
  // The dispersion of a handful of comparables is itself noisy: shrink it toward the model's.
  const PRIOR_WEIGHT = 5;
  const s2 = (nEff * dispersion + PRIOR_WEIGHT * modelVar) / (nEff + PRIOR_WEIGHT);
  let variance = s2 * (1 + 1 / nEff);
  if (method === 'city_comparables') {
    const spread = model.neighborhoodSpread.get(`${pool}|${subject.cityKey}`) ?? 0.25;
    // The subject quarter's level is known from n adverts (shrunk), or not at all.
    variance += subjectLevel ? spread * (LEVEL_SHRINK / (subjectLevel.n + LEVEL_SHRINK)) : spread;
  }
  const rawFsd = Math.sqrt(variance);
  const fsd = factorOf(model.calibration, method, pool, subject.cityKey) * rawFsd;
  const price = Math.exp(mean);
  const weightOf = new Map(kept.map((r, i) => [r, weights[i]]));
  const comparables = [...rows]
    .sort((a, b) => b.similarity - a.similarity || (a.c.id < b.c.id ? -1 : 1))
    .slice(0, maxShown)
    .map((r) => ({
      candidate: r.c,
      distanceM: r.distanceM,
      similarity: r.similarity,
      adjustments: r.adjustments,
      adjustedPrice: r.adjustedPrice,
      weight: weightOf.get(r) ?? 0,
    }));
  return {
    price,
    low: price * Math.exp(-Z80 * fsd),
    high: price * Math.exp(Z80 * fsd),
    fsd,
    rawFsd,
    confidence: confidenceOf(fsd),
    comparables,
    sampleSize: kept.length,
    method,
    coefficients: {
      surface: full.beta.ls ?? null,
      bedrooms: full.beta.lb ?? null,
      bathrooms: s.bk === 1 ? (full.beta.ba ?? 0) : null,
      furnished: full.beta.fu ?? 0,
      land_title: full.beta.lt ?? 0,
      age: full.beta.age ?? 0,
    },
  };
}
