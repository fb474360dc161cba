/**
 * Checks one feed row against the import rules (record.ts) and turns zod's findings into
 * one readable reason for the report: "price: must be greater than 0; type: must be one
 * of villa, house, ...". Known city and neighbourhood names are brought to their usual
 * spelling ("yaounde" → "Yaoundé"), so market figures show one name per place.
 */
import type { ZodIssue } from 'zod';
import { CITIES } from '../../contract/places.js';
import { cachedMatchKey } from './columns.js';
import { closestNames } from '../platform/text.js';
import { GAZETTEER, type GazetteerCity } from '../domain/places/gazetteer.js';
import { readStanding } from '../domain/listing/standing.js';
import { NeighborhoodResolver } from './neighborhoods.js';
import { type StoredRecord, ZListingRecord } from './record.js';
import { writtenTitle } from './title.js';

export type Validated = { ok: true; record: StoredRecord } | { ok: false; reason: string; sourceRef?: string };

/** Cities whose titles are written in English (the North-West and South-West). */
const ENGLISH = new Set(CITIES.filter((c) => c.english > 0.5).map((c) => cachedMatchKey(c.name)));

/** Optional fields a feed may leave empty (`""`): an empty value is an absent one. */
const OPTIONAL_TEXT = [
  'title',
  'listed_at',
  'contact_name',
  'contact_phone',
  'contact_email',
  'street_address',
  'surface',
  'bedrooms',
  'bathrooms',
  'furnished',
  'advance_months',
  'deposit_months',
  'land_title',
  'standing',
  'description',
];

function dropEmpty(value: Record<string, unknown>): void {
  for (const field of OPTIONAL_TEXT) {
    const v = value[field];
    if (typeof v === 'string' && v.trim() === '') delete value[field];
  }
}

/** Titles pasted from portals carry line breaks and runs of spaces: one line, single spaces. */
const UNTIDY_SPACE = /\s\s|[\t\n\r\f\v\u00a0]/;

function describe(issue: ZodIssue): string {
  const path = issue.path.join('.');
  const message = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
  return path ? `${path}: ${message}` : message;
}

/** Without an import's own resolver: the gazetteer alone (no operators' aliases). */
const DEFAULT_RESOLVER = new NeighborhoodResolver();

/**
 * `resolver` resolves quarter names against the gazetteer (one per import, with the
 * operators' aliases, remembering what it could not resolve).
 */
export function validateRow(value: Record<string, unknown>, resolver: NeighborhoodResolver = DEFAULT_RESOLVER): Validated {
  dropEmpty(value);
  if (typeof value.standing === 'string') value.standing = value.standing.trim().toLowerCase();
  const ref = value.source_ref;
  const sourceRef = typeof ref === 'string' && ref.trim() ? ref.trim() : undefined;
  const unstorable = unstorableText(value);
  if (unstorable) return { ok: false, reason: unstorable, sourceRef };
  const parsed = ZListingRecord.safeParse(value);
  if (!parsed.success) {
    const reasons = [...new Set(parsed.error.issues.map(describe))];
    return { ok: false, reason: reasons.join('; '), sourceRef };
  }
  const record: StoredRecord = parsed.data as StoredRecord;
  const cityKey = cachedMatchKey(record.city);
  const city = GAZETTEER.get(cityKey);
  if (!city) return { ok: false, reason: unknownCity(record.city), sourceRef };
  if (record.lat != null && record.lng != null) {
    const wrong = pointProblem(record.lat, record.lng, city);
    if (wrong) return { ok: false, reason: `lat, lng: ${wrong}`, sourceRef };
    // Public to about 100 m: an advert's exact point is its owner's door.
    record.lat = Math.round(record.lat * 1000) / 1000;
    record.lng = Math.round(record.lng * 1000) / 1000;
  }
  let stored = record;
  if (city) {
    // A gazetteer city: its spelling, and the quarter resolved, or the city alone.
    record.city = city.name;
    const neighborhood = record.neighborhood ? resolver.resolve(city, record.neighborhood) : null;
    if (neighborhood) {
      if (neighborhood.approximate) record.raw_neighborhood = record.neighborhood; // kept for `admin alias` to overrule
      record.neighborhood = neighborhood.name;
      record.neighborhood_key = neighborhood.key;
    } else if (record.neighborhood) {
      stored = { ...record, neighborhood: null, neighborhood_key: null, raw_neighborhood: record.neighborhood };
    }
  }
  stored.neighborhood ??= null;
  settleTerms(stored);
  // The standing the feed states, else the one its words claim; the description goes no further.
  stored.standing ??= readStanding(stored.title, stored.description);
  delete stored.description;
  const title = stored.title;
  if (!title) stored.title = writtenTitle({ ...stored, place: stored.neighborhood ?? stored.city }, ENGLISH.has(cityKey));
  else if (UNTIDY_SPACE.test(title)) stored.title = title.replace(/\s+/g, ' ');
  return { ok: true, record: stored };
}

/** Half a surrogate pair: no character at all (stored, it would become `�`). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const NUL = '\u0000';

/** The fields holding NUL (which PostgreSQL text cannot hold) or half a surrogate pair, named; or null. */
function unstorableText(value: Record<string, unknown>): string | null {
  const bad: string[] = [];
  for (const [field, v] of Object.entries(value)) {
    if (typeof v !== 'string') continue;
    const nul = v.includes(NUL);
    LONE_SURROGATE.lastIndex = 0;
    if (!nul && !LONE_SURROGATE.test(v)) continue;
    const name = field.replaceAll(NUL, '?').replace(LONE_SURROGATE, '?');
    bad.push(`${name}: holds ${nul ? 'a NUL byte (U+0000)' : 'an unpaired surrogate (no Unicode character)'}`);
  }
  return bad.length > 0 ? bad.join('; ') : null;
}

const KNOWN_CITIES = [...GAZETTEER.values()].map((c) => c.name);

/** A city outside the gazetteer: no place to file it under, so the row is refused with the closest known names. */
function unknownCity(name: string): string {
  const close = closestNames(name, KNOWN_CITIES);
  const shown = JSON.stringify(name.length > 60 ? `${name.slice(0, 59)}…` : name);
  return close.length > 0
    ? `city: ${shown} is not a known city, closest known: ${close.join(', ')}`
    : `city: ${shown} is not a known city (known: ${KNOWN_CITIES.join(', ')})`;
}

/**
 * The advert's terms as stored: a furnished rent is a `furnished_rent` (market figures keep
 * the two apart), a `furnished_rent` is furnished, a sale that does not say has an
 * `unknown` land title. A rent's land title stays as given (null when not).
 */
function settleTerms(r: StoredRecord): void {
  if (r.purpose === 'rent' && r.furnished === true) r.purpose = 'furnished_rent';
  if (r.purpose === 'furnished_rent') r.furnished = true;
  if (r.purpose === 'sale') r.land_title ??= 'unknown';
}

/** Cameroon's extent, with a margin of a few km. */
const CAMEROON = { south: 1.6, west: 8.4, north: 13.1, east: 16.2 };
/** How far beyond its city's (already generous) bounds an advert's point may be. */
const CITY_MARGIN_KM = 10;
const KM_PER_DEGREE = 111.32;

/** Why a feed's point cannot be the advert's, or null when it can. */
function pointProblem(lat: number, lng: number, city: GazetteerCity | undefined): string | null {
  if (lat < CAMEROON.south || lat > CAMEROON.north || lng < CAMEROON.west || lng > CAMEROON.east) {
    return `(${lat}, ${lng}) is outside Cameroon (latitude ${CAMEROON.south} to ${CAMEROON.north}, longitude ${CAMEROON.west} to ${CAMEROON.east}); swapped?`;
  }
  if (!city) return null;
  const b = city.bounds;
  const dLat = Math.max(b.south - lat, 0, lat - b.north) * KM_PER_DEGREE;
  const dLng = Math.max(b.west - lng, 0, lng - b.east) * KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
  const km = Math.hypot(dLat, dLng);
  return km > CITY_MARGIN_KM ? `(${lat}, ${lng}) is ${Math.round(km)} km outside ${city.name}` : null;
}
