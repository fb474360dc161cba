/**
 * Ranges that mean what they say: split-conformal calibration of `[low, high]` by stratum.
 *
 * Adverts the model did not see as comparables of themselves are valued (each from the
 * others: the evaluation's training rows, or the API's calibration sample, see sql.ts), and
 * each gives a score, |log(price / estimate)| over the raw forecast standard deviation. Per
 * stratum (method × pool × city, falling back to method × pool, then to the method, when a
 * stratum has fewer than `CALIBRATION_MIN` scores) the factor is the conformal quantile of
 * the scores at `VALUATION_CONFIDENCE_LEVEL` (the ⌈(n + 1)·level⌉-th smallest) over z:
 * the raw fsd times that factor gives a range holding the price that share of the time in
 * each stratum, where a single factor held it 79 % of the time in Douala and 90 % in Yaoundé.
 */
import { VALUATION_CONFIDENCE_LEVEL } from '../../../contract/valuations.js';

/** z of a two-sided 80 % normal interval. */
export const Z80 = 1.2815515655446004;
/** Fewest scores a stratum's own factor rests on; thinner strata borrow the wider one's. */
export const CALIBRATION_MIN = 30;
/** Most adverts valued for the calibration (a deterministic sample beyond). */
export const CALIBRATION_SAMPLE = 3000;

/** The factor a method gets when no stratum has enough scores (the former single calibration). */
const DEFAULT_FACTOR: Record<string, number> = { quarter_comparables: 0.95, city_comparables: 0.85 };

export interface Score {
  method: string;
  pool: string;
  cityKey: string;
  /** |log(price / estimate)| / raw fsd. */
  score: number;
}

export type Calibration = Map<string, number>;

const strata = (method: string, pool: string, cityKey: string) => [`${method}|${pool}|${cityKey}`, `${method}|${pool}`, method];

/** The conformal quantile: the ⌈(n + 1)·level⌉-th smallest score (the largest when that exceeds n). */
export function conformalQuantile(scores: number[], level = VALUATION_CONFIDENCE_LEVEL): number {
  const s = [...scores].sort((a, b) => a - b);
  const k = Math.min(Math.ceil((s.length + 1) * level), s.length);
  return s[k - 1];
}

export function calibrate(scores: Score[]): Calibration {
  const by = new Map<string, number[]>();
  for (const s of scores) {
    if (!Number.isFinite(s.score)) continue;
    for (const k of strata(s.method, s.pool, s.cityKey)) {
      const list = by.get(k);
      if (list) list.push(s.score);
      else by.set(k, [s.score]);
    }
  }
  const out: Calibration = new Map();
  for (const [k, list] of by) if (list.length >= CALIBRATION_MIN) out.set(k, conformalQuantile(list) / Z80);
  return out;
}

/** The factor of a subject's stratum: its own, else the wider stratum's, else the method's default. */
export function factorOf(calibration: Calibration | undefined, method: string, pool: string, cityKey: string): number {
  for (const k of strata(method, pool, cityKey)) {
    const f = calibration?.get(k);
    if (f !== undefined) return f;
  }
  return DEFAULT_FACTOR[method] ?? 1;
}
