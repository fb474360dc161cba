/**
 * Feed rows turned into one array per column, for the batched
 * `INSERT ... SELECT FROM unnest($1::text[], ...)` writes of seed and import: one round
 * trip and one statement per few thousand rows, where row-by-row inserts would need one
 * each. Also computes what Mboa derives from a row: its public id, the match keys and
 * the price per m².
 */
import { listingId } from '../ids.js';
import { matchKey } from '../text.js';
import { numberArray, textArray } from './pg-array.js';
import type { ListingRecord } from './record.js';

export interface ListingColumns {
  id: string[];
  title: string[];
  price: number[];
  city: string[];
  city_key: string[];
  neighborhood: string[];
  neighborhood_key: string[];
  surface: number[];
  bedrooms: number[];
  bathrooms: number[];
  type: string[];
  purpose: string[];
  price_per_m2: (number | null)[];
  status: string[];
  listed_at: string[];
  updated_at: string[];
  removed_at: (string | null)[];
  contact_name: string[];
  contact_phone: string[];
  contact_email: string[];
  street_address: string[];
  source_ref: string[];
}

export interface HistoryColumns {
  listing_id: string[];
  price: number[];
  changed_at: string[];
}

const INT4_MAX = 2_147_483_647;

/** Rounded price per m²; null when it would not fit the column (absurd feed values). */
export function pricePerM2(price: number, surface: number): number | null {
  const v = Math.round(price / surface);
  return Number.isFinite(v) && v <= INT4_MAX ? v : null;
}

/** matchKey() is pure and feeds repeat a few hundred place names: compute each once. */
const keyCache = new Map<string, string>();
export function cachedMatchKey(value: string): string {
  let key = keyCache.get(value);
  if (key === undefined) {
    key = matchKey(value);
    if (keyCache.size < 100_000) keyCache.set(value, key);
  }
  return key;
}

/** The unnest() column list, in the order of `listingColumnArrays()`. */
export const UNNEST_LISTINGS = `unnest(
  $1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[],
  $9::int[], $10::int[], $11::text[], $12::text[], $13::int[], $14::text[], $15::timestamptz[],
  $16::timestamptz[], $17::timestamptz[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[]
) AS t(id, title, price, city, city_key, neighborhood, neighborhood_key, surface, bedrooms, bathrooms, type,
       purpose, price_per_m2, status, listed_at, updated_at, removed_at, contact_name, contact_phone,
       contact_email, street_address, source_ref)`;

/** The INSERT column list and the matching SELECT over `t`, with `$source` as the source. */
export function insertListingsFrom(sourceParam: string): { columns: string; select: string } {
  return {
    columns: `(id, title, price, currency, city, city_key, neighborhood, neighborhood_key, surface, bedrooms,
      bathrooms, type, purpose, price_per_m2, status, listed_at, updated_at, removed_at, contact_name,
      contact_phone, contact_email, street_address, source, source_ref)`,
    select: `t.id, t.title, t.price, 'XAF', t.city, t.city_key, t.neighborhood, t.neighborhood_key, t.surface,
      t.bedrooms, t.bathrooms, t.type::"PropertyType", t.purpose::"Purpose", t.price_per_m2,
      t.status::"ListingStatus", t.listed_at, t.updated_at, t.removed_at, t.contact_name, t.contact_phone,
      t.contact_email, t.street_address, ${sourceParam}, t.source_ref`,
  };
}

export function emptyColumns(): ListingColumns {
  return {
    id: [], title: [], price: [], city: [], city_key: [], neighborhood: [], neighborhood_key: [], surface: [],
    bedrooms: [], bathrooms: [], type: [], purpose: [], price_per_m2: [], status: [], listed_at: [],
    updated_at: [], removed_at: [], contact_name: [], contact_phone: [], contact_email: [],
    street_address: [], source_ref: [],
  };
}

/**
 * Appends one row. `updatedAt` overrides the feed's own timestamp (the importer stamps
 * its run time); the generator's rows keep theirs.
 */
export function pushRow(c: ListingColumns, h: HistoryColumns | null, source: string, r: ListingRecord, updatedAt?: string): void {
  const id = listingId(source, r.source_ref);
  c.id.push(id);
  c.title.push(r.title);
  c.price.push(r.price);
  c.city.push(r.city);
  c.city_key.push(cachedMatchKey(r.city));
  c.neighborhood.push(r.neighborhood);
  c.neighborhood_key.push(cachedMatchKey(r.neighborhood));
  c.surface.push(r.surface);
  c.bedrooms.push(r.bedrooms);
  c.bathrooms.push(r.bathrooms);
  c.type.push(r.type);
  c.purpose.push(r.purpose);
  c.price_per_m2.push(pricePerM2(r.price, r.surface));
  c.status.push(r.status);
  c.listed_at.push(r.listed_at);
  c.updated_at.push(updatedAt ?? r.updated_at ?? r.listed_at);
  c.removed_at.push(r.removed_at ?? null);
  c.contact_name.push(r.contact_name);
  c.contact_phone.push(r.contact_phone);
  c.contact_email.push(r.contact_email);
  c.street_address.push(r.street_address);
  c.source_ref.push(r.source_ref);
  if (h && r.price_history) {
    for (const entry of r.price_history) {
      h.listing_id.push(id);
      h.price.push(entry.price);
      h.changed_at.push(entry.date);
    }
  }
}

/** The query parameters $1..$22, in the order of UNNEST_LISTINGS, as array literals. */
export function listingColumnArrays(c: ListingColumns): string[] {
  return [
    textArray(c.id), textArray(c.title), numberArray(c.price), textArray(c.city), textArray(c.city_key),
    textArray(c.neighborhood), textArray(c.neighborhood_key), numberArray(c.surface), numberArray(c.bedrooms),
    numberArray(c.bathrooms), textArray(c.type), textArray(c.purpose), numberArray(c.price_per_m2),
    textArray(c.status), textArray(c.listed_at), textArray(c.updated_at), textArray(c.removed_at),
    textArray(c.contact_name), textArray(c.contact_phone), textArray(c.contact_email),
    textArray(c.street_address), textArray(c.source_ref),
  ];
}

export function emptyHistory(): HistoryColumns {
  return { listing_id: [], price: [], changed_at: [] };
}

/** Price history parameters, as array literals. */
export function historyColumnArrays(h: HistoryColumns): string[] {
  return [textArray(h.listing_id), numberArray(h.price), textArray(h.changed_at)];
}
