/**
 * What each route's reads cost: the one table of the API's isolation (README, "Heavy reads").
 *
 * Every read runs under a statement timeout fitted to its kind, on a pool of its kind:
 * - cheap reads (a search page, a listing, market figures, a valuation): the API's pool,
 *   `STATEMENT_TIMEOUT_MS.cheap`; one timing out is Mboa's failure (503, in availability);
 * - heavy reads, those a route's rule below prices (an area history not computed yet, a
 *   search over a wide area or over removed listings too, a valuation batch of more than
 *   100 subjects): the heavy pool, a few
 *   connections of their own, so they can never take the connections cheap reads use;
 *   admitted per account by cost (quota/heavy-reads.ts: a concurrency cap and a
 *   cost-weighted rate, `HEAVY_CAPS`); one timing out is the read's own cost (503, not
 *   in availability);
 * - exports: their own pool and slots (endpoints/export.ts), no statement timeout shorter
 *   than an export may last.
 * A route without a rule is always cheap.
 */
import { type GeoBox, type GeoPoint, RADIUS_DEFAULT_M } from '../../contract/geo.js';
import type { THistoryQueryParsed } from '../../contract/history.js';
import type { EndpointName, PlanName } from '../../contract/plans.js';
import type { HeavyCaps, HeavyCost } from '../quota/heavy-reads.js';
import { areaHistoryKey, areaOf } from '../domain/market/area-grid.js';
import type { Reader } from './reader.js';
import { VALUATION_BATCH_SUBJECTS_PER_UNIT } from '../../contract/valuations-batch.js';

export type ReadKind = 'cheap' | 'heavy' | 'export';

/** Statement timeout of each kind of read (ms). */
export const STATEMENT_TIMEOUT_MS: Record<ReadKind, number> = { cheap: 5_000, heavy: 60_000, export: 60 * 60_000 };

/** Heavy reads per account and instance, by plan. */
export const HEAVY_CAPS: Record<PlanName, HeavyCaps> = {
  starter: { concurrent: 1, unitsPerMinute: 20 },
  pro: { concurrent: 2, unitsPerMinute: 60 },
  enterprise: { concurrent: 2, unitsPerMinute: 240 },
};

/** Above this many km² (removed listings counting thrice), a geographic search is heavy. */
export const WIDE_AREA_KM2 = 100;
/** One unit per started WIDE_AREA_KM2, at most this many. */
const MAX_UNITS = 10;
const KM_PER_DEGREE = 111.32;

interface GeoQuery {
  near?: GeoPoint;
  radius_m?: number;
  bbox?: GeoBox;
  status?: string;
}

/** The area a geographic query covers, km² (the smaller of its circle and box); null without one. */
export function geographyKm2(q: GeoQuery): number | null {
  const areas: number[] = [];
  if (q.near !== undefined) areas.push(Math.PI * ((q.radius_m ?? RADIUS_DEFAULT_M) / 1000) ** 2);
  if (q.bbox !== undefined) {
    const b = q.bbox;
    const midLat = ((b.minLat + b.maxLat) / 2) * (Math.PI / 180);
    areas.push((b.maxLat - b.minLat) * KM_PER_DEGREE * (b.maxLng - b.minLng) * KM_PER_DEGREE * Math.cos(midLat));
  }
  return areas.length ? Math.min(...areas) : null;
}

/** A search over more than WIDE_AREA_KM2 (thrice its area when it reads removed listings too). */
function wideGeography(q: GeoQuery): HeavyCost | null {
  const km2 = geographyKm2(q);
  if (km2 === null) return null;
  const removedToo = q.status !== undefined && q.status !== 'active';
  const weighted = km2 * (removedToo ? 3 : 1);
  if (weighted <= WIDE_AREA_KM2) return null;
  const units = Math.min(MAX_UNITS, Math.ceil(weighted / WIDE_AREA_KM2));
  const shown = Math.round(km2).toLocaleString('en-US');
  return { units, what: `a geographic read over ${shown} km²${removedToo ? ` with status=${q.status}` : ''}` };
}

/** An area history not computed yet: one unit per started kilometre of radius. */
function areaHistory(q: THistoryQueryParsed, reader: Reader): HeavyCost | null {
  const area = areaOf(q);
  if (!area || reader.has(areaHistoryKey(q, area))) return null;
  return { units: Math.ceil(area.radius_m / 1000), what: `an area history of ${area.radius_m.toLocaleString('en-US')} m not computed yet` };
}

/** A valuation batch: one unit per started block of subjects, heavy above one block (its body is its size). */
function valuationBatch(_query: unknown, _reader: Reader, body: { subjects: unknown[] }): HeavyCost | null {
  const n = body.subjects.length;
  if (n <= VALUATION_BATCH_SUBJECTS_PER_UNIT) return null;
  return {
    units: Math.min(MAX_UNITS, Math.ceil(n / VALUATION_BATCH_SUBJECTS_PER_UNIT)),
    what: `a batch of ${n.toLocaleString('en-US')} valuations`,
  };
}

type CostRule = (query: never, reader: Reader, body: never) => HeavyCost | null;

const RULES: Partial<Record<EndpointName, CostRule>> = {
  'listings.search': wideGeography as CostRule,
  'market.history': areaHistory as CostRule,
  'valuations.batch': valuationBatch as CostRule,
};

/** Exports stream on their own pool and slots. */
const EXPORTS: ReadonlySet<EndpointName> = new Set(['exports.listings']);

/** What a call of `endpoint` with this (valid) query costs: its kind, and its cost when heavy. */
export function costOf(
  endpoint: EndpointName,
  query: unknown,
  reader: Reader,
  body?: unknown,
): { kind: ReadKind; heavy: HeavyCost | null } {
  if (EXPORTS.has(endpoint)) return { kind: 'export', heavy: null };
  const heavy = RULES[endpoint]?.(query as never, reader, body as never) ?? null;
  return { kind: heavy ? 'heavy' : 'cheap', heavy };
}
