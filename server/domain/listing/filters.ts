/**
 * The one WHERE builder for listing filters: the search, the market reads (their tables
 * carry the same `city_key`, `neighborhood_key`, `type` and `purpose` columns) and any
 * export of listings select through it. The API's front handler works out a query's
 * effective filters once per call (`effectiveFilters`); the builder turns them into SQL.
 * Pure functions: no database, no request, so they are tested on their own.
 */
import { type Currency, xafBounds } from '../../../contract/currency.js';
import { parseInstant } from '../../../contract/instants.js';
import type { TListingFilters } from '../../../contract/schemas.js';
import { foldNeighborhood, GAZETTEER, type Neighborhood, resolveNeighborhood } from '../places/gazetteer.js';
import { matchKey } from '../../platform/text.js';
import { addGeoConditions, type GeoFilters, geoFilters } from './geo.js';

/** Positional parameters and the conditions that use them. */
export class SqlConditions {
  readonly params: unknown[] = [];
  readonly conditions: string[] = [];

  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  add(condition: string): void {
    this.conditions.push(condition);
  }

  /** `WHERE a AND b`, or nothing when there is no condition. */
  where(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }
}

/** Any subset of the listing filters (the market endpoints use place, type and purpose). */
export type FilterInput = Partial<TListingFilters> & { currency?: Currency };

/**
 * The filters as the database applies them: places as matching keys, price bounds as the
 * XAF range they denote in the caller's currency, instants as Dates. What a cursor is
 * bound to, so two spellings of the same filter share their cursors.
 */
export interface EffectiveFilters extends GeoFilters {
  status?: TListingFilters['status'];
  cityKey?: string;
  neighborhoodKey?: string;
  /** A sub-quarter asked for by name (`Akwa I`): its listings only, within its parent's key. */
  subNeighborhood?: string;
  /** The gazetteer's entry for the neighbourhood asked for, when it knows it: its shown name and centroid. */
  neighborhood?: Neighborhood;
  /** One type or several, sorted and distinct (the contract parses them so). */
  type?: TListingFilters['type'];
  /** One purpose or several, sorted and distinct. */
  purpose?: TListingFilters['purpose'];
  minPriceXaf?: bigint;
  maxPriceXaf?: bigint;
  minSurface?: number;
  maxSurface?: number;
  minBedrooms?: number;
  minBathrooms?: number;
  listedAfter?: Date;
  updatedAfter?: Date;
  furnished?: boolean;
  maxAdvanceMonths?: number;
  /** One land title or several, sorted and distinct. */
  landTitle?: TListingFilters['land_title'];
  /** One standing or several, sorted and distinct. */
  standing?: TListingFilters['standing'];
}

/** Place names asked for lately, with their matching keys: callers ask for the same few places over and over. */
const placeKeys = new Map<string, string>();
/** Emptied when full, so that names nobody asks for again (typos, probes) cannot crowd out the rest for good. */
const PLACE_KEYS_MAX = 10_000;

function placeKey(name: string): string {
  let key = placeKeys.get(name);
  if (key === undefined) {
    key = matchKey(name);
    if (placeKeys.size >= PLACE_KEYS_MAX) placeKeys.clear();
    placeKeys.set(name, key);
  }
  return key;
}

/**
 * A neighbourhood as the gazetteer knows it, in `city` when given (any spelling the
 * importer resolves: `Akwa 1`, `Deido`, `PK 14`), else by its folded name in any city: the
 * key its listings are filed under (a sub-quarter's parent), and the sub-quarter's name
 * when one was asked for. Beyond the gazetteer, the name's matching key.
 */
function neighborhoodOf(city: string | undefined, name: string): { key: string; sub?: string; neighborhood?: Neighborhood } {
  let neighborhood: Neighborhood | null = null;
  if (city !== undefined) {
    const known = GAZETTEER.get(placeKey(city));
    if (known) neighborhood = resolveNeighborhood(known, name);
  } else {
    const folded = foldNeighborhood(name);
    for (const known of GAZETTEER.values()) if ((neighborhood = known.byName.get(folded) ?? null)) break;
  }
  if (!neighborhood) return { key: placeKey(name) };
  return neighborhood.name === neighborhood.neighborhood
    ? { key: neighborhood.key, neighborhood }
    : { key: neighborhood.key, sub: neighborhood.name, neighborhood };
}

function instant(name: string, value: string): Date {
  const parsed = parseInstant(value);
  // The contract refused anything else already; reaching here is a programming error.
  if (!parsed.ok) throw new Error(`${name} was not validated: ${parsed.message}`);
  return parsed.date;
}

export function effectiveFilters(q: FilterInput, radiusDefault?: number): EffectiveFilters {
  const prices = xafBounds({ min: q.min_price, max: q.max_price }, q.currency ?? 'XAF');
  const f: EffectiveFilters = geoFilters(q, radiusDefault);
  if (q.status !== undefined && q.status !== 'any') f.status = q.status;
  if (q.city !== undefined) f.cityKey = placeKey(q.city);
  if (q.neighborhood !== undefined) {
    const hood = neighborhoodOf(q.city, q.neighborhood);
    f.neighborhoodKey = hood.key;
    if (hood.sub !== undefined) f.subNeighborhood = hood.sub;
    if (hood.neighborhood !== undefined) f.neighborhood = hood.neighborhood;
  }
  if (q.type !== undefined) f.type = q.type;
  if (q.purpose !== undefined) f.purpose = q.purpose;
  if (prices.min !== undefined) f.minPriceXaf = prices.min;
  if (prices.max !== undefined) f.maxPriceXaf = prices.max;
  if (q.min_surface !== undefined) f.minSurface = q.min_surface;
  if (q.max_surface !== undefined) f.maxSurface = q.max_surface;
  if (q.min_bedrooms !== undefined) f.minBedrooms = q.min_bedrooms;
  if (q.min_bathrooms !== undefined) f.minBathrooms = q.min_bathrooms;
  if (q.listed_after !== undefined) f.listedAfter = instant('listed_after', q.listed_after);
  if (q.updated_after !== undefined) f.updatedAfter = instant('updated_after', q.updated_after);
  if (q.furnished !== undefined) f.furnished = q.furnished;
  if (q.max_advance_months !== undefined) f.maxAdvanceMonths = q.max_advance_months;
  if (q.land_title !== undefined) f.landTitle = q.land_title;
  if (q.standing !== undefined) f.standing = q.standing;
  return f;
}

/**
 * A JSON-safe, canonical form of the effective filters (for cursor fingerprints): a list
 * as its sorted values joined by commas, so `purpose=rent,sale` and `purpose=sale,rent`
 * share their cursors and one value reads as it always did.
 */
export function canonicalFilters(f: EffectiveFilters): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined) continue;
    out[k] =
      typeof v === 'bigint' || typeof v === 'boolean'
        ? String(v)
        : v instanceof Date
          ? v.toISOString()
          : Array.isArray(v)
            ? v.join(',')
            : (v as string | number);
  }
  return out;
}

/**
 * Adds the conditions of the filters `f` on the table aliased `alias` to `sql` (a fresh
 * one by default) and returns it. Columns named as in `listings`. A sub-quarter narrows
 * listings only: the market tables hold figures per quarter, sub-quarters included.
 * `geoCube` false leaves out the GiST index's cube tests (the exact ones stay): for a
 * plan that reaches the area's listings by their grid cells (geo-page.ts).
 */
export function listingFilterSql(
  f: EffectiveFilters,
  alias: string,
  sql = new SqlConditions(),
  listings = alias === 'l',
  geoCube = true,
): SqlConditions {
  const col = (name: string) => `${alias}.${name}`;
  if (f.status !== undefined) sql.add(`${col('status')} = ${sql.param(f.status)}::"ListingStatus"`);
  if (f.cityKey !== undefined) sql.add(`${col('city_key')} = ${sql.param(f.cityKey)}`);
  if (f.neighborhoodKey !== undefined) sql.add(`${col('neighborhood_key')} = ${sql.param(f.neighborhoodKey)}`);
  if (f.subNeighborhood !== undefined && listings) sql.add(`${col('neighborhood')} = ${sql.param(f.subNeighborhood)}`);
  // One value or several (`purpose=sale,rent`): any of them.
  if (f.type !== undefined) sql.add(`${col('type')} = ANY(${sql.param(f.type)}::"PropertyType"[])`);
  if (f.purpose !== undefined) sql.add(`${col('purpose')} = ANY(${sql.param(f.purpose)}::"Purpose"[])`);
  // bigint bounds travel as text: exact beyond 2^53, cast by PostgreSQL.
  if (f.minPriceXaf !== undefined) sql.add(`${col('price')} >= ${sql.param(f.minPriceXaf.toString())}::bigint`);
  if (f.maxPriceXaf !== undefined) sql.add(`${col('price')} <= ${sql.param(f.maxPriceXaf.toString())}::bigint`);
  if (f.minSurface !== undefined) sql.add(`${col('surface')} >= ${sql.param(f.minSurface)}`);
  if (f.maxSurface !== undefined) sql.add(`${col('surface')} <= ${sql.param(f.maxSurface)}`);
  if (f.minBedrooms !== undefined) sql.add(`${col('bedrooms')} >= ${sql.param(f.minBedrooms)}`);
  if (f.minBathrooms !== undefined) sql.add(`${col('bathrooms')} >= ${sql.param(f.minBathrooms)}`);
  if (f.listedAfter !== undefined) sql.add(`${col('listed_at')} >= ${sql.param(f.listedAfter)}`);
  if (f.updatedAfter !== undefined) sql.add(`${col('updated_at')} > ${sql.param(f.updatedAfter)}`);
  // The advert's terms (listings only): an advert that does not say never matches.
  if (f.furnished !== undefined) sql.add(`${col('furnished')} = ${sql.param(f.furnished)}`);
  if (f.maxAdvanceMonths !== undefined) sql.add(`${col('advance_months')} <= ${sql.param(f.maxAdvanceMonths)}`);
  if (f.landTitle !== undefined) sql.add(`${col('land_title')} = ANY(${sql.param(f.landTitle)}::"LandTitle"[])`);
  if (f.standing !== undefined) sql.add(`${col('standing')} = ANY(${sql.param(f.standing)}::"Standing"[])`);
  if (listings) addGeoConditions(f, sql, alias, geoCube);
  return sql;
}
