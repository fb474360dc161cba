/**
 * A listing's fields, once: for each, the column of `listings`, the name a feed gives it,
 * the name the API publishes it under, its type and whether it may be null. The importer's
 * column lists (server/ingest/columns.ts, upsert.ts, record.ts' feed header) and the public
 * row (server/api/listings/public-row.ts: search, detail, export, webhooks) are built from
 * it; what stays hand-written (prisma/schema.prisma, the contract's ZListing and feed
 * record) is checked against it by test/unit/listing-fields.test.ts.
 *
 * Adding a field: a line here, the migration and schema.prisma, the contract's field (for
 * a public one) and the feed record's rule (for a feed one), and the value in
 * `ListingBatch.push`; the tests name whatever was forgotten.
 */

/** How a column is stored, as the batch writes' `unnest()` arrays read it. */
export type FieldType = 'text' | 'bigint' | 'int' | 'float8' | 'bool' | 'timestamptz' | 'bytea' | EnumType;
/** PostgreSQL enums (prisma/schema.prisma), stored as their labels. */
type EnumType = 'PropertyType' | 'Purpose' | 'ListingStatus' | 'LandTitle' | 'Standing';

/**
 * What the importer does with a column on a feed row that changes a stored listing:
 * - `public`: written; a change moves `updated_at` (the API's sync cursor);
 * - `private`: written; a change moves nothing the API shows;
 * - `derived`: worked out from other columns (keys, price per m², fingerprint), follows them;
 * - `key`: identifies the row (never rewritten); `stamp`: `updated_at`, set by the import;
 * - `constant`: one value for every row (the currency, the source);
 * - `trigger`: kept by the database itself (the search's point);
 * - `none`: not a column (read from a feed and dropped, or worked out when read).
 */
export type FieldRole = 'public' | 'private' | 'derived' | 'key' | 'stamp' | 'constant' | 'trigger' | 'none';

export interface ListingField {
  /** The column of `listings` (and `sample.listings`); null: not stored. */
  readonly column: string | null;
  /** The feed's field (NDJSON key, CSV header, column-map target); null: no feed gives it. */
  readonly feed: string | null;
  /** The public Listing's key it appears under; null: private. Two columns may share one (lat, lng → location). */
  readonly public: string | null;
  readonly type: FieldType;
  /** Whether the column (else the public value) may be null. */
  readonly nullable: boolean;
  readonly role: FieldRole;
}

const f = (
  column: string | null,
  feed: string | null,
  pub: string | null,
  type: FieldType,
  nullable: boolean,
  role: FieldRole,
): ListingField => ({ column, feed, public: pub, type, nullable, role });

/** The table, in the order of a feed's columns (`admin generate` writes them so), then what no feed gives. */
export const LISTING_FIELDS: readonly ListingField[] = [
  f('source_ref', 'source_ref', null, 'text', false, 'key'),
  f('title', 'title', 'title', 'text', false, 'public'),
  f('price', 'price', 'price', 'bigint', false, 'public'),
  f('currency', 'currency', 'currency', 'text', false, 'constant'),
  f('city', 'city', 'city', 'text', false, 'public'),
  f('neighborhood', 'neighborhood', 'neighborhood', 'text', true, 'public'),
  f('surface', 'surface', 'surface', 'float8', true, 'public'),
  f('bedrooms', 'bedrooms', 'bedrooms', 'int', true, 'public'),
  f('bathrooms', 'bathrooms', 'bathrooms', 'int', true, 'public'),
  f('type', 'type', 'type', 'PropertyType', false, 'public'),
  f('purpose', 'purpose', 'purpose', 'Purpose', false, 'public'),
  f('status', 'status', 'status', 'ListingStatus', false, 'public'),
  f('listed_at', 'listed_at', 'listed_at', 'timestamptz', false, 'public'),
  f('updated_at', 'updated_at', 'updated_at', 'timestamptz', false, 'stamp'),
  f('removed_at', 'removed_at', 'removed_at', 'timestamptz', true, 'public'),
  f('contact_name', 'contact_name', null, 'text', true, 'private'),
  f('contact_phone', 'contact_phone', null, 'text', true, 'private'),
  f('contact_email', 'contact_email', null, 'text', true, 'private'),
  f('street_address', 'street_address', null, 'text', true, 'private'),
  f('lat', 'lat', 'location', 'float8', true, 'public'),
  f('lng', 'lng', 'location', 'float8', true, 'public'),
  f('furnished', 'furnished', 'furnished', 'bool', true, 'public'),
  f('advance_months', 'advance_months', 'advance_months', 'int', true, 'public'),
  f('deposit_months', 'deposit_months', 'deposit_months', 'int', true, 'public'),
  f('land_title', 'land_title', 'land_title', 'LandTitle', true, 'public'),
  f('standing', 'standing', 'standing', 'Standing', true, 'public'),
  // Read for the standing (standing.ts) when the feed gives no standing, never kept.
  f(null, 'description', null, 'text', true, 'none'),
  f('id', null, 'id', 'text', false, 'key'),
  f('city_key', null, null, 'text', false, 'derived'),
  f('neighborhood_key', null, null, 'text', true, 'derived'),
  f('price_per_m2', null, 'price_per_m2', 'int', true, 'derived'),
  f('listed_at_known', null, 'listed_at_precision', 'bool', false, 'public'),
  f('raw_neighborhood', null, null, 'text', true, 'private'),
  f('fingerprint', null, null, 'bytea', true, 'derived'),
  f('source', null, null, 'text', false, 'constant'),
  f('geo_lat', null, null, 'float8', true, 'trigger'),
  f('geo_lng', null, null, 'float8', true, 'trigger'),
  f(null, null, 'days_on_market', 'int', false, 'none'),
];

const stored = LISTING_FIELDS.filter((x) => x.column !== null);
const columnsOf = (role: FieldRole) => stored.filter((x) => x.role === role).map((x) => x.column!);

/** A feed row's fields, in the order `admin generate` writes them (its CSV header); NDJSON may add `price_history`. */
export const FEED_FIELDS = LISTING_FIELDS.filter((x) => x.feed !== null).map((x) => x.feed!);

/** Columns whose change is a change a customer sees (the importer moves `updated_at` for them). */
export const PUBLIC_COLUMNS_WRITTEN = columnsOf('public');
/** Columns the importer writes that the API never shows. */
export const PRIVATE_COLUMNS = columnsOf('private');
/** Columns worked out from the others, which follow them. */
export const DERIVED_COLUMNS = columnsOf('derived');

/** Every column of `listings`, in the table's order. */
export const LISTING_COLUMNS = stored.map((x) => x.column!);

/** The public Listing's keys (any order; the contract's ZListing gives the answer's). */
export const PUBLIC_NAMES = [...new Set(LISTING_FIELDS.filter((x) => x.public !== null).map((x) => x.public!))];

/** The field of a column (throws for a name the table lacks: a typo in a caller). */
export function fieldOf(column: string): ListingField {
  const field = stored.find((x) => x.column === column);
  if (!field) throw new Error(`listings has no column ${column} (server/domain/listing/fields.ts)`);
  return field;
}
