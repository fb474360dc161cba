/**
 * Realistic, deterministic listings for demos, tests and benchmarks. For a given
 * (source, seed, now) listing #n is always the same: each row draws from its own seeded
 * stream, so `count` only decides how many are produced.
 *
 * What makes the data useful to try the API on: Douala and Yaoundé dominate; prices follow
 * city, neighbourhood tier, type and purpose; listing dates span two years with activity
 * growing toward `now` (so 30-day trends compare two well-filled periods); older listings
 * are more often removed (sold, rented, withdrawn); some prices drop, with their history.
 */
import { CITIES } from '../../contract/places.js';
import { contactOf } from './contacts.js';
import type { ListingStatus } from './kinds.js';
import { roundPrice } from './price-model.js';
import { drawProperty } from './property.js';
import { Random, weightedTable } from './random.js';
import type { ListingRecord } from '../ingest/record.js';

/** A generated row: always dated (a feed may not be, the generator's always are). */
export type GeneratedRecord = ListingRecord & { title: string; listed_at: string; neighborhood: string };
import { titleOf } from './titles.js';

export interface GenerateOptions {
  count: number;
  /** Same seed, same listings. Default 1. */
  seed?: number;
  /** The generation instant: every date falls in the two years before it. Default: now. */
  now?: Date;
  /** The feed the listings belong to; it also prefixes `source_ref`. Default `mboa-seed`. */
  source?: string;
}

export const DEFAULT_SOURCE = 'mboa-seed';
export const HISTORY_DAYS = 730;

const DAY = 86_400_000;
const CITY_TABLE = weightedTable(CITIES.map((c) => [c, c.weight] as const));
/** Middle-class districts publish the most listings, prime ones the fewest. */
const TIER_WEIGHT = { 1: 1, 2: 1.3, 3: 1.2 } as const;
const NEIGHBOURHOOD_TABLES = new Map(CITIES.map((c) => [c, weightedTable(c.neighbourhoods.map((n) => [n, TIER_WEIGHT[n.tier]] as const))]));

/** Removed listings end sold or rented more often than withdrawn. */
function removedStatus(rng: Random, purpose: ListingRecord['purpose']): ListingStatus {
  if (purpose === 'sale') return rng.chance(0.55) ? 'sold' : 'withdrawn';
  return rng.chance(0.6) ? 'rented' : 'withdrawn';
}

const iso = (ms: number) => new Date(ms).toISOString();

export function generateOne(index: number, source: string, seed: number, nowMs: number): GeneratedRecord {
  const rng = Random.forRow(source, seed, index);
  const city = rng.draw(CITY_TABLE);
  const hood = rng.draw(NEIGHBOURHOOD_TABLES.get(city)!);
  const english = rng.chance(city.english);
  const property = drawProperty(rng, city, hood.tier);

  // Age skewed toward the recent past: P(age < d) = (d / 730)^0.8.
  const ageMs = Math.floor(HISTORY_DAYS * DAY * Math.pow(rng.next(), 1.25));
  const listedMs = nowMs - ageMs;
  const ageDays = ageMs / DAY;

  let status: ListingStatus = 'active';
  let removedMs: number | null = null;
  if (ageDays >= 3 && rng.chance(0.04 + (0.36 * ageDays) / HISTORY_DAYS)) {
    status = removedStatus(rng, property.purpose);
    removedMs = listedMs + Math.floor(rng.between(2 * DAY, ageMs));
  }
  const endMs = removedMs ?? nowMs;

  // Price drops: one in seven listings on the market for two weeks or more.
  let price = property.price;
  let history: { date: string; price: number }[] | undefined;
  let lastChangeMs = listedMs;
  if (endMs - listedMs >= 14 * DAY && rng.chance(0.14)) {
    history = [{ date: iso(listedMs), price }];
    let fromMs = listedMs + 7 * DAY;
    const drops = rng.chance(0.25) ? 2 : 1;
    for (let d = 0; d < drops && fromMs < endMs; d++) {
      const atMs = Math.floor(rng.between(fromMs, endMs));
      const lower = roundPrice(price * (1 - rng.between(0.03, 0.15)));
      price = lower < price ? lower : Math.max(1, price - roundPrice(price * 0.05));
      history.push({ date: iso(atMs), price });
      lastChangeMs = atMs;
      fromMs = atMs + DAY;
    }
  }

  return {
    source_ref: `${source}-${seed}-${String(index + 1).padStart(7, '0')}`,
    title: titleOf(rng, property, hood.name, english),
    price,
    currency: 'XAF',
    city: city.name,
    neighborhood: hood.name,
    surface: property.surface,
    bedrooms: property.bedrooms,
    bathrooms: property.bathrooms,
    type: property.type,
    purpose: property.purpose,
    status,
    listed_at: iso(listedMs),
    updated_at: iso(Math.max(lastChangeMs, removedMs ?? 0)),
    removed_at: removedMs === null ? null : iso(removedMs),
    ...contactOf(rng, hood.name, city.name, english),
    ...(history ? { price_history: history } : {}),
  };
}

export function* generateListings(opts: GenerateOptions): Generator<GeneratedRecord> {
  const source = opts.source ?? DEFAULT_SOURCE;
  const seed = opts.seed ?? 1;
  const nowMs = (opts.now ?? new Date()).getTime();
  for (let i = 0; i < opts.count; i++) yield generateOne(i, source, seed, nowMs);
}
