/**
 * One statement per batch of feed rows: insert new listings, update changed ones, leave
 * unchanged ones alone, and keep the price history, all keyed by (source, source_ref).
 *
 * - A row identical to the stored listing is not written at all (the ON CONFLICT ...
 *   WHERE clause), so re-importing a file changes nothing, not even `updated_at`.
 * - `updated_at` moves only when a public field changes: it is the API's sync cursor
 *   (`updated_after`), and a contact's new phone number is nothing a customer can see.
 * - A new price adds a price_history row dated from the import. A listing whose history
 *   was never written (it kept its first price until now) first gets that first price,
 *   dated from `listed_at`, so the history always starts at the beginning.
 * - A feed's own price_history is taken for listings seen for the first time only.
 * - With `foldRepeats`, an active row under a new reference whose fingerprint an active
 *   listing of the source carries already is a repeat (repeats.ts): not inserted, and
 *   returned with the reference of the listing it repeats.
 *
 * The CTEs all see the table as it was before the statement: `before` reads the old
 * price of each row this batch is about to change.
 */
import type pg from 'pg';
import { insertListingsFrom, type ListingBatch, TERM_COLUMNS, unnestListingsWithTerms } from './columns.js';

const insert = insertListingsFrom('$27');

const PUBLIC = [
  'title',
  'price',
  'city',
  'neighborhood',
  'surface',
  'bedrooms',
  'bathrooms',
  'type',
  'purpose',
  'status',
  'listed_at',
  'listed_at_known',
  'removed_at',
  'lat',
  'lng',
  ...TERM_COLUMNS,
];
const PRIVATE = ['contact_name', 'contact_phone', 'contact_email', 'street_address', 'raw_neighborhood'];
/** Derived columns follow their inputs (keys from names, price_per_m2 from price and surface, the fingerprint). */
const DERIVED = ['city_key', 'neighborhood_key', 'price_per_m2', 'fingerprint'];

/**
 * The new value of a column on conflict. A row without `listed_at` was stamped with the
 * import's time ($31, see ListingBatch.push) and marked undated: it keeps the date of the
 * import that first saw it, and a date once known stays known (a dated row makes a stored
 * undated listing dated).
 */
const incoming = (c: string) =>
  c === 'listed_at'
    ? `(CASE WHEN EXCLUDED.listed_at = $31::timestamptz THEN listings.listed_at ELSE EXCLUDED.listed_at END)`
    : c === 'listed_at_known'
      ? `(listings.listed_at_known OR EXCLUDED.listed_at_known)`
      : `EXCLUDED.${c}`;
const row = (table: string, cols: string[]) => `(${cols.map((c) => (table === 'EXCLUDED' ? incoming(c) : `${table}.${c}`)).join(', ')})`;

const UPSERT_SQL = `
WITH before AS (
  SELECT l.id, l.price, l.listed_at FROM listings l WHERE l.id = ANY($1::text[])
), folded AS (
  SELECT f.id, f.source_ref, k.source_ref AS kept_ref
  FROM unnest($1::text[], $22::text[], $26::text[], $14::text[]) AS f(id, source_ref, fingerprint, status)
  CROSS JOIN LATERAL (
    SELECT k.source_ref FROM listings k
    WHERE k.source = $27 AND k.fingerprint = decode(f.fingerprint, 'hex') AND k.status = 'active'
    LIMIT 1
  ) k
  WHERE $32::boolean AND f.status = 'active' AND NOT EXISTS (SELECT 1 FROM before b WHERE b.id = f.id)
), upserted AS (
  INSERT INTO listings ${insert.columns}
  SELECT ${insert.select} FROM ${unnestListingsWithTerms(33)}
  WHERE NOT EXISTS (SELECT 1 FROM folded WHERE folded.id = t.id)
  ON CONFLICT (source, source_ref) DO UPDATE SET
    ${[...PUBLIC, ...PRIVATE, ...DERIVED].map((c) => `${c} = ${incoming(c)}`).join(',\n    ')},
    updated_at = CASE WHEN ${row('listings', PUBLIC)} IS DISTINCT FROM ${row('EXCLUDED', PUBLIC)}
                      THEN EXCLUDED.updated_at ELSE listings.updated_at END
  WHERE ${row('listings', [...PUBLIC, ...PRIVATE])} IS DISTINCT FROM ${row('EXCLUDED', [...PUBLIC, ...PRIVATE])}
  RETURNING id, price, (xmax = 0) AS inserted
), repriced AS (
  SELECT u.id, u.price, b.price AS old_price, b.listed_at
  FROM upserted u JOIN before b ON b.id = u.id
  WHERE NOT u.inserted AND u.price <> b.price
), first_price AS (
  INSERT INTO price_history (listing_id, price, changed_at)
  SELECT r.id, r.old_price, r.listed_at FROM repriced r
  WHERE NOT EXISTS (SELECT 1 FROM price_history ph WHERE ph.listing_id = r.id)
  RETURNING 1
), new_price AS (
  INSERT INTO price_history (listing_id, price, changed_at)
  SELECT r.id, r.price, $31::timestamptz FROM repriced r
  RETURNING 1
), feed_history AS (
  INSERT INTO price_history (listing_id, price, changed_at)
  SELECT h.listing_id, h.price, h.changed_at
  FROM unnest($28::text[], $29::bigint[], $30::timestamptz[]) AS h(listing_id, price, changed_at)
  JOIN upserted u ON u.id = h.listing_id AND u.inserted
  RETURNING 1
)
SELECT count(*) FILTER (WHERE inserted)::int AS inserted,
       count(*) FILTER (WHERE NOT inserted)::int AS updated,
       (SELECT count(*) FROM new_price)::int AS repriced,
       (SELECT coalesce(json_agg(json_build_array(f.source_ref, f.kept_ref)), '[]'::json) FROM folded f) AS folded
FROM upserted`;

export interface BatchResult {
  inserted: number;
  updated: number;
  repriced: number;
  /** Repeats of stored listings, not inserted: [reference, reference of the listing it repeats]. */
  folded: Array<[string, string]>;
}

/** A pool (each batch on any free connection) or one client (a bulk load's transaction). */
export type Queryable = Pick<pg.Pool, 'query'>;

export async function upsertBatch(
  db: Queryable,
  source: string,
  batch: ListingBatch,
  now: Date,
  foldRepeats: boolean,
): Promise<BatchResult> {
  const params = [...batch.params(), source, ...batch.historyParams(), now, foldRepeats, ...batch.termsParams()];
  const { rows } = await db.query<BatchResult>(UPSERT_SQL, params);
  return rows[0];
}
