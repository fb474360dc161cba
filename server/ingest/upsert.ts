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
import { DERIVED_COLUMNS, PRIVATE_COLUMNS, PUBLIC_COLUMNS_WRITTEN } from '../domain/listing/fields.js';
import { batchParam, FIRST_FREE_PARAM, insertListingsFrom, type ListingBatch, unnestListings } from './columns.js';

/** The statement's own parameters, after the batch's arrays (`upsertBatch` passes them in this order). */
const [SOURCE, HISTORY_IDS, HISTORY_PRICES, HISTORY_DATES, NOW, FOLD] = [0, 1, 2, 3, 4, 5].map((i) => `$${FIRST_FREE_PARAM + i}`);

const insert = insertListingsFrom(SOURCE);

/** Public columns (a change moves `updated_at`), private ones, and those derived from them (fields.ts). */
const PUBLIC = PUBLIC_COLUMNS_WRITTEN;
const PRIVATE = PRIVATE_COLUMNS;
const DERIVED = DERIVED_COLUMNS;

/**
 * The new value of a column on conflict. A row without `listed_at` was stamped with the
 * import's time (NOW, see ListingBatch.push) and marked undated: it keeps the date of the
 * import that first saw it, and a date once known stays known (a dated row makes a stored
 * undated listing dated).
 */
const incoming = (c: string) =>
  c === 'listed_at'
    ? `(CASE WHEN EXCLUDED.listed_at = ${NOW}::timestamptz THEN listings.listed_at ELSE EXCLUDED.listed_at END)`
    : c === 'listed_at_known'
      ? `(listings.listed_at_known OR EXCLUDED.listed_at_known)`
      : `EXCLUDED.${c}`;
const row = (table: string, cols: string[]) => `(${cols.map((c) => (table === 'EXCLUDED' ? incoming(c) : `${table}.${c}`)).join(', ')})`;

const UPSERT_SQL = `
WITH before AS (
  SELECT l.id, l.price, l.listed_at FROM listings l WHERE l.id = ANY(${batchParam('id')}::text[])
), folded AS (
  SELECT f.id, f.source_ref, k.source_ref AS kept_ref
  FROM unnest(${['id', 'source_ref', 'fingerprint', 'status'].map((c) => `${batchParam(c)}::text[]`).join(', ')}) AS f(id, source_ref, fingerprint, status)
  CROSS JOIN LATERAL (
    SELECT k.source_ref FROM listings k
    WHERE k.source = ${SOURCE} AND k.fingerprint = decode(f.fingerprint, 'hex') AND k.status = 'active'
    LIMIT 1
  ) k
  WHERE ${FOLD}::boolean AND f.status = 'active' AND NOT EXISTS (SELECT 1 FROM before b WHERE b.id = f.id)
), upserted AS (
  INSERT INTO listings ${insert.columns}
  SELECT ${insert.select} FROM ${unnestListings()}
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
  SELECT r.id, r.price, ${NOW}::timestamptz FROM repriced r
  RETURNING 1
), feed_history AS (
  INSERT INTO price_history (listing_id, price, changed_at)
  SELECT h.listing_id, h.price, h.changed_at
  FROM unnest(${HISTORY_IDS}::text[], ${HISTORY_PRICES}::bigint[], ${HISTORY_DATES}::timestamptz[]) AS h(listing_id, price, changed_at)
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
  const params = [...batch.params(), source, ...batch.historyParams(), now, foldRepeats];
  const { rows } = await db.query<BatchResult>(UPSERT_SQL, params);
  return rows[0];
}
