/**
 * Checks one feed row against the import rules (record.ts) and turns zod's findings into
 * one readable reason for the report: "price: must be greater than 0; type: must be one
 * of villa, house, ...". Known city and neighbourhood names are brought to their usual
 * spelling ("yaounde" → "Yaoundé"), so market figures show one name per place.
 */
import type { ZodIssue } from 'zod';
import { CITIES } from '../../contract/places.js';
import { cachedMatchKey } from './columns.js';
import { type StoredRecord, ZListingRecord } from './record.js';
import { writtenTitle } from './title.js';

export type Validated = { ok: true; record: StoredRecord } | { ok: false; reason: string; sourceRef?: string };

interface Place {
  name: string;
  english: boolean;
  neighbourhoods: Map<string, string>;
}
const PLACES = new Map<string, Place>(
  CITIES.map((c) => [
    cachedMatchKey(c.name),
    { name: c.name, english: c.english > 0.5, neighbourhoods: new Map(c.neighbourhoods.map((n) => [cachedMatchKey(n.name), n.name])) },
  ]),
);

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

export function validateRow(value: Record<string, unknown>): Validated {
  dropEmpty(value);
  const parsed = ZListingRecord.safeParse(value);
  if (!parsed.success) {
    const reasons = [...new Set(parsed.error.issues.map(describe))];
    const ref = value.source_ref;
    return { ok: false, reason: reasons.join('; '), sourceRef: typeof ref === 'string' && ref.trim() ? ref.trim() : undefined };
  }
  const record = parsed.data;
  const place = PLACES.get(cachedMatchKey(record.city));
  if (place) {
    record.city = place.name;
    record.neighborhood = place.neighbourhoods.get(cachedMatchKey(record.neighborhood)) ?? record.neighborhood;
  }
  let title = record.title;
  if (!title) title = writtenTitle({ ...record, place: record.neighborhood }, place?.english ?? false);
  else if (UNTIDY_SPACE.test(title)) title = title.replace(/\s+/g, ' ');
  record.title = title;
  return { ok: true, record: record as StoredRecord };
}
