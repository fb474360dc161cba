/**
 * The subject of a valuation, from the query: a described property, or a listed one
 * (`listing_id`, its fields overridden by any given beside it). Its quarter is the one
 * named, else the nearest known quarter to its point, else unknown (the city method).
 */
import type { TValuationQueryParsed } from '../../../contract/valuations.js';
import { ApiError } from '../../platform/errors.js';
import { foldNeighborhood, GAZETTEER } from '../places/gazetteer.js';
import { type Dataset, table } from '../listing/dataset.js';
import type { EffectiveFilters } from '../listing/filters.js';
import { distanceM, type Point } from './model.js';

export interface ResolvedSubject {
  city: string;
  cityKey: string;
  neighborhood: string | null;
  neighborhoodKey: string | null;
  point: Point | null;
  type: NonNullable<TValuationQueryParsed['type']>;
  purpose: NonNullable<TValuationQueryParsed['purpose']>;
  surface: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  /** A furnished_rent is furnished; null: not said. */
  furnished: boolean | null;
  landTitle: NonNullable<TValuationQueryParsed['land_title']> | null;
  /** The listing valued, never its own comparable. */
  listingId: string | null;
  /** How the quarter was found: named, nearest to the point, none given, or named but unknown to the gazetteer of its city. */
  neighborhoodFrom: 'named' | 'point' | 'none' | 'unknown';
}

interface ListingFields {
  city: string;
  city_key: string;
  neighborhood: string | null;
  neighborhood_key: string | null;
  type: ResolvedSubject['type'];
  purpose: ResolvedSubject['purpose'];
  surface: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  furnished: boolean | null;
  land_title: ResolvedSubject['landTitle'];
  lat: number | null;
  lng: number | null;
}

/** A point this far (degrees, about 5.5 km) outside a city's bounds still belongs to its outskirts. */
const BOUNDS_MARGIN = 0.05;

function inBounds(b: { south: number; west: number; north: number; east: number }, p: Point): boolean {
  const m = BOUNDS_MARGIN;
  return p.lat >= b.south - m && p.lat <= b.north + m && p.lng >= b.west - m && p.lng <= b.east + m;
}

/**
 * A point given with a city must lie in it: a point elsewhere (or lat and lng swapped) would
 * be valued from comparables a country away. A 400 that says which, before anything is charged.
 */
function checkPoint(cityKey: string, p: Point, param: 'near' | 'lat'): void {
  const city = GAZETTEER.get(cityKey);
  if (!city || inBounds(city.bounds, p)) return;
  const b = city.bounds;
  const box = `latitude ${b.south} to ${b.north}, longitude ${b.west} to ${b.east}`;
  const swapped = inBounds(b, { lat: p.lng, lng: p.lat });
  const at = param === 'near' ? `near=${p.lat},${p.lng}` : `lat ${p.lat}, lng ${p.lng}`;
  const other = param === 'near' ? `near=${p.lng},${p.lat}` : `lat ${p.lng}, lng ${p.lat}`;
  const message = swapped
    ? `${at} is outside ${city.name}, but ${other} is inside: latitude and longitude look swapped`
    : `${at} is outside ${city.name} (${box})`;
  throw new ApiError('validation_error', `The point given is not in ${city.name}: ${message}. Nothing was valued and nothing is charged.`, {
    errors: [{ path: param, message }],
  });
}

/** The nearest quarter (top-level: the key listings are filed under) of a gazetteer city to a point. */
function nearestNeighborhood(cityKey: string, p: Point): { name: string; key: string; point: Point } | null {
  const city = GAZETTEER.get(cityKey);
  if (!city) return null;
  let best: { name: string; key: string; point: Point; d: number } | null = null;
  for (const q of city.byName.values()) {
    const d = distanceM(p, q.point);
    if (!best || d < best.d) best = { name: q.name, key: q.key, point: q.point, d };
  }
  return best && { name: best.name, key: best.key, point: best.point };
}

/** A known quarter's centroid by its shown name. */
function neighborhoodPoint(cityKey: string, name: string | null): Point | null {
  if (name === null) return null;
  const q = GAZETTEER.get(cityKey)?.byName.get(foldNeighborhood(name));
  return q ? { lat: q.point.lat, lng: q.point.lng } : null;
}

export async function resolveSubject(data: Dataset, q: TValuationQueryParsed, filters: EffectiveFilters): Promise<ResolvedSubject> {
  let base: ListingFields | null = null;
  if (q.listing_id !== undefined) {
    const { rows } = await data.pool.query<ListingFields>(
      `SELECT city, city_key, neighborhood, neighborhood_key, type, purpose, surface, bedrooms, bathrooms, furnished, land_title, lat, lng
       FROM ${table(data, 'listings')} WHERE id = $1`,
      [q.listing_id],
    );
    base = rows[0] ?? null;
    if (!base) throw new ApiError('not_found', `No listing with id ${q.listing_id}.`);
  }
  const cityKey = filters.cityKey ?? base!.city_key;
  const city = q.city !== undefined ? (GAZETTEER.get(cityKey)?.name ?? q.city) : base!.city;
  const given: Point | null = q.near ?? (q.lat !== undefined && q.lng !== undefined ? { lat: q.lat, lng: q.lng } : null);
  if (given) checkPoint(cityKey, given, q.near ? 'near' : 'lat');
  let neighborhood: string | null = null;
  let neighborhoodKey: string | null = null;
  let point: Point | null = given;
  let neighborhoodFrom: ResolvedSubject['neighborhoodFrom'] = 'none';
  if (filters.neighborhoodKey !== undefined) {
    // The filters resolved the name against the gazetteer already: its entry, when it knows
    // it in the subject's city (without a city, a listing's own city, they looked everywhere).
    neighborhoodKey = filters.neighborhoodKey;
    const known = GAZETTEER.get(cityKey);
    const q0 = filters.neighborhood;
    const resolved = q0 && known?.byName.get(foldNeighborhood(q0.name)) === q0 ? q0 : undefined;
    neighborhood = resolved?.name ?? filters.subNeighborhood ?? q.neighborhood!;
    point ??= resolved ? { lat: resolved.point.lat, lng: resolved.point.lng } : null;
    neighborhoodFrom = 'named';
    if (known && !resolved && !known.byKey.has(neighborhoodKey)) {
      // A quarter the city's gazetteer lacks: its adverts are filed under the city alone, and so is the subject.
      neighborhoodKey = null;
      neighborhoodFrom = 'unknown';
    }
  } else if (given) {
    const near = nearestNeighborhood(cityKey, given);
    if (near) {
      neighborhood = near.name;
      neighborhoodKey = near.key;
      neighborhoodFrom = 'point';
    }
  } else if (base && base.city_key === cityKey) {
    neighborhood = base.neighborhood;
    neighborhoodKey = base.neighborhood_key;
    point ??= base.lat !== null && base.lng !== null ? { lat: base.lat, lng: base.lng } : neighborhoodPoint(cityKey, base.neighborhood);
    neighborhoodFrom = neighborhoodKey === null ? 'none' : 'named';
  }
  const purpose = q.purpose ?? base!.purpose;
  return {
    city,
    cityKey,
    neighborhood,
    neighborhoodKey,
    point,
    type: q.type ?? base!.type,
    purpose,
    surface: q.surface ?? base?.surface ?? null,
    bedrooms: q.bedrooms ?? base?.bedrooms ?? null,
    bathrooms: q.bathrooms ?? base?.bathrooms ?? null,
    furnished: purpose === 'furnished_rent' ? true : (q.furnished ?? base?.furnished ?? null),
    landTitle: q.land_title ?? base?.land_title ?? null,
    listingId: q.listing_id ?? null,
    neighborhoodFrom,
  };
}
