/**
 * A batch of listings for the `INSERT ... SELECT FROM unnest($1::text[], ...)` writes of
 * seed and import: one array parameter per column, one statement for thousands of rows
 * where row-by-row inserts would need a round trip each. Also computes what Mboa derives
 * from a feed row: its public id, the match keys and the price per m².
 */
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

/** The listing columns of `unnest()`, in the order of `ListingBatch.params()` ($1..$26). */
const UNNEST_ARRAYS = `
  $1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::float8[],
  $9::int[], $10::int[], $11::text[], $12::text[], $13::int[], $14::text[], $15::timestamptz[],
  $16::timestamptz[], $17::timestamptz[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[],
  $23::text[], $24::float8[], $25::float8[], $26::text[]`;
const UNNEST_NAMES = `id, title, price, city, city_key, neighborhood, neighborhood_key, surface, bedrooms, bathrooms, type,
       purpose, price_per_m2, status, listed_at, updated_at, removed_at, contact_name, contact_phone,
       contact_email, street_address, source_ref, raw_neighborhood, lat, lng, fingerprint`;

/**
 * The same with the advert's terms and whether its date is known
 * (`ListingBatch.termsParams()`) as five more arrays, from `$first` on: furnished,
 * advance_months, deposit_months, land_title, listed_at_known.
 */
export function unnestListingsWithTerms(first: number): string {
  const [f, a, d, l, k] = [first, first + 1, first + 2, first + 3, first + 4];
  return `unnest(${UNNEST_ARRAYS},
  $${f}::bool[], $${a}::int[], $${d}::int[], $${l}::text[], $${k}::bool[]
) AS t(${UNNEST_NAMES}, furnished, advance_months, deposit_months, land_title, listed_at_known)`;
}

/** The advert-term columns (advert-terms.ts in the contract names their public meaning). */
export const TERM_COLUMNS = ['furnished', 'advance_months', 'deposit_months', 'land_title'];

/**
 * The INSERT column list and the matching SELECT over `t` (unnestListingsWithTerms), with
 * `sourceParam` as the source.
 */
export function insertListingsFrom(sourceParam: string): { columns: string; select: string } {
  const termValues = `t.furnished, t.advance_months, t.deposit_months, t.land_title::"LandTitle"`;
  return {
    columns: `(id, title, price, currency, city, city_key, neighborhood, neighborhood_key, surface, bedrooms,
      bathrooms, type, purpose, price_per_m2, status, listed_at, updated_at, removed_at, contact_name,
      contact_phone, contact_email, street_address, source, source_ref, raw_neighborhood, lat, lng, fingerprint,
      ${TERM_COLUMNS.join(', ')}, listed_at_known)`,
    select: `t.id, t.title, t.price, 'XAF', t.city, t.city_key, t.neighborhood, t.neighborhood_key, t.surface,
      t.bedrooms, t.bathrooms, t.type::"PropertyType", t.purpose::"Purpose", t.price_per_m2,
      t.status::"ListingStatus", t.listed_at, t.updated_at, t.removed_at, t.contact_name, t.contact_phone,
      t.contact_email, t.street_address, ${sourceParam}, t.source_ref, t.raw_neighborhood, t.lat, t.lng,
      decode(t.fingerprint, 'hex'), ${termValues}, t.listed_at_known`,
  };
}

export class ListingBatch {
  /** One array per column, keys in the order of the unnest() arrays. */
  private readonly c = {
    id: new ArrayLiteral(),
    title: new ArrayLiteral(),
    price: new ArrayLiteral(),
    city: new ArrayLiteral(),
    city_key: new ArrayLiteral(),
    neighborhood: new ArrayLiteral(),
    neighborhood_key: new ArrayLiteral(),
    surface: new ArrayLiteral(),
    bedrooms: new ArrayLiteral(),
    bathrooms: new ArrayLiteral(),
    type: new ArrayLiteral(),
    purpose: new ArrayLiteral(),
    price_per_m2: new ArrayLiteral(),
    status: new ArrayLiteral(),
    listed_at: new ArrayLiteral(),
    updated_at: new ArrayLiteral(),
    removed_at: new ArrayLiteral(),
    contact_name: new ArrayLiteral(),
    contact_phone: new ArrayLiteral(),
    contact_email: new ArrayLiteral(),
    street_address: new ArrayLiteral(),
    source_ref: new ArrayLiteral(),
    raw_neighborhood: new ArrayLiteral(),
    lat: new ArrayLiteral(),
    lng: new ArrayLiteral(),
    fingerprint: new ArrayLiteral(),
  };
  /** The advert's terms and listed_at_known (unnestListingsWithTerms' last five arrays). */
  private readonly t = {
    furnished: new ArrayLiteral(),
    advance_months: new ArrayLiteral(),
    deposit_months: new ArrayLiteral(),
    land_title: new ArrayLiteral(),
    listed_at_known: new ArrayLiteral(),
  };
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
    const t = this.t;
    t.furnished.text(r.furnished == null ? null : String(r.furnished));
    t.advance_months.number(r.advance_months ?? null);
    t.deposit_months.number(r.deposit_months ?? null);
    t.land_title.text(r.land_title ?? null);
    t.listed_at_known.text(String(r.listed_at != null));
    if (r.price_history) {
      for (const entry of r.price_history) {
        this.h.listing_id.text(id);
        this.h.price.number(entry.price);
        this.h.changed_at.text(entry.date);
      }
    }
  }

  /** $1..$26 in the order of the unnest() arrays (unnestListingsWithTerms). */
  params(): string[] {
    return Object.values(this.c).map((a) => a.toString());
  }

  /** furnished, advance_months, deposit_months, land_title, listed_at_known (unnestListingsWithTerms). */
  termsParams(): string[] {
    return Object.values(this.t).map((a) => a.toString());
  }

  /** Price history entries as (listing_id, price, changed_at) array literals. */
  historyParams(): string[] {
    return [this.h.listing_id.toString(), this.h.price.toString(), this.h.changed_at.toString()];
  }
}
