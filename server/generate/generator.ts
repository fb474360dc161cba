/**
 * Realistic, deterministic listings for demos, tests and benchmarks, written the way
 * Cameroonian portals publish them. For a given (source, seed, now) listing #n is always
 * the same: each row draws from its own seeded stream, so `count` only decides how many are
 * produced.
 *
 * Each row is drawn in three steps: the property (city, quarter, type, purpose, rooms,
 * surface: property.ts), its life on the market over 36 months (lifecycle.ts), and what the
 * advert says of it (feed-style.ts: spellings, missing fields, terms, points). Its first
 * price is the price model's for what the advert says, times lognormal noise
 * (price-model.ts, `PRICE_NOISE`), then cut as its lifecycle says. A share of rows
 * (`repeats`) repeat an earlier advert under another reference, as crawls and agents do.
 */
import { CITIES } from '../../contract/places.js';
import { contactOf } from './contacts.js';
import { CONTACT_SHARES, drawTerms, noSurfaceShare, NO_TITLE, OWN_POINT, pointNear, writeNeighborhood } from './feed-style.js';
import { drawLifecycle } from './lifecycle.js';
import { noiseFreePrice, PRICE_NOISE, roundPrice } from './price-model.js';
import { drawProperty } from './property.js';
import { Random, weightedTable } from './random.js';
import type { ListingRecord } from '../ingest/record.js';
import { titleOf } from './titles.js';

/** A generated row: always dated (a feed may not be, the generator's always are). */
export type GeneratedRecord = ListingRecord & { listed_at: string };

export interface GenerateOptions {
  count: number;
  /** Same seed, same listings. Default 1. */
  seed?: number;
  /** The generation instant: every date falls in the 36 months before it. Default: now. */
  now?: Date;
  /** The feed the listings belong to; it also prefixes `source_ref`. Default `mboa-seed`. */
  source?: string;
  /** Share of rows repeating an earlier advert under another reference. Default `REPEATS`. */
  repeats?: number;
}

export const DEFAULT_SOURCE = 'mboa-seed';
/** Share of generated rows that repeat an earlier one (README, "Demo data"). */
export const REPEATS = 0.12;
/** A repeat copies one of the rows this far back at most. */
const REPEAT_WINDOW = 500;

const CITY_TABLE = weightedTable(CITIES.map((c) => [c, c.weight] as const));
/** Middle-class districts publish the most listings, prime ones the fewest. */
const TIER_WEIGHT = { 1: 1, 2: 1.3, 3: 1.2 } as const;
const NEIGHBORHOOD_TABLES = new Map(CITIES.map((c) => [c, weightedTable(c.neighborhoods.map((n) => [n, TIER_WEIGHT[n.tier]] as const))]));

const iso = (ms: number) => new Date(ms).toISOString();

/** exp(sigma × z), z standard normal cut at ±3 (PRICE_NOISE). */
function noise(rng: Random, sigma: number): number {
  for (;;) {
    const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    if (Math.abs(z) <= PRICE_NOISE.truncatedAtSigmas) return Math.exp(sigma * z);
  }
}

const referenceOf = (source: string, seed: number, index: number) => `${source}-${seed}-${String(index + 1).padStart(7, '0')}`;

/** The advert of row `index`, as its own (not a repeat). */
function advertOf(index: number, source: string, seed: number, nowMs: number): GeneratedRecord {
  const rng = Random.forRow(source, seed, index);
  const city = rng.draw(CITY_TABLE);
  const hood = rng.draw(NEIGHBORHOOD_TABLES.get(city)!);
  const english = rng.chance(city.english);
  const property = drawProperty(rng, hood.tier);
  const life = drawLifecycle(rng, property.type, property.purpose, nowMs);
  const place = writeNeighborhood(rng, city, hood.name);
  const terms = drawTerms(rng, city, property.type, property.purpose);
  const home = property.bedrooms > 0 || property.type === 'studio';
  const surface = rng.chance(noSurfaceShare(property.type, property.purpose)) ? null : property.surface;
  const bedrooms = home && rng.chance(0.05) ? null : property.bedrooms;
  const bathrooms = home && rng.chance(0.35) ? null : property.bathrooms;
  const listedAt = iso(life.listedMs);

  const modelled = noiseFreePrice({
    city: city.name,
    neighborhood: hood.name,
    type: property.type,
    purpose: terms.purpose,
    bedrooms,
    bathrooms,
    surface,
    listed_at: listedAt,
    furnished: terms.furnished,
    land_title: terms.land_title,
  });
  const first = roundPrice(modelled * noise(rng, PRICE_NOISE.sigma[property.purpose]));
  let price = first;
  let history: { date: string; price: number }[] | undefined;
  let lastChangeMs = life.listedMs;
  for (const cut of life.cuts) {
    history ??= [{ date: listedAt, price: first }];
    const lower = roundPrice(price * cut.factor);
    price = lower < price ? lower : Math.max(1, price - roundPrice(price * 0.05));
    history.push({ date: iso(cut.atMs), price });
    lastChangeMs = cut.atMs;
  }

  const contact = contactOf(rng, hood.name, city.name, english);
  const title = rng.chance(NO_TITLE) ? null : titleOf(rng, property, place.neighborhood, english);
  const point = rng.chance(OWN_POINT) ? pointNear(rng, place.point) : null;
  const row: GeneratedRecord = {
    source_ref: referenceOf(source, seed, index),
    title,
    price,
    currency: 'XAF',
    city: city.name,
    neighborhood: place.neighborhood,
    surface,
    bedrooms,
    bathrooms,
    type: property.type,
    purpose: terms.purpose,
    status: life.status,
    listed_at: listedAt,
    updated_at: iso(Math.max(lastChangeMs, life.removedMs ?? 0)),
    removed_at: life.removedMs === null ? null : iso(life.removedMs),
    ...(point ?? {}),
    ...(history ? { price_history: history } : {}),
  };
  for (const field of Object.keys(CONTACT_SHARES) as (keyof typeof CONTACT_SHARES)[])
    if (rng.chance(CONTACT_SHARES[field])) row[field] = contact[field];
  for (const field of ['furnished', 'advance_months', 'deposit_months', 'land_title'] as const)
    if (terms[field] !== undefined) Object.assign(row, { [field]: terms[field] });
  return row;
}

/** Row `index` of the feed: its own advert, or (a `repeats` share) an earlier row's under its own reference. */
export function generateOne(index: number, source: string, seed: number, nowMs: number, repeats = REPEATS): GeneratedRecord {
  const rng = Random.forRow(`${source}\u0000repeat`, seed, index);
  if (index > 0 && rng.chance(repeats)) {
    const earlier = index - rng.int(1, Math.min(index, REPEAT_WINDOW));
    return { ...generateOne(earlier, source, seed, nowMs, repeats), source_ref: referenceOf(source, seed, index) };
  }
  return advertOf(index, source, seed, nowMs);
}

export function* generateListings(opts: GenerateOptions): Generator<GeneratedRecord> {
  const source = opts.source ?? DEFAULT_SOURCE;
  const seed = opts.seed ?? 1;
  const nowMs = (opts.now ?? new Date()).getTime();
  const repeats = opts.repeats ?? REPEATS;
  for (let i = 0; i < opts.count; i++) yield generateOne(i, source, seed, nowMs, repeats);
}
