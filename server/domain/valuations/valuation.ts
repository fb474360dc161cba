/**
 * One valuation, as the API answers it: the subject resolved, its candidates read (its
 * quarter's, else its city's), the model applied, amounts converted to the asked currency.
 * Too little data is a 422 `insufficient_data` that says what is missing.
 */
import { type Currency, fromXaf } from '../../../contract/currency.js';
import {
  type TValuation,
  type TValuationQueryParsed,
  VALUATION_CONFIDENCE_LEVEL,
  VALUATION_MAX_COMPARABLES,
} from '../../../contract/valuations.js';
import { ApiError } from '../../platform/errors.js';
import type { Dataset } from '../listing/dataset.js';
import type { EffectiveFilters } from '../listing/filters.js';
import { toListing } from '../listing/public-row.js';
import { HORIZON_MONTHS, MIN_COMPARABLES, NEIGHBORHOOD_MIN } from './candidates.js';
import { type Candidate, confidenceOf, type Method, type Model, valueSubject, Z80 } from './model.js';
import { asCandidate, type CandidateRow, candidateRows } from './sql.js';
import { type ResolvedSubject, resolveSubject } from './subject.js';

/**
 * A type with too few adverts is valued through the nearest type the data holds: a studio
 * from flats (of no bedroom), a room from studios, a duplex from houses or flats, and so on.
 */
const NEAREST_TYPES: Partial<Record<ResolvedSubject['type'], Array<ResolvedSubject['type']>>> = {
  studio: ['apartment'],
  room: ['studio'],
  duplex: ['house', 'apartment'],
  villa: ['house'],
  house: ['villa', 'duplex'],
};
/** The range of an estimate made through another type is this many times as wide (in log terms). */
const OTHER_TYPE_WIDENING = 1.5;

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

function insufficient(s: ResolvedSubject, found: number, where: string): never {
  const what = `${s.type} adverts for ${s.purpose.replace('_', ' ')}`;
  const nearest = NEAREST_TYPES[s.type];
  const through = nearest
    ? ` Nor are there enough ${nearest.join(' or ')} adverts there (the nearest type${nearest.length > 1 ? 's' : ''} a ${s.type} may be valued through).`
    : '';
  throw new ApiError(
    'insufficient_data',
    `Too few comparables for an honest estimate: ${found} ${what} in ${where} over the last ${HORIZON_MONTHS} months, and at least ${MIN_COMPARABLES} are needed.${through} Mboa gives no number it cannot stand behind.`,
    {
      errors: [
        {
          path: s.neighborhoodKey === null ? 'city' : 'neighborhood',
          message: `${found} comparable ${what} in ${where}; at least ${MIN_COMPARABLES} needed`,
        },
      ],
    },
  );
}

function describe(s: ResolvedSubject, method: Method, asType: string | null): string {
  const known = [
    s.surface === null ? 'surface unknown: rooms and quarter carry the estimate' : null,
    s.bedrooms === null ? 'bedrooms unknown' : null,
  ];
  const where =
    s.neighborhoodFrom === 'unknown'
      ? `${s.neighborhood} is not a quarter Mboa knows in ${s.city}: comparables across ${s.city}, at the city's price level (the median of its quarters)`
      : method === 'quarter_comparables'
        ? `Comparables of the same type and purpose in ${s.neighborhood}, ${s.city}`
        : s.neighborhoodKey === null
          ? `No quarter given: comparables across ${s.city}, at the city's price level`
          : `Too few comparables in ${s.neighborhood}: comparables across ${s.city}, each adjusted to ${s.neighborhood}'s price level`;
  const from = s.neighborhoodFrom === 'point' ? ` (${s.neighborhood} is the nearest known quarter to the point given)` : '';
  const other =
    asType === null
      ? null
      : `No ${s.type} adverts enough for ${s.purpose.replace('_', ' ')} in ${s.city}: valued from ${asType} adverts, the nearest type the data holds, with a range ${OTHER_TYPE_WIDENING} times as wide.`;
  return [
    `${where}${from}, adjusted for surface, bedrooms, bathrooms and age of the advert.`,
    ...[other, ...known].filter((k) => k !== null),
  ].join(' ');
}

/** Where a valuation reads its candidates: the SQL, or a batch's memo of it (the same rows for the same cell). */
export type CandidateSource = (data: Dataset, where: Parameters<typeof candidateRows>[1], asOf: Date) => Promise<CandidateRow[]>;

/** `model`: the dataset's fitted model (see model-store.ts); never fitted here. */
export async function valuation(
  data: Dataset,
  q: TValuationQueryParsed,
  filters: EffectiveFilters,
  model: Model,
  now = new Date(),
  rowsOf: CandidateSource = candidateRows,
): Promise<TValuation> {
  const s = await resolveSubject(data, q, filters);
  let found: { type: ResolvedSubject['type']; method: Method; rows: CandidateRow[] } | null = null;
  let cityCount = 0;
  for (const type of [s.type, ...(NEAREST_TYPES[s.type] ?? [])]) {
    const where = { cityKey: s.cityKey, purpose: s.purpose, type, excludeId: s.listingId };
    const neighborhoodRows = s.neighborhoodKey === null ? [] : await rowsOf(data, { ...where, neighborhoodKey: s.neighborhoodKey }, now);
    let method: Method = 'quarter_comparables';
    let rows = neighborhoodRows;
    if (rows.length < NEIGHBORHOOD_MIN) {
      method = 'city_comparables';
      rows = await rowsOf(data, { ...where, neighborhoodKey: null }, now);
    }
    if (type === s.type) cityCount = rows.length;
    if (rows.length >= MIN_COMPARABLES && model.groups.has(`${s.purpose}|${type}`)) {
      found = { type, method, rows };
      break;
    }
  }
  if (!found) insufficient(s, cityCount, s.city);
  const { method, rows } = found;
  const asType = found.type === s.type ? null : found.type;
  const byId = new Map(rows.map((r) => [r.id, r]));
  const candidates: Candidate[] = rows.map((r) => asCandidate(r, now));
  const v = valueSubject(
    {
      cityKey: s.cityKey,
      neighborhoodKey: s.neighborhoodKey,
      point: s.point,
      type: found.type,
      purpose: s.purpose,
      surface: s.surface,
      // A studio valued from flats is a flat of no bedroom; a room, a studio of none.
      bedrooms: s.bedrooms ?? (asType !== null && (s.type === 'studio' || s.type === 'room') ? 0 : null),
      furnished: s.furnished,
      landTitle: s.landTitle,
      bathrooms: s.bathrooms,
      ageYears: 0,
    },
    candidates,
    method,
    model,
    VALUATION_MAX_COMPARABLES,
  );
  // Valued through another type: the range is wider by this factor (and `valued_as_type` says so).
  const widen = asType === null ? 1 : OTHER_TYPE_WIDENING;
  const fsd = v.fsd * widen;
  const low = asType === null ? v.low : v.price * Math.exp(-Z80 * fsd);
  const high = asType === null ? v.high : v.price * Math.exp(Z80 * fsd);
  const money = (xaf: number) => fromXaf(Math.round(xaf), q.currency as Currency);
  return {
    estimate: {
      price: money(v.price),
      low: money(low),
      high: money(high),
      confidence_level: VALUATION_CONFIDENCE_LEVEL,
      fsd: round(fsd, 4),
      confidence: confidenceOf(fsd),
    },
    comparables: v.comparables.map((c) => ({
      ...toListing(byId.get(c.candidate.id)!, q.currency),
      distance_m: Math.round(c.distanceM),
      similarity: round(c.similarity, 4),
      adjusted_price: money(c.adjustedPrice),
      adjustments: {
        surface: round(c.adjustments.surface, 4),
        bedrooms: round(c.adjustments.bedrooms, 4),
        bathrooms: round(c.adjustments.bathrooms, 4),
        furnished: round(c.adjustments.furnished, 4),
        land_title: round(c.adjustments.land_title, 4),
        age: round(c.adjustments.age, 4),
        quarter: round(c.adjustments.neighborhood, 4), // the wire name of the neighborhood factor
      },
      weight: round(c.weight, 4),
    })),
    method,
    method_detail: describe(s, method, asType),
    valued_as_type: asType,
    coefficients: {
      surface: v.coefficients.surface === null ? null : round(v.coefficients.surface, 4),
      bedrooms: v.coefficients.bedrooms === null ? null : round(v.coefficients.bedrooms, 4),
      bathrooms: v.coefficients.bathrooms === null ? null : round(v.coefficients.bathrooms, 4),
      furnished: round(v.coefficients.furnished, 4),
      land_title: round(v.coefficients.land_title, 4),
      age: round(v.coefficients.age, 4),
    },
    basis: 'asking_prices',
    sample_size: v.sampleSize,
    subject: {
      city: s.city,
      neighborhood: s.neighborhood,
      type: s.type,
      purpose: s.purpose,
      surface: s.surface,
      bedrooms: s.bedrooms,
      bathrooms: s.bathrooms,
      furnished: s.furnished,
      land_title: s.landTitle,
    },
    currency: q.currency,
    as_of: now.toISOString(),
  };
}
