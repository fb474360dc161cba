/**
 * Loads generated listings straight into the database, the fast path for demos, tests
 * and benchmarks: batches of a few thousand rows, each one `INSERT ... SELECT FROM
 * unnest(...)`, several batches in flight on the pool's connections. Seeding is
 * idempotent: a listing already there (same source and reference) is skipped, so the
 * same seed run twice, or a larger count after a smaller one, only adds what is missing.
 */
import type pg from 'pg';
import { refreshMarketFigures } from '../market/refresh.js';
import {
  emptyColumns, type HistoryColumns, insertListingsFrom, listingColumnArrays, pushRow, UNNEST_LISTINGS,
} from './columns.js';
import { DEFAULT_SOURCE, generateListings } from './generator.js';
import { InFlight } from './in-flight.js';

export interface SeedOptions {
  listings: number;
  seed?: number;
  /** The generation instant (dates fall in the two years before it). Default: now. */
  now?: Date;
  source?: string;
  onProgress?: (done: number, total: number) => void;
}

const BATCH_ROWS = 5_000;

const insert = insertListingsFrom('$23');
const SEED_SQL = `
WITH inserted AS (
  INSERT INTO listings ${insert.columns}
  SELECT ${insert.select} FROM ${UNNEST_LISTINGS}
  ON CONFLICT DO NOTHING
  RETURNING id
), history AS (
  INSERT INTO price_history (listing_id, price, changed_at)
  SELECT h.listing_id, h.price, h.changed_at
  FROM unnest($24::text[], $25::bigint[], $26::timestamptz[]) AS h(listing_id, price, changed_at)
  JOIN inserted ON inserted.id = h.listing_id
  RETURNING 1
)
SELECT (SELECT count(*) FROM inserted)::int AS inserted`;

/** Concurrent batches: enough to overlap generation with writes, never more than the pool. */
function concurrencyFor(pool: pg.Pool): number {
  return Math.max(1, Math.min(4, pool.options.max ?? 4));
}

export async function seedListings(
  pool: pg.Pool,
  opts: SeedOptions,
): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  const source = opts.source ?? DEFAULT_SOURCE;
  const now = opts.now ?? new Date();
  const total = opts.listings;
  const inFlight = new InFlight(concurrencyFor(pool));
  let rows = 0;
  let done = 0;

  let columns = emptyColumns();
  let history: HistoryColumns = { listing_id: [], price: [], changed_at: [] };
  const flush = async () => {
    const params = [...listingColumnArrays(columns), source, history.listing_id, history.price, history.changed_at];
    const size = columns.id.length;
    columns = emptyColumns();
    history = { listing_id: [], price: [], changed_at: [] };
    await inFlight.add(async () => {
      const { rows: result } = await pool.query<{ inserted: number }>(SEED_SQL, params);
      rows += result[0].inserted;
      done += size;
      opts.onProgress?.(done, total);
    });
  };

  for (const record of generateListings({ count: total, seed: opts.seed, now, source })) {
    pushRow(columns, history, source, record);
    if (columns.id.length >= BATCH_ROWS) await flush();
  }
  if (columns.id.length > 0) await flush();
  await inFlight.drain();

  await refreshMarketFigures(pool, now);
  return { rows, seconds: (performance.now() - started) / 1000 };
}
