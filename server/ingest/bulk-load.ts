/**
 * Large first loads (a million listings into an empty database) are dominated by index
 * maintenance: `listings` has seven secondary indexes for the search orders, and
 * updating them row by row costs several times the insert itself. A bulk load therefore
 * runs in one transaction that drops those indexes, loads, and recreates them from their
 * own definitions, which PostgreSQL builds by sorting, far faster.
 *
 * The price: `listings` is locked for the whole load (reads wait). That is why it is only
 * chosen for a load at least twice the size of the table (a first load, a new market),
 * never for the routine re-import of a feed. Being one transaction, a failed bulk load
 * leaves the table and its indexes exactly as they were.
 */
import type pg from 'pg';
import { inTransaction } from '../platform/transaction.js';

/** Loads of fewer rows than this gain too little to lock the table for. */
export const BULK_MIN_ROWS = 100_000;

export function shouldBulkLoad(incomingRows: number, existingRows: number): boolean {
  return incomingRows >= BULK_MIN_ROWS && incomingRows >= 2 * existingRows;
}

/**
 * The table's size: PostgreSQL's estimate, instant and exact enough for the choice; a
 * real count when the table was never analysed (the estimate is then -1, and taking it
 * for 0 could lock a large table for a modest import).
 */
export async function estimatedListings(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>("SELECT reltuples::bigint::int AS n FROM pg_class WHERE oid = 'listings'::regclass");
  const estimate = rows[0]?.n ?? -1;
  if (estimate >= 0) return estimate;
  const { rows: counted } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings');
  return counted[0].n;
}

/** Indexes that neither the primary key nor ON CONFLICT (source, source_ref) needs. */
const SECONDARY_INDEXES = `
SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
WHERE i.indrelid = 'listings'::regclass AND NOT i.indisunique AND NOT i.indisprimary
ORDER BY c.relname`;

export async function withSecondaryIndexesRebuilt<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  /** Receives the seconds spent rebuilding the indexes. */
  onRebuilt?: (seconds: number) => void,
  /** Indexes kept up to date during the load (the load reads through them). */
  keep: readonly string[] = [],
): Promise<T> {
  return inTransaction(pool, async (client) => {
    await client.query("SET LOCAL maintenance_work_mem = '256MB'");
    // Taken first and explicitly, so that no reader slips in between the drops.
    await client.query('LOCK TABLE listings IN ACCESS EXCLUSIVE MODE');
    const { rows: all } = await client.query<{ name: string; definition: string }>(SECONDARY_INDEXES);
    const indexes = all.filter((index) => !keep.includes(index.name));
    for (const index of indexes) await client.query(`DROP INDEX ${quoteIdent(index.name)}`);
    const result = await work(client);
    const rebuildStart = performance.now();
    for (const index of indexes) await client.query(index.definition);
    onRebuilt?.((performance.now() - rebuildStart) / 1000);
    return result;
  });
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
