/**
 * Checks one feed row against the import rules (record.ts) and turns zod's findings into
 * one readable reason for the report: "price: must be greater than 0; type: must be one
 * of villa, house, ...". Known city and neighbourhood names are brought to their usual
 * spelling ("yaounde" → "Yaoundé"), so market figures show one name per place.
 */
import type { ZodIssue } from 'zod';
import { CITIES } from '../../contract/places.js';
import { cachedMatchKey } from './columns.js';
import { GAZETTEER } from '../platform/gazetteer.js';
import { QuarterResolver } from './quarters.js';
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
const DEFAULT_RESOLVER = new QuarterResolver();

/**
 * `resolver` resolves quarter names against the gazetteer (one per import, with the
 * operators' aliases, remembering what it could not resolve).
 */
export function validateRow(value: Record<string, unknown>, resolver: QuarterResolver = DEFAULT_RESOLVER): Validated {
  dropEmpty(value);
  const parsed = ZListingRecord.safeParse(value);
  if (!parsed.success) {
    const reasons = [...new Set(parsed.error.issues.map(describe))];
    const ref = value.source_ref;
    return { ok: false, reason: reasons.join('; '), sourceRef: typeof ref === 'string' && ref.trim() ? ref.trim() : undefined };
  }
  const record = parsed.data as StoredRecord & { neighborhood: string };
  const cityKey = cachedMatchKey(record.city);
  const city = GAZETTEER.get(cityKey);
  let stored: StoredRecord = record;
  if (city) {
    // A gazetteer city: its spelling, and the quarter resolved, or the city alone.
    record.city = city.name;
    const quarter = resolver.resolve(city, record.neighborhood);
    if (quarter) {
      record.neighborhood = quarter.name;
      record.neighborhood_key = quarter.key;
    } else {
      stored = { ...record, neighborhood: null, neighborhood_key: null, raw_neighborhood: record.neighborhood };
    }
  }
  const title = stored.title;
  if (!title) stored.title = writtenTitle({ ...stored, place: stored.neighborhood ?? stored.city }, ENGLISH.has(cityKey));
  else if (UNTIDY_SPACE.test(title)) stored.title = title.replace(/\s+/g, ' ');
  return { ok: true, record: stored };
}
