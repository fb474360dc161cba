/**
 * What a Cameroonian portal publishes of an advert, as the generator writes it: the shares
 * below are the README's ("Demo data"). The generator draws the whole property first, then
 * what the advert says of it:
 *
 * - the quarter as the advert spells it: the catalog's name (70 %), another spelling
 *   (case, accents, hyphens, a known other name: 16 %), a sub-quarter (12 % where the
 *   quarter has any), or a place the gazetteer does not know (2 %: the row keeps its city);
 * - the advert's own point (25 %), within about 600 m of the quarter's centroid;
 * - the surface left out of most rent adverts of homes (60 %: they quote rooms), of a
 *   quarter of built sales, of a fifth of commercial adverts and of 5 % of plots;
 *   bedrooms left out of 5 % of homes, bathrooms of 35 %; no title on 15 % of rows;
 * - contacts as agents give them: a phone number on 85 % of rows, a name on half, an
 *   e-mail on a fifth, a street address on a tenth;
 * - rent terms: months of advance on 70 % of rents (6 to 12 in Yaoundé, 3 to 12 in Douala,
 *   2 to 6 elsewhere), a deposit on half (1 to 3 months); unfurnished rents say so on 40 %,
 *   and a third of furnished rents come as `rent` marked furnished (the importer files them
 *   as `furnished_rent`);
 * - land titles on sales: plots titled 40 %, in progress 15 %, untitled 30 %, unsaid 15 %;
 *   built property titled 35 %, in progress 5 %, untitled 10 %, unsaid 50 %.
 */
import type { City } from '../../contract/places.js';
import { GAZETTEER, type GazetteerCity, type Point, resolveNeighborhood } from '../domain/places/gazetteer.js';
import { matchKey } from '../platform/text.js';
import type { PropertyType, Purpose } from './kinds.js';
import type { LandTitle } from './price-model.js';
import { type Random, weightedTable } from './random.js';

/** Share of rows whose quarter is written as the catalog writes it, another way, as a sub-quarter, unknown. */
export const NEIGHBORHOOD_SPELLING = { catalog: 0.7, other_spelling: 0.16, sub_neighborhood: 0.12, unknown: 0.02 } as const;
export const OWN_POINT = 0.25;
export const NO_TITLE = 0.15;
export const CONTACT_SHARES = { contact_phone: 0.85, contact_name: 0.5, contact_email: 0.2, street_address: 0.1 } as const;

const HOMES = new Set<PropertyType>(['apartment', 'studio', 'room', 'house', 'duplex', 'villa']);
const COMMERCIAL = new Set<PropertyType>(['office', 'shop', 'warehouse']);

/** Share of adverts without a surface. */
export function noSurfaceShare(type: PropertyType, purpose: Purpose): number {
  if (type === 'land') return 0.05;
  if (COMMERCIAL.has(type)) return 0.2;
  return purpose === 'sale' ? 0.25 : 0.6;
}

/** Places a feed names that no gazetteer holds: landmarks and new estates. */
const UNKNOWN_PLACES = ['Carrefour Agip', 'Derrière la station', 'Cité verte nouvelle', 'Lotissement Madi', 'Entrée Tradex'];

interface Spellings {
  /** Other names of the quarter itself (aliases) and spellings derived from its name. */
  others: string[];
  /** Its sub-quarters' names. */
  subs: string[];
}
const spellingCache = new Map<string, Spellings>();

function derivedSpellings(name: string): string[] {
  const unaccented = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const out = new Set([name.toLowerCase(), name.toUpperCase(), unaccented, unaccented.toLowerCase()]);
  if (name.includes('-')) out.add(name.replace(/-/g, ' '));
  else if (name.includes(' ')) out.add(name.replace(/ /g, '-'));
  out.delete(name);
  return [...out];
}

function spellingsOf(city: GazetteerCity, neighborhood: string): Spellings {
  const cacheKey = `${city.key}\u0000${neighborhood}`;
  let s = spellingCache.get(cacheKey);
  if (s) return s;
  const others = derivedSpellings(neighborhood);
  const subs: string[] = [];
  for (const n of city.names) {
    if (n === neighborhood) continue;
    const q = resolveNeighborhood(city, n);
    if (q?.neighborhood !== neighborhood) continue;
    if (q.name === neighborhood) others.push(n);
    else if (n === q.name) subs.push(n);
  }
  s = { others, subs };
  spellingCache.set(cacheKey, s);
  return s;
}

export interface WrittenPlace {
  /** The quarter as written in the row. */
  neighborhood: string;
  /** Where the listing is: the named (sub-)quarter's centroid, or the city's. */
  point: Point;
}

/** The quarter as the advert writes it. */
export function writeNeighborhood(rng: Random, city: City, neighborhood: string): WrittenPlace {
  const gazetteer = GAZETTEER.get(matchKey(city.name))!;
  const own = resolveNeighborhood(gazetteer, neighborhood)!;
  const r = rng.next();
  const s = spellingsOf(gazetteer, neighborhood);
  let written = neighborhood;
  if (r < NEIGHBORHOOD_SPELLING.unknown) return { neighborhood: rng.pick(UNKNOWN_PLACES), point: gazetteer.centroid };
  if (r < NEIGHBORHOOD_SPELLING.unknown + NEIGHBORHOOD_SPELLING.sub_neighborhood && s.subs.length > 0) written = rng.pick(s.subs);
  else if (r >= 1 - NEIGHBORHOOD_SPELLING.other_spelling && s.others.length > 0) written = rng.pick(s.others);
  const q = resolveNeighborhood(gazetteer, written) ?? own;
  return { neighborhood: written, point: q.point };
}

/** A point within about 600 m of `p`, as an agent's phone records it. */
export function pointNear(rng: Random, p: Point): { lat: number; lng: number } {
  const dLat = rng.between(-0.0055, 0.0055);
  const dLng = rng.between(-0.0055, 0.0055);
  return { lat: Math.round((p.lat + dLat) * 1e5) / 1e5, lng: Math.round((p.lng + dLng) * 1e5) / 1e5 };
}

const ADVANCE: Record<string, readonly number[]> = {
  Yaoundé: [6, 6, 8, 10, 12, 12],
  Douala: [3, 4, 6, 6, 10, 12],
};
const OTHER_ADVANCE = [2, 3, 3, 4, 6];

export interface AdvertTerms {
  /** The purpose as the row writes it (`rent` for a third of furnished rents). */
  purpose: Purpose;
  furnished?: boolean;
  advance_months?: number;
  deposit_months?: number;
  land_title?: LandTitle;
}

const LAND_TITLES = weightedTable<LandTitle | null>([
  ['titled', 40],
  ['in_progress', 15],
  ['untitled', 30],
  [null, 15],
]);
const BUILT_TITLES = weightedTable<LandTitle | null>([
  ['titled', 35],
  ['in_progress', 5],
  ['untitled', 10],
  [null, 50],
]);

/** What the advert says of its terms. */
export function drawTerms(rng: Random, city: City, type: PropertyType, purpose: Purpose): AdvertTerms {
  if (purpose === 'sale') {
    const title = rng.draw(type === 'land' ? LAND_TITLES : BUILT_TITLES);
    return title === null ? { purpose } : { purpose, land_title: title };
  }
  const terms: AdvertTerms = { purpose };
  if (purpose === 'furnished_rent') {
    terms.furnished = true;
    if (rng.chance(1 / 3)) terms.purpose = 'rent';
  } else if (HOMES.has(type) && rng.chance(0.4)) terms.furnished = false;
  if (rng.chance(0.7)) terms.advance_months = rng.pick(ADVANCE[city.name] ?? OTHER_ADVANCE);
  if (rng.chance(0.5)) terms.deposit_months = rng.int(1, 3);
  return terms;
}
