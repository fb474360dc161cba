/**
 * Realistic, deterministic listings for demos, tests and benchmarks, written the way
 * Cameroonian portals publish them. For a given (source, seed, now) listing #n is always
 * the same: each row draws from its own seeded stream, so `count` only decides how many are
 * produced.
 *
 * Each row is drawn in three steps: the property (city, quarter, type, purpose, rooms,
 * surface: property.ts), its life on the market over 36 months (lifecycle.ts), and what the
 * advert says of it in its feed's style (feed-style.ts: a portal's or an agency's
 * missing fields, spellings, terms, points). Its first price is the price model's for what
 * the advert says, times lognormal noise (price-model.ts, `PRICE_NOISE`), then cut as its
 * lifecycle says. A share of rows (`repeats`) repeat an earlier advert of the same style
 * under another reference, as crawls and agents do: portal rows more often than agency rows.
 *
 * Every quarter of the gazetteer holds listings: the catalog's quarters (contract/places.ts)
 * most of them, by tier, and the others together `OUTSIDE_CATALOG` of each city's rows, as
 * real adverts spread (8 % of the shared crawl's adverts name a quarter outside the catalog).
 */
import { CITIES } from '../../contract/places.js';
import { contactOf } from './contacts.js';
import { GAZETTEER } from '../domain/places/gazetteer.js';
import { FLOORS } from '../ingest/plausibility.js';
import { matchKey } from '../platform/text.js';
import { drawTerms, type FeedStyle, noSurfaceShare, pointNear, PORTAL_SHARE, STYLE_SHARES, writeNeighborhood } from './feed-style.js';
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
/** Share of a city's rows in the gazetteer's quarters outside the catalog (where the gazetteer has any). */
export const OUTSIDE_CATALOG = 0.12;

/** The city's quarters, weighted: the catalog's by tier, the others sharing `OUTSIDE_CATALOG` by tier. */
function neighborhoodTable(city: (typeof CITIES)[number]) {
  const catalog = city.neighborhoods.map((n) => [n, TIER_WEIGHT[n.tier]] as const);
  const inCatalog = new Set(city.neighborhoods.map((n) => n.name));
  const others = (GAZETTEER.get(matchKey(city.name))?.neighborhoods ?? []).filter((n) => !inCatalog.has(n.name));
  if (others.length === 0) return weightedTable(catalog);
  const catalogWeight = catalog.reduce((sum, [, w]) => sum + w, 0);
  const othersWeight = others.reduce((sum, n) => sum + TIER_WEIGHT[n.tier], 0);
  const scale = ((OUTSIDE_CATALOG / (1 - OUTSIDE_CATALOG)) * catalogWeight) / othersWeight;
  return weightedTable([...catalog, ...others.map((n) => [{ name: n.name, tier: n.tier }, TIER_WEIGHT[n.tier] * scale] as const)]);
}
const NEIGHBORHOOD_TABLES = new Map(CITIES.map((c) => [c, neighborhoodTable(c)]));

const iso = (ms: number) => new Date(ms).toISOString();

/** exp(sigma × z), z standard normal cut at ±3 (PRICE_NOISE). */
function noise(rng: Random, sigma: number): number {
  for (;;) {
    const z = Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
    if (Math.abs(z) <= PRICE_NOISE.truncatedAtSigmas) return Math.exp(sigma * z);
  }
}

const referenceOf = (source: string, seed: number, index: number) => `${source}-${seed}-${String(index + 1).padStart(7, '0')}`;

/** The style of feed row `index` is written in (feed-style.ts). */
export function styleOf(index: number, source: string, seed: number): FeedStyle {
  return Random.forRow(`${source}\u0000style`, seed, index).chance(PORTAL_SHARE) ? 'portal' : 'agency';
}

/** The advert of row `index`, written in `styleName`, as its own (not a repeat). */
function advertOf(index: number, styleName: FeedStyle, source: string, seed: number, nowMs: number): GeneratedRecord {
  const rng = Random.forRow(source, seed, index);
  const style = STYLE_SHARES[styleName];
  const city = rng.draw(CITY_TABLE);
  const hood = rng.draw(NEIGHBORHOOD_TABLES.get(city)!);
  const english = rng.chance(city.english);
  const property = drawProperty(rng, hood.tier);
  const life = drawLifecycle(rng, property.type, property.purpose, nowMs);
  const place = writeNeighborhood(rng, city, hood.name);
  const terms = drawTerms(rng, city, property.type, property.purpose);
  const home = property.bedrooms > 0 || property.type === 'studio';
  const surface = rng.chance(noSurfaceShare(styleName, property.type, property.purpose)) ? null : property.surface;
  const bedrooms = home && rng.chance(style.noBedrooms) ? null : property.bedrooms;
  const bathrooms = home && rng.chance(style.noBathrooms) ? null : property.bathrooms;
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
  // Neither noise nor a cut takes a price under the importer's floor: no one asks 3,000 XAF a month.
  const floor = FLOORS[terms.purpose];
  const first = Math.max(floor, roundPrice(modelled * noise(rng, PRICE_NOISE.sigma[property.purpose])));
  let price = first;
  let history: { date: string; price: number }[] | undefined;
  let lastChangeMs = life.listedMs;
  for (const cut of life.cuts) {
    const rounded = roundPrice(price * cut.factor);
    const lower = Math.max(floor, rounded < price ? rounded : price - roundPrice(price * 0.05));
    if (lower >= price) continue;
    history ??= [{ date: listedAt, price: first }];
    price = lower;
    history.push({ date: iso(cut.atMs), price });
    lastChangeMs = cut.atMs;
  }

  const contact = contactOf(rng, hood.name, city.name, english);
  const title = rng.chance(style.noTitle) ? null : titleOf(rng, property, place.neighborhood, english);
  const point = rng.chance(style.ownPoint) ? pointNear(rng, place.point) : null;
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
  for (const field of Object.keys(style.contacts) as (keyof typeof style.contacts)[])
    if (rng.chance(style.contacts[field])) row[field] = contact[field];
  for (const field of ['furnished', 'advance_months', 'deposit_months', 'land_title'] as const)
    if (terms[field] !== undefined) Object.assign(row, { [field]: terms[field] });
  return row;
}

/**
 * Row `index` of the feed: its own advert, or (a `repeats` share overall, weighted by its
 * style: `STYLE_SHARES`) an earlier row of the same style under its own reference.
 */
export function generateOne(index: number, source: string, seed: number, nowMs: number, repeats = REPEATS): GeneratedRecord {
  const rng = Random.forRow(`${source}\u0000repeat`, seed, index);
  const style = styleOf(index, source, seed);
  if (index > 0 && rng.chance(Math.min(0.9, repeats * STYLE_SHARES[style].repeats))) {
    // Earlier rows are drawn until one of the same style comes: a few draws, 40 at most.
    for (let tries = 0; tries < 40; tries++) {
      const earlier = index - rng.int(1, Math.min(index, REPEAT_WINDOW));
      if (styleOf(earlier, source, seed) === style)
        return { ...generateOne(earlier, source, seed, nowMs, repeats), source_ref: referenceOf(source, seed, index) };
    }
  }
  return advertOf(index, style, source, seed, nowMs);
}

export function* generateListings(opts: GenerateOptions): Generator<GeneratedRecord> {
  const source = opts.source ?? DEFAULT_SOURCE;
  const seed = opts.seed ?? 1;
  const nowMs = (opts.now ?? new Date()).getTime();
  const repeats = opts.repeats ?? REPEATS;
  for (let i = 0; i < opts.count; i++) yield generateOne(i, source, seed, nowMs, repeats);
}
