/**
 * The public columns of a listing, and their mapping to the contract's Listing. Private
 * columns (contacts, street address, source) are never selected for the API. Both are built
 * from the listing's field table (server/domain/listing/fields.ts): a field whose public
 * value is its column's (converted by its type only) needs nothing here; the few worked out
 * (amounts, location, date precision, days on market) are written out below.
 */
import { type Currency, fromXaf } from '../../../contract/currency.js';
import { type TListing, type TLocation, ZListing } from '../../../contract/schemas.js';
import { type ListingField, LISTING_FIELDS } from './fields.js';
import { GAZETTEER } from '../places/gazetteer.js';

/** The centroid of the listing's quarter or sub-quarter (the gazetteer's, in `public`). */
const NEIGHBORHOOD_POINT = `(SELECT ARRAY[q.lat, q.lng] FROM public.neighborhoods q WHERE q.city_key = l.city_key AND q.name = l.neighborhood)`;

/** The columns the API publishes (fields.ts), the city's key (the location's fallback) and what is worked out. */
const PUBLISHED = LISTING_FIELDS.filter((f) => f.column !== null && f.public !== null);
export const PUBLIC_COLUMNS = `${PUBLISHED.map((f) => `l.${f.column}`).join(', ')}, l.city_key, ${NEIGHBORHOOD_POINT} AS neighborhood_point,
  floor(extract(epoch FROM (coalesce(l.removed_at, now()) - l.listed_at)) / 86400)::int AS days_on_market`;

/**
 * The Listing's keys in the contract's order (the answer's, and the export line's); the
 * optional `distance_m` is the geographic search's, added by it.
 */
const LISTING_KEYS = (Object.keys(ZListing.shape) as Array<keyof typeof ZListing.shape>).filter((k) => !ZListing.shape[k].isOptional());
/** The public fields that are their column as it is, by public name. */
const PLAIN = new Map<string, ListingField>(PUBLISHED.filter((f) => f.public === f.column).map((f) => [f.public!, f]));

export interface PublicRow {
  id: string;
  title: string;
  price: string | number;
  currency: string;
  city: string;
  city_key: string;
  neighborhood: string | null;
  lat: number | null;
  lng: number | null;
  neighborhood_point: [number, number] | null;
  surface: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  type: TListing['type'];
  purpose: TListing['purpose'];
  price_per_m2: number | null;
  status: TListing['status'];
  listed_at: Date;
  listed_at_known: boolean;
  updated_at: Date;
  removed_at: Date | null;
  days_on_market: number;
  furnished: boolean | null;
  advance_months: number | null;
  deposit_months: number | null;
  land_title: TListing['land_title'];
  standing: TListing['standing'];
}

/**
 * The listing's place: the feed's point (stored rounded to about 100 m by the importer),
 * else its quarter's centroid, else its city's; null in a city outside the gazetteer.
 */
function locationOf(r: PublicRow): TLocation | null {
  if (r.lat !== null && r.lng !== null) return { lat: r.lat, lng: r.lng, precision: 'street' };
  if (r.neighborhood_point) return { lat: r.neighborhood_point[0], lng: r.neighborhood_point[1], precision: 'neighborhood' };
  const city = GAZETTEER.get(r.city_key);
  return city ? { lat: city.centroid.lat, lng: city.centroid.lng, precision: 'city' } : null;
}

/** The same location as JSON text, in SQL (the export): same choice, same numbers. */
function locationJsonSql(): string {
  const point = (lat: string, lng: string, precision: string) =>
    `'{"lat":' || ${lat} || ',"lng":' || ${lng} || ',"precision":"${precision}"}'`;
  const cities = [...GAZETTEER.values()]
    .map((c) => `WHEN '${c.key}' THEN '${JSON.stringify({ lat: c.centroid.lat, lng: c.centroid.lng, precision: 'city' })}'`)
    .join(' ');
  return `CASE WHEN l.lat IS NOT NULL AND l.lng IS NOT NULL THEN ${point('l.lat::text', 'l.lng::text', 'street')}
    ELSE coalesce((SELECT ${point('q.lat::text', 'q.lng::text', 'neighborhood')} FROM public.neighborhoods q
                   WHERE q.city_key = l.city_key AND q.name = l.neighborhood),
                  CASE l.city_key ${cities} ELSE 'null' END) END`;
}

type Row = PublicRow & Record<string, unknown>;
/** The public values worked out from several columns, or converted to the caller's currency. */
const WORKED_OUT: Partial<Record<keyof TListing, (r: Row, currency: Currency) => unknown>> = {
  price: (r, currency) => fromXaf(r.price, currency),
  currency: (_r, currency) => currency,
  location: (r) => locationOf(r),
  price_per_m2: (r, currency) => (r.price_per_m2 === null ? null : fromXaf(r.price_per_m2, currency)),
  listed_at_precision: (r) => (r.listed_at_known ? 'day' : 'unknown'),
  days_on_market: (r) => Math.max(0, r.days_on_market),
};

/** A column's public value: timestamps as ISO text, the rest as PostgreSQL returned it. */
function plainValue(field: ListingField): (r: Row) => unknown {
  const column = field.column!;
  return field.type === 'timestamptz' ? (r) => (r[column] as Date | null)?.toISOString() ?? null : (r) => r[column];
}

/** How each key of the Listing is filled, in the contract's order; a key the table cannot fill stops the start. */
const FILL = LISTING_KEYS.map((key) => {
  const worked = WORKED_OUT[key];
  const plain = PLAIN.get(key);
  if (!worked && !plain) throw new Error(`the Listing's ${key} has no column (server/domain/listing/fields.ts)`);
  return [key, worked ?? plainValue(plain!)] as const;
});

/** The contract's Listing, amounts in `currency` (converted from the stored XAF). */
export function toListing(r: PublicRow, currency: Currency): TListing {
  const listing: Record<string, unknown> = {};
  for (const [key, fill] of FILL) listing[key] = fill(r as Row, currency);
  return listing as TListing;
}

/** A timestamp as JSON's `toISOString()` writes it (UTC, milliseconds, `Z`). */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** An XAF column in `currency`, by fromXaf's rule (half up to the cent, in exact arithmetic). */
function amount(column: string, currency: Currency): string {
  if (currency === 'XAF') return column;
  return `(floor((2 * ${column}::numeric * 100000 + 655957) / 1311914) / 100)::float8`;
}

/**
 * The same Listing as `toListing`, built by PostgreSQL as one JSON text per row: for the
 * bulk export, where mapping a million rows in the server would be the bottleneck. The
 * same fields in the same order, named one by one (never a row spread); a test holds
 * each line equal to the search's item for the same listing, in both currencies.
 *
 * Written as a concatenation, compact like the API's other answers: a third less of the
 * database's time than `json_build_object`, which works out each argument's type on every
 * row (1M listings: 2.9 s against 4.4 s). Strings go through `to_json` (escaped), numbers
 * through `to_json` too where a non-finite value must not make invalid JSON; enum labels
 * and timestamps hold no character JSON escapes.
 */
export function listingJsonSql(currency: Currency): string {
  const nullable = (sql: string) => `coalesce((${sql})::text, 'null')`;
  const quoted = (sql: string) => `'"' || ${sql} || '"'`;
  const worked: Partial<Record<keyof TListing, string>> = {
    price: `(${amount('l.price', currency)})::text`,
    currency: `'"${currency}"'`,
    location: locationJsonSql(),
    price_per_m2: nullable(amount('l.price_per_m2', currency)),
    listed_at_precision: `CASE WHEN l.listed_at_known THEN '"day"' ELSE '"unknown"' END`,
    days_on_market: 'greatest(0, floor(extract(epoch FROM (coalesce(l.removed_at, now()) - l.listed_at)) / 86400)::int)::text',
  };
  /** A column as JSON by its type: text escaped, numbers and booleans as text, enum labels and timestamps quoted. */
  const plain = (f: ListingField): string => {
    const col = `l.${f.column}`;
    const value =
      f.type === 'text' || f.type === 'float8'
        ? `to_json(${col})`
        : f.type === 'int' || f.type === 'bigint' || f.type === 'bool'
          ? col
          : quoted(f.type === 'timestamptz' ? iso(col) : col);
    if (!f.nullable) return f.type === 'int' || f.type === 'bigint' || f.type === 'bool' ? `${col}::text` : value;
    return value.startsWith("'") ? `CASE WHEN ${col} IS NULL THEN 'null' ELSE ${value} END` : nullable(value);
  };
  const fields = LISTING_KEYS.map((key) => [key, worked[key] ?? plain(PLAIN.get(key)!)] as const);
  return `'{' || ${fields.map(([name, sql], i) => `'${i ? ',' : ''}"${name}":' || ${sql}`).join(' || ')} || '}'`;
}
