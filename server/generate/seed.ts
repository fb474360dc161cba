/**
 * Loads generated listings straight into the database, the fast path for demos, tests
 * and benchmarks: batches of a few thousand rows, each one `INSERT ... SELECT FROM
 * unnest(...)`, with the next batch generated while the database writes the last one.
 * A large seed into a small table is a bulk load (secondary indexes rebuilt after, see
 * bulk-load.ts). Seeding is idempotent: a listing already there (same source and
 * reference) is skipped, so the same seed run twice, or a larger count after a smaller
 * one, only adds what is missing.
 *
 * The generated rows go through the importer's own steps (validate.ts: quarter names
 * resolved, titles written, terms settled; repeats folded as import.ts folds them: an
 * active row repeating an earlier advert is not stored), so seeded data is what importing
 * the same feed would store.
 */
import type pg from 'pg';
import { refreshMarketFigures } from '../ingest/market-refresh.js';
import { estimatedListings, shouldBulkLoad, withSecondaryIndexesRebuilt } from '../ingest/bulk-load.js';
import { FIRST_FREE_PARAM, fingerprintOf, insertListingsFrom, ListingBatch, unnestListings } from '../ingest/columns.js';
import { DEFAULT_SOURCE, generateListings } from './generator.js';
import { InFlight } from '../ingest/in-flight.js';
import { AdvertsSeen } from '../ingest/repeats.js';
import type { Queryable } from '../ingest/upsert.js';
import { validateRow } from '../ingest/validate.js';

export interface SeedOptions {
  listings: number;
  seed?: number;
  /** The generation instant (dates fall in the 36 months before it). Default: now. */
  now?: Date;
  source?: string;
  /** Share of generated rows repeating an earlier advert (generator.ts). Default: the generator's. */
  repeats?: number;
  onProgress?: (done: number, total: number) => void;
}

const BATCH_ROWS = 5_000;
/** Batches in flight on the pool; more does not help on a small server, fewer idles it. */
const CONCURRENCY = 2;

/** The source, then the price history's three arrays, after the batch's arrays. */
const [SOURCE, HISTORY_IDS, HISTORY_PRICES, HISTORY_DATES] = [0, 1, 2, 3].map((i) => `$${FIRST_FREE_PARAM + i}`);
const insert = insertListingsFrom(SOURCE);
const SEED_SQL = `
WITH inserted AS (
  INSERT INTO listings ${insert.columns}
  SELECT ${insert.select} FROM ${unnestListings()}
  ON CONFLICT DO NOTHING
  RETURNING id
), history AS (
  INSERT INTO price_history (listing_id, price, changed_at)
  SELECT h.listing_id, h.price, h.changed_at
  FROM unnest(${HISTORY_IDS}::text[], ${HISTORY_PRICES}::bigint[], ${HISTORY_DATES}::timestamptz[]) AS h(listing_id, price, changed_at)
  JOIN inserted ON inserted.id = h.listing_id
  RETURNING 1
)
SELECT (SELECT count(*) FROM inserted)::int AS inserted`;

interface Seeded {
  /** Listings inserted (those already there are skipped). */
  rows: number;
  /** Generated rows not stored: active repeats of an earlier advert. */
  folded: number;
}

async function insertGenerated(db: Queryable, concurrency: number, opts: SeedOptions & { source: string; now: Date }): Promise<Seeded> {
  const inFlight = new InFlight(concurrency);
  let rows = 0;
  let folded = 0;
  let done = 0;
  let batch = new ListingBatch(opts.source);
  const flush = async () => {
    const params = [...batch.params(), opts.source, ...batch.historyParams()];
    const size = batch.size;
    batch = new ListingBatch(opts.source);
    await inFlight.add(async () => {
      const { rows: result } = await db.query<{ inserted: number }>(SEED_SQL, params);
      rows += result[0].inserted;
      done += size;
      opts.onProgress?.(done, opts.listings);
    });
  };
  const adverts = new AdvertsSeen();
  const rowsOf = generateListings({ count: opts.listings, seed: opts.seed, now: opts.now, source: opts.source, repeats: opts.repeats });
  for (const row of rowsOf) {
    const checked = validateRow(row);
    if (!checked.ok) throw new Error(`generated row ${row.source_ref} breaks the import rules: ${checked.reason}`);
    const record = checked.record;
    const fingerprint = fingerprintOf(record);
    if (record.status === 'active' && adverts.repeated(fingerprint, record.source_ref) !== undefined) {
      done++;
      folded++;
      continue;
    }
    batch.push(record, undefined, fingerprint);
    if (batch.size >= BATCH_ROWS) await flush();
  }
  if (batch.size > 0) await flush();
  await inFlight.drain();
  return { rows, folded };
}

export async function seedListings(pool: pg.Pool, opts: SeedOptions): Promise<Seeded & { seconds: number }> {
  const started = performance.now();
  const run = { ...opts, source: opts.source ?? DEFAULT_SOURCE, now: opts.now ?? new Date() };
  const seeded = shouldBulkLoad(opts.listings, await estimatedListings(pool))
    ? // One transaction, one connection: a single batch in flight while the next is generated.
      await withSecondaryIndexesRebuilt(pool, (client) => insertGenerated(client, 1, run))
    : await insertGenerated(pool, Math.min(CONCURRENCY, pool.options.max ?? CONCURRENCY), run);
  await refreshMarketFigures(pool, run.now);
  return { ...seeded, seconds: (performance.now() - started) / 1000 };
}
