/**
 * What a Cameroonian feed publishes of an advert, as the generator writes it: the shares
 * below are docs/data.md's ("Demo data"). The generator draws the whole property first, then
 * what the advert says of it, in one of two styles of feed:
 *
 * - **portal** (`PORTAL_SHARE` of rows): what classified portals publish, as the shared crawl
 *   of real adverts and a second portal's export show: rooms and a price, never a surface
 *   on a home to let, no contact (the portal sells the introduction), no point, no title of
 *   the advertiser's own (the portal writes one from its fields; here the importer does);
 *   such adverts repeat more (re-posted to stay on the first page);
 * - **agency** (the rest): an agency's or a partner's export, the fuller one: a surface on
 *   most adverts, contacts, a title in the agent's words, a point on some.
 *
 * Both styles write the quarter as the advert spells it: the catalog's name (70 %), another
 * spelling (case, accents, hyphens, a known other name: 16 %), a sub-quarter (12 % where the
 * quarter has any), or a place the gazetteer does not know (2 %: the row keeps its city).
 * Both state rent terms: months of advance on 70 % of rents (6 to 12 in Yaoundé, 3 to 12
 * in Douala, 2 to 6 elsewhere), a deposit on half (1 to 3 months); unfurnished rents say
 * so on 40 %, and a third of furnished rents come as `rent` marked furnished (the importer
 * files them as `furnished_rent`); land titles on sales: plots titled 40 %, in progress
 * 15 %, untitled 30 %, unsaid 15 %; built property titled 35 %, in progress 5 %, untitled
 * 10 %, unsaid 50 %.
 */
import type { City } from '../../contract/places.js';
import { GAZETTEER, type GazetteerCity, type Point, resolveNeighborhood } from '../domain/places/gazetteer.js';
import { matchKey } from '../platform/text.js';
import type { PropertyType, Purpose } from './kinds.js';
import type { LandTitle } from './price-model.js';
import { type Random, weightedTable } from './random.js';

/** Share of rows whose quarter is written as the catalog writes it, another way, as a sub-quarter, unknown. */
export const NEIGHBORHOOD_SPELLING = { catalog: 0.7, other_spelling: 0.16, sub_neighborhood: 0.12, unknown: 0.02 } as const;

export type FeedStyle = 'portal' | 'agency';
/** Share of generated rows written in the portal style. */
export const PORTAL_SHARE = 0.4;

/** What each style leaves out or states, as shares of its rows (docs/data.md). */
export const STYLE_SHARES = {
  portal: {
    /** No surface: home rents / built sales / offices, shops, warehouses / plots. */
    noSurface: { homeRent: 1, builtSale: 0.6, commercial: 0.5, land: 0.05 },
    noBedrooms: 0,
    noBathrooms: 0.05,
    noTitle: 1,
    ownPoint: 0,
    contacts: { contact_phone: 0, contact_name: 0, contact_email: 0, street_address: 0 },
    /** Repeats of an earlier advert against the feed's overall share (`repeats`). */
    repeats: 2,
  },
  agency: {
    noSurface: { homeRent: 0.35, builtSale: 0.15, commercial: 0.1, land: 0.05 },
    noBedrooms: 0.05,
    noBathrooms: 0.35,
    noTitle: 0.05,
    ownPoint: 0.4,
    contacts: { contact_phone: 0.95, contact_name: 0.6, contact_email: 0.3, street_address: 0.15 },
    repeats: 1 / 3,
  },
} as const;

const HOMES = new Set<PropertyType>(['apartment', 'studio', 'room', 'house', 'duplex', 'villa']);
const COMMERCIAL = new Set<PropertyType>(['office', 'shop', 'warehouse']);

/** Share of a style's adverts without a surface. */
export function noSurfaceShare(style: FeedStyle, type: PropertyType, purpose: Purpose): number {
  const shares = STYLE_SHARES[style].noSurface;
  if (type === 'land') return shares.land;
  if (COMMERCIAL.has(type)) return shares.commercial;
  return purpose === 'sale' ? shares.builtSale : shares.homeRent;
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
