/**
 * A batch of listings for the `INSERT ... SELECT FROM unnest($1::text[], ...)` writes of
 * seed and import: one array parameter per column, one statement for thousands of rows
 * where row-by-row inserts would need a round trip each. Also computes what Mboa derives
 * from a feed row: its public id, the match keys and the price per m².
 */
import { fieldOf, type FieldType, LISTING_FIELDS } from '../domain/listing/fields.js';
import { listingId } from '../platform/ids.js';
import { matchKey } from '../platform/text.js';
import { ArrayLiteral } from './pg-array.js';
import type { StoredRecord } from './record.js';
import { advertFingerprint, fingerprintHex } from './repeats.js';

const INT4_MAX = 2_147_483_647;

/** Rounded price per m²; null when the surface is unknown or it would not fit the column (absurd feed values). */
export function pricePerM2(price: number, surface: number | null | undefined): number | null {
  if (!surface) return null;
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

/** The quarter key a row is filed under: the gazetteer's, else its own name's. */
function neighborhoodKeyOf(r: StoredRecord): string | null {
  const hood = r.neighborhood ?? null;
  return r.neighborhood_key !== undefined ? r.neighborhood_key : hood === null ? null : cachedMatchKey(hood);
}

/** The row's content fingerprint (repeats.ts), from the columns as they are stored. */
export function fingerprintOf(r: StoredRecord): string {
  return advertFingerprint({
    cityKey: cachedMatchKey(r.city),
    neighborhoodKey: neighborhoodKeyOf(r),
    neighborhood: r.neighborhood ?? null,
    rawNeighborhood: r.raw_neighborhood ?? null,
    type: r.type,
    purpose: r.purpose,
    price: r.price,
    surface: r.surface ?? null,
    bedrooms: r.bedrooms ?? null,
    bathrooms: r.bathrooms ?? null,
    title: r.title,
    lat: r.lat ?? null,
    lng: r.lng ?? null,
    contactPhone: r.contact_phone ?? null,
  });
}

/**
 * The columns a batch writes, one `unnest()` array each, in the order of the listing's
 * field table (server/domain/listing/fields.ts): every column but the constants (currency,
 * source) and what the database keeps itself (the search's point).
 */
export const BATCH_COLUMNS = LISTING_FIELDS.filter((f) => f.column !== null && f.role !== 'constant' && f.role !== 'trigger').map(
  (f) => f.column!,
);

/** The `$n` of a batch column's array in `ListingBatch.params()`. */
export function batchParam(column: string): string {
  const i = BATCH_COLUMNS.indexOf(column);
  if (i < 0) throw new Error(`no batch column ${column}`);
  return `$${i + 1}`;
}

/** The first `$n` after the batch's arrays: a statement's own parameters follow them. */
export const FIRST_FREE_PARAM = BATCH_COLUMNS.length + 1;

/** An array's type: enums and the fingerprint travel as text (cast, decoded in the SELECT). */
const arrayType = (t: FieldType) =>
  t === 'bigint' || t === 'int' || t === 'float8' || t === 'bool' || t === 'timestamptz' || t === 'text' ? t : 'text';

/** The batch's rows: `unnest($1::text[], ...) AS t(id, ...)`. */
export function unnestListings(): string {
  const arrays = BATCH_COLUMNS.map((c, i) => `$${i + 1}::${arrayType(fieldOf(c).type)}[]`).join(', ');
  return `unnest(${arrays}) AS t(${BATCH_COLUMNS.join(', ')})`;
}

/** A column's value in the SELECT over `t`: enums cast, the fingerprint decoded. */
function selected(column: string): string {
  const type = fieldOf(column).type;
  if (type === 'bytea') return `decode(t.${column}, 'hex')`;
  return arrayType(type) === type ? `t.${column}` : `t.${column}::"${type}"`;
}

/**
 * The INSERT column list and the matching SELECT over `t` (unnestListings), with
 * `sourceParam` as the source.
 */
export function insertListingsFrom(sourceParam: string): { columns: string; select: string } {
  return {
    columns: `(${BATCH_COLUMNS.join(', ')}, currency, source)`,
    select: `${BATCH_COLUMNS.map(selected).join(', ')}, 'XAF', ${sourceParam}`,
  };
}

export class ListingBatch {
  /** One array per batch column (BATCH_COLUMNS). */
  private readonly c: Record<string, ArrayLiteral> = Object.fromEntries(BATCH_COLUMNS.map((c) => [c, new ArrayLiteral()]));
  private readonly h = { listing_id: new ArrayLiteral(), price: new ArrayLiteral(), changed_at: new ArrayLiteral() };

  constructor(private readonly source: string) {}

  get size(): number {
    return this.c.id.length;
  }

  /**
   * Adds one row, and its price history entries if the feed gave any. `updatedAt`
   * overrides the row's own timestamp (the importer stamps its run time); the
   * generator's rows keep theirs. A row without `listed_at` is listed from `updatedAt`,
   * the import that first saw it (upsert.ts keeps that date on later imports), and marked
   * undated (`listed_at_known` false: never a new listing in the history or the trends).
   * `fingerprint` is the row's, when the caller worked it out already.
   */
  push(r: StoredRecord, updatedAt?: string, fingerprint = fingerprintOf(r)): void {
    const c = this.c;
    const id = listingId(this.source, r.source_ref);
    c.id.text(id);
    c.title.text(r.title);
    c.price.number(r.price);
    c.city.text(r.city);
    c.city_key.text(cachedMatchKey(r.city));
    // A quarter the gazetteer resolved carries its key (its parent's for a sub-quarter);
    // a name it could not resolve in a gazetteer city is kept aside (raw_neighborhood).
    const hood = r.neighborhood ?? null;
    c.neighborhood.text(hood);
    c.neighborhood_key.text(neighborhoodKeyOf(r));
    c.surface.number(r.surface ?? null);
    c.bedrooms.number(r.bedrooms ?? null);
    c.bathrooms.number(r.bathrooms ?? null);
    c.type.text(r.type);
    c.purpose.text(r.purpose);
    c.price_per_m2.number(pricePerM2(r.price, r.surface));
    c.status.text(r.status);
    const listedAt = r.listed_at ?? updatedAt ?? null;
    c.listed_at.text(listedAt);
    c.updated_at.text(updatedAt ?? r.updated_at ?? listedAt);
    c.removed_at.text(r.removed_at ?? null);
    c.contact_name.text(r.contact_name ?? null);
    c.contact_phone.text(r.contact_phone ?? null);
    c.contact_email.text(r.contact_email ?? null);
    c.street_address.text(r.street_address ?? null);
    c.source_ref.text(r.source_ref);
    c.raw_neighborhood.text(r.raw_neighborhood ?? null);
    c.lat.number(r.lat ?? null);
    c.lng.number(r.lng ?? null);
    c.fingerprint.text(fingerprintHex(fingerprint));
    c.furnished.text(r.furnished == null ? null : String(r.furnished));
    c.advance_months.number(r.advance_months ?? null);
    c.deposit_months.number(r.deposit_months ?? null);
    c.land_title.text(r.land_title ?? null);
    c.standing.text(r.standing ?? null);
    c.listed_at_known.text(String(r.listed_at != null));
    if (r.price_history) {
      for (const entry of r.price_history) {
        this.h.listing_id.text(id);
        this.h.price.number(entry.price);
        this.h.changed_at.text(entry.date);
      }
    }
  }

  /**
   * One array literal per batch column, in BATCH_COLUMNS' order ($1 on). A column `push`
   * left out would be padded with nulls by `unnest()`: refused instead.
   */
  params(): string[] {
    return BATCH_COLUMNS.map((column) => {
      const values = this.c[column];
      if (values.length !== this.size) throw new Error(`ListingBatch.push writes no ${column}`);
      return values.toString();
    });
  }

  /** Price history entries as (listing_id, price, changed_at) array literals. */
  historyParams(): string[] {
    return [this.h.listing_id.toString(), this.h.price.toString(), this.h.changed_at.toString()];
  }
}
