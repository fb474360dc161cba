/**
 * The rows plausibility.ts held, for operators: listed with their reasons, and released
 * into the listings (then served and counted like any other) when the price is right
 * after all. A released row is not held again at the same price.
 */
import type pg from 'pg';
import { fingerprintOf } from './columns.js';
import { refreshMarketFigures } from './market-refresh.js';
import { PartitionedWriter } from './partitioned-writer.js';
import type { StoredRecord } from './record.js';

export interface HeldListing {
  source: string;
  source_ref: string;
  price: number;
  reason: string;
  held_at: string;
  released_at: string | null;
}

export async function listHeld(pool: pg.Pool, opts: { source?: string; released?: boolean } = {}): Promise<HeldListing[]> {
  const { rows } = await pool.query<HeldListing & { price: string; held_at: Date; released_at: Date | null }>(
    `SELECT source, source_ref, price, reason, held_at, released_at FROM held_listings
     WHERE ($1::text IS NULL OR source = $1) AND (released_at IS NOT NULL) = $2
     ORDER BY source, held_at DESC, source_ref`,
    [opts.source ?? null, opts.released ?? false],
  );
  return rows.map((r) => ({
    ...r,
    price: Number(r.price),
    held_at: r.held_at.toISOString(),
    released_at: r.released_at?.toISOString() ?? null,
  }));
}

export class HeldError extends Error {}

/**
 * Writes the held rows `refs` of `source` (all of them with `all`) into the listings and
 * marks them released; the market figures follow. Returns the references released.
 */
export async function releaseHeld(pool: pg.Pool, source: string, refs: string[], all = false, now = new Date()): Promise<string[]> {
  const { rows } = await pool.query<{ source_ref: string; record: StoredRecord }>(
    `SELECT source_ref, record FROM held_listings WHERE source = $1 AND released_at IS NULL AND ($2 OR source_ref = ANY($3::text[]))`,
    [source, all, refs],
  );
  const found = new Set(rows.map((r) => r.source_ref));
  const missing = refs.filter((r) => !found.has(r));
  if (missing.length > 0) {
    throw new HeldError(
      `no held row ${missing.map((m) => JSON.stringify(m)).join(', ')} for source ${source} (see: npm run admin -- held list --source ${source})`,
    );
  }
  if (rows.length === 0) return [];
  const writer = new PartitionedWriter({ db: pool, source, now, partitions: 1, batchRows: 1_000 });
  for (const r of rows) await writer.add(r.record, 0, fingerprintOf(r.record));
  await writer.finish();
  await pool.query(`UPDATE held_listings SET released_at = $3 WHERE source = $1 AND source_ref = ANY($2::text[])`, [
    source,
    rows.map((r) => r.source_ref),
    now,
  ]);
  await refreshMarketFigures(pool);
  return rows.map((r) => r.source_ref).sort();
}
