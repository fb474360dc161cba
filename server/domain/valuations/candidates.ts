/**
 * Which adverts may be comparables, in one rule that the API's SQL and the evaluation's
 * rows in memory both follow (a test holds them equal): same city, purpose and type, listed
 * in the last `HORIZON_MONTHS` (active or removed since), never the subject itself; the
 * quarter's most recent `CANDIDATE_LIMIT` first, and when the quarter has fewer than
 * `NEIGHBORHOOD_MIN` the city's most recent instead.
 */
import { VALUATION_MIN_COMPARABLES } from '../../../contract/valuations.js';

/** Adverts older than this (by `listed_at`) are never comparables. */
export const HORIZON_MONTHS = 36;
/** Most candidates read per valuation (the most recent). */
export const CANDIDATE_LIMIT = 150;
/** Fewest comparables in the quarter for the quarter method; below it the city method. */
export const NEIGHBORHOOD_MIN = 10;
/** Fewest comparables any estimate rests on. */
export const MIN_COMPARABLES = VALUATION_MIN_COMPARABLES;

const YEAR_MS = 365.25 * 86_400_000;

export const ageYears = (listedAt: Date | number, asOf: Date | number) =>
  (Number(asOf instanceof Date ? asOf.getTime() : asOf) - Number(listedAt instanceof Date ? listedAt.getTime() : listedAt)) / YEAR_MS;

/** The oldest `listed_at` a comparable may have. */
export function horizonStart(asOf: Date): Date {
  const d = new Date(asOf.getTime());
  d.setUTCMonth(d.getUTCMonth() - HORIZON_MONTHS);
  return d;
}
