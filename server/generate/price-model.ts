/**
 * The demo-data generator's price model, in one pure function: what a listing asks given
 * what it publicly says, before the generator's random noise. A generated listing's first
 * asking price is exactly `roundPrice(noiseFreePrice(listing) * noise)`, the noise drawn
 * as `PRICE_NOISE` describes; later price cuts (its `price_history`) come on top.
 *
 *   price = level(quarter) × trend(city, month) × season(purpose, month)
 *           × [rent]  rooms(type, bedrooms) × (surface / typical)^0.3 × furnished
 *             [commercial rent]  rate(type) × surface
 *             [sale]  sale_m2(level) × type × surface × land title
 *             [land]  land_m2(level) × surface × land title
 *
 * - level: the quarter's median unfurnished 2-bedroom apartment rent in November 2026
 *   (neighborhood-levels.ts). A sub-quarter or another spelling is read as its quarter (the
 *   gazetteer's resolver); a quarter the catalog does not list, or none, takes its city's
 *   median level.
 * - A row without a surface is priced at its type's typical surface for its rooms: the
 *   generator prices the adverts whose surface it leaves out that way (they quote rooms).
 * - trend: each city's yearly rise, compounded by calendar month from November 2026
 *   (earlier months are cheaper). season: rents peak with the school year (August,
 *   September) and dip at year end; sales have no season.
 */
import { CITIES, type Tier } from '../../contract/places.js';
import { GAZETTEER, resolveNeighborhood } from '../domain/places/gazetteer.js';
import { matchKey } from '../platform/text.js';
import type { PropertyType, Purpose } from './kinds.js';
import { CITY_MEDIAN_LEVEL, LEVELS_AS_OF, NEIGHBORHOOD_LEVELS } from './neighborhood-levels.js';

export type LandTitle = 'titled' | 'untitled' | 'in_progress' | 'unknown';

/** What a stored listing publicly says, as the model reads it. */
export interface PriceInput {
  city: string;
  /** Catalog quarter, sub-quarter or any spelling the gazetteer resolves; null: the city's median level. */
  neighborhood?: string | null;
  type: PropertyType;
  purpose: Purpose;
  bedrooms?: number | null;
  bathrooms?: number | null;
  /** m²; null: the typical surface of the type for its bedrooms. */
  surface?: number | null;
  /** When the price was asked: the month sets trend and season. */
  listed_at: string | Date;
  /** A rent said to be furnished is priced as `furnished_rent`. */
  furnished?: boolean | null;
  /** Sales: a titled plot asks more, an untitled one less; absent = `unknown` (factor 1). */
  land_title?: LandTitle | null;
}

/**
 * The generator's noise: the first asking price is the noise-free price times
 * exp(sigma × z), z standard normal cut at ±3 (median 1: half the adverts ask more than
 * the formula, half less), then rounded as sellers write prices (`roundPrice`). A model
 * knowing the formula exactly misses by a median of about 0.674 × sigma (32 % on rents,
 * 17 % on sales) on first prices. Then a share of listings cut their price (generator.ts).
 *
 * The rents' sigma is the shared crawl's: real rents of one quarter, bedroom count and
 * bathroom count spread with a log σ of 0.41 (what the advert does not say: standing,
 * floor, finish, the agent); the generated ones, with the formula's other factors, spread
 * as the crawl's do within quarter × bedrooms (test/ingest/generator-shapes.test.ts). No
 * real sales were at hand: their sigma is unchanged.
 */
export const PRICE_NOISE = {
  distribution: 'lognormal',
  median: 1,
  sigma: { rent: 0.48, furnished_rent: 0.35, sale: 0.25 } as Record<Purpose, number>,
  truncatedAtSigmas: 3,
  rounding: 'roundPrice',
} as const;

/** Yearly rise of asking prices per city, rents and sales (Kribi's deep-sea port draws buyers). */
const TRENDS: Record<string, { rent: number; sale: number }> = {
  Douala: { rent: 0.04, sale: 0.03 },
  Yaoundé: { rent: 0.05, sale: 0.04 },
  Kribi: { rent: 0.03, sale: 0.06 },
  Bamenda: { rent: 0.01, sale: 0 },
  Buea: { rent: 0.02, sale: 0.02 },
  Limbe: { rent: 0.02, sale: 0.02 },
};
const DEFAULT_TREND = { rent: 0.025, sale: 0.02 };

/** Rents by calendar month (January first): the school year starts in September. Mean 1. */
export const RENT_SEASON = [0.98, 0.98, 0.99, 0.99, 1.0, 1.01, 1.02, 1.04, 1.04, 1.01, 0.98, 0.96] as const;

/** Typical surface, m², of a type with `bedrooms` (bedrooms unknown: the type's usual count). */
export function typicalSurface(type: PropertyType, bedrooms: number | null | undefined): number {
  switch (type) {
    case 'studio':
      return 28;
    case 'room':
      return 14;
    case 'apartment':
      return 30 + 25 * (bedrooms ?? 2);
    case 'house':
      return 70 + 30 * (bedrooms ?? 3);
    case 'duplex':
      return 150 + 35 * (bedrooms ?? 4);
    case 'villa':
      return 200 + 60 * (bedrooms ?? 4);
    case 'land':
      return 500;
    case 'office':
      return 120;
    case 'shop':
      return 40;
    case 'warehouse':
      return 800;
  }
}

/**
 * Unfurnished apartment rents against a 2-bedroom flat of the same quarter, for 1 to 4
 * bedrooms, per tier: measured on the shared crawl of real adverts (docs/data.md,
 * "Shapes from real adverts": the median over quarters of the ratio of median rents).
 * Prime quarters ask little for a 1-bedroom flat against a 2-bedroom one (0.42), middle
 * class ones more (0.54); the crawl holds too few popular-quarter adverts for a curve of
 * their own, so tier 3 takes tier 2's. Above 4 bedrooms, +0.35 per bedroom.
 */
const MIDDLE_CLASS_CURVE = [0.54, 1, 1.43, 1.75] as const;
const APARTMENT_CURVE: Record<Tier, readonly number[]> = { 1: [0.42, 1, 1.45, 1.8], 2: MIDDLE_CLASS_CURVE, 3: MIDDLE_CLASS_CURVE };
/** A studio against a 1-bedroom flat of the same quarter; a room against a studio. */
const STUDIO = 0.8;
const ROOM = 0.45;

/** Unfurnished monthly rent against a 2-bedroom apartment of the same quarter. */
function roomsFactor(type: PropertyType, bedrooms: number | null | undefined, tier: Tier): number {
  const curve = APARTMENT_CURVE[tier];
  switch (type) {
    case 'studio':
      return STUDIO * curve[0];
    case 'room':
      return ROOM * STUDIO * curve[0];
    case 'apartment': {
      const b = bedrooms ?? 2;
      return curve[Math.min(Math.max(b, 1), 4) - 1] + 0.35 * Math.max(b - 4, 0);
    }
    case 'house':
      return 0.8 + 0.3 * Math.max(bedrooms ?? 3, 1);
    case 'duplex':
      return 1.2 + 0.4 * Math.max(bedrooms ?? 4, 1);
    case 'villa':
      return 1.2 + 0.6 * Math.max(bedrooms ?? 4, 1);
    default:
      return 1;
  }
}
/**
 * A bathroom more or fewer than a flat of its bedrooms usually has ((1 + bedrooms) / 2)
 * moves its rent by this factor: measured within quarter × bedrooms cells of the shared
 * crawl (log-rent slope 0.23 per bathroom). Homes to let only; a row without bathrooms is
 * priced as the typical one.
 */
const RENT_PER_BATHROOM = 1.25;
const BATH_PRICED = new Set<PropertyType>(['apartment', 'house', 'duplex', 'villa']);

/** How much a surface above or below the typical one moves a home's rent: (s / typical)^0.3. */
const RENT_SURFACE_ELASTICITY = 0.3;
/** Monthly rent per m² of offices, shops, warehouses (and plots let bare) against level / 80 m². */
const COMMERCIAL_RATE: Partial<Record<PropertyType, number>> = { office: 1.3, shop: 1.6, warehouse: 0.35, land: 0.02 };
/**
 * A furnished rent against the unfurnished one, per tier. The shared crawl's furnished
 * adverts asked by the month 2.4 to 3.5 times the unfurnished median in the prime quarters
 * (Akwa, Bonapriso, Bastos) and 1.8 in Bonamoussadi; popular quarters had none (1.6 here,
 * below the middle class, as their furnished flats are plainer).
 */
export const FURNISHED: Record<Tier, number> = { 1: 2.6, 2: 1.8, 3: 1.6 };

/** Sale price per m² of a built home: the 2-bed rent level a year, at an 8.5 % gross yield, over 80 m². */
const saleM2 = (level: number) => (level * 12) / 0.085 / 80;
const SALE_TYPE: Record<PropertyType, number> = {
  villa: 1.1,
  duplex: 1.0,
  house: 0.85,
  apartment: 1.0,
  studio: 1.05,
  room: 0.9,
  land: 1,
  office: 1.0,
  shop: 1.2,
  warehouse: 0.3,
};
/** Land per m²: 300,000 where the rent level is 600,000 (Bonapriso), falling faster than rents. */
const landM2 = (level: number) => 300_000 * Math.pow(level / 600_000, 1.4);
const LAND_TITLE: Record<LandTitle, number> = { titled: 1.3, in_progress: 1.1, unknown: 1, untitled: 0.75 };
/** A built property's title matters less than a plot's: most are bought with the land. */
const BUILT_TITLE: Record<LandTitle, number> = { titled: 1.1, in_progress: 1.0, unknown: 1, untitled: 0.85 };

/** Sale price levels against rent levels per city (contract/places.ts: saleLevel / rentLevel). */
const SALE_TO_RENT = new Map(CITIES.map((c) => [c.name, c.saleLevel / c.rentLevel]));
const CITY_BY_KEY = new Map(CITIES.map((c) => [matchKey(c.name), c.name]));

interface PlaceLevel {
  city: string;
  level: number;
  tier: Tier;
}
const levelCache = new Map<string, PlaceLevel>();

/** The catalog city, the level and the tier of a (city, quarter) as a listing writes them (tier 2 when unknown). */
function placeLevel(cityName: string, neighborhood: string | null | undefined): PlaceLevel {
  const cacheKey = `${cityName}\u0000${neighborhood ?? ''}`;
  const cached = levelCache.get(cacheKey);
  if (cached) return cached;
  const cityKey = matchKey(cityName);
  const city = CITY_BY_KEY.get(cityKey);
  if (city === undefined) throw new Error(`price model: ${cityName} is not a catalog city`);
  const gazetteerCity = GAZETTEER.get(cityKey);
  const resolved = neighborhood && gazetteerCity ? resolveNeighborhood(gazetteerCity, neighborhood) : null;
  const level = (resolved && NEIGHBORHOOD_LEVELS.get(city)!.get(resolved.neighborhood)) ?? CITY_MEDIAN_LEVEL.get(city)!;
  const tier = (resolved && gazetteerCity?.neighborhoods.find((n) => n.name === resolved.neighborhood)?.tier) ?? 2;
  const found = { city, level, tier };
  if (levelCache.size < 50_000) levelCache.set(cacheKey, found);
  return found;
}

/** Whole months from November 2026 to the UTC month of `at` (negative before). */
function monthsFromLevels(at: string | Date): { months: number; month: number } {
  const d = typeof at === 'string' ? new Date(at) : at;
  const month = d.getUTCMonth();
  return { months: (d.getUTCFullYear() - LEVELS_AS_OF.year) * 12 + month - LEVELS_AS_OF.month, month };
}

/** The city's trend factor for `purpose` at `at`: 1 in November 2026. */
export function trendFactor(city: string, purpose: Purpose, at: string | Date): number {
  const growth = TRENDS[city] ?? DEFAULT_TREND;
  const { months } = monthsFromLevels(at);
  return Math.pow(1 + (purpose === 'sale' ? growth.sale : growth.rent), months / 12);
}

/** The season factor for `purpose` in the UTC month of `at`. */
export function seasonFactor(purpose: Purpose, at: string | Date): number {
  return purpose === 'sale' ? 1 : RENT_SEASON[monthsFromLevels(at).month];
}

/** The price the generator's formula gives for a listing, before its noise (see the file's header). */
export function noiseFreePrice(input: PriceInput): number {
  const { city, level, tier } = placeLevel(input.city, input.neighborhood);
  const surface = input.surface ?? typicalSurface(input.type, input.bedrooms);
  const time = trendFactor(city, input.purpose, input.listed_at) * seasonFactor(input.purpose, input.listed_at);
  const title = input.land_title ?? 'unknown';
  if (input.purpose === 'sale') {
    if (input.type === 'land') return landM2(level) * SALE_TO_RENT.get(city)! * surface * LAND_TITLE[title] * time;
    return saleM2(level) * SALE_TO_RENT.get(city)! * SALE_TYPE[input.type] * surface * BUILT_TITLE[title] * time;
  }
  const furnished = input.purpose === 'furnished_rent' || input.furnished === true ? FURNISHED[tier] : 1;
  const rate = COMMERCIAL_RATE[input.type];
  if (rate !== undefined) return ((level * rate) / 80) * surface * furnished * time;
  const size = Math.pow(surface / typicalSurface(input.type, input.bedrooms), RENT_SURFACE_ELASTICITY);
  const bath =
    BATH_PRICED.has(input.type) && input.bathrooms != null && input.bedrooms != null
      ? Math.pow(RENT_PER_BATHROOM, input.bathrooms - (1 + input.bedrooms) / 2)
      : 1;
  return level * roomsFactor(input.type, input.bedrooms, tier) * size * bath * furnished * time;
}

/** Prices as sellers write them: 185 000 000, 27 500, never 185 234 117. */
export function roundPrice(price: number): number {
  const step =
    price >= 100_000_000
      ? 5_000_000
      : price >= 10_000_000
        ? 500_000
        : price >= 1_000_000
          ? 100_000
          : price >= 100_000
            ? 5_000
            : price >= 20_000
              ? 2_500
              : 500;
  return Math.max(step, Math.round(price / step) * step);
}
