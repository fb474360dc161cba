/**
 * The bulk path (secondary indexes dropped, rows loaded, indexes recreated, in one
 * transaction): it must load exactly what the incremental path loads and leave the
 * table's indexes as they were. Forced with `bulk: 'always'` on a small feed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { BULK_MIN_ROWS, shouldBulkLoad } from '../../server/ingest/bulk-load.js';
import { writeFeed } from '../../server/generate/feed-writer.js';
import { generateListings } from '../../server/generate/generator.js';
import { importFile } from '../../server/ingest/import.js';
import { historyOf, listingsOf, removeSource, testDatabase, testSource, workdir, type Workdir } from './helpers.js';

let db: Database;
let work: Workdir;
const bulkSource = testSource();
const plainSource = testSource();

beforeAll(() => {
  db = testDatabase();
  work = workdir();
});
afterAll(async () => {
  await removeSource(db, bulkSource, plainSource);
  work.remove();
  await db.close();
});

const indexes = async () =>
  (
    await db.pool.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'listings' ORDER BY indexname",
    )
  ).rows.map((r) => r.indexdef);

describe('bulk load', () => {
  it('is chosen only for a large load at least twice the size of the table', () => {
    expect(shouldBulkLoad(BULK_MIN_ROWS - 1, 0)).toBe(false);
    expect(shouldBulkLoad(1_000_000, 0)).toBe(true);
    expect(shouldBulkLoad(1_000_000, 500_000)).toBe(true);
    expect(shouldBulkLoad(1_000_000, 500_001)).toBe(false);
  });

  it('loads the same rows as the incremental path and restores every index', async () => {
    const before = await indexes();
    expect(before.length).toBeGreaterThan(2);
    const file = `${work.dir}/feed.ndjson`;
    await writeFeed(file, 'ndjson', generateListings({ count: 3_000, seed: 31, source: 'feed' }));
    const now = new Date('2026-11-10T00:00:00Z');

    const bulk = await importFile(db.pool, { file, format: 'ndjson', source: bulkSource, now, bulk: 'always' });
    const plain = await importFile(db.pool, { file, format: 'ndjson', source: plainSource, now, bulk: 'never' });
    expect(bulk.mode).toBe('bulk');
    expect(bulk.phases.index_rebuild).toBeGreaterThan(0);
    expect(plain.mode).toBe('incremental');
    expect(bulk.counts).toEqual(plain.counts);
    // Every row is stored but the active repeats the feed holds (about 12 % of its rows repeat).
    expect(bulk.counts.repeats_folded).toBeGreaterThan(100);
    expect(bulk.counts.inserted + bulk.counts.repeats_folded).toBe(3_000);

    expect(await indexes()).toEqual(before);
    const strip = <T extends { id: string }>(rows: T[]) => rows.map(({ id, ...rest }) => rest);
    expect(strip(await listingsOf(db, bulkSource))).toEqual(strip(await listingsOf(db, plainSource)));
    expect((await historyOf(db, bulkSource)).map(({ source_ref, price, changed_at }) => [source_ref, price, changed_at])).toEqual(
      (await historyOf(db, plainSource)).map(({ source_ref, price, changed_at }) => [source_ref, price, changed_at]),
    );
  });

  it('withdraws absent listings with --full inside the bulk transaction', async () => {
    const file = `${work.dir}/fewer.ndjson`;
    await writeFeed(file, 'ndjson', generateListings({ count: 2_500, seed: 31, source: 'feed' }));
    const result = await importFile(db.pool, { file, format: 'ndjson', source: bulkSource, full: true, bulk: 'always' });
    const active = (await listingsOf(db, plainSource)).filter((l) => l.status === 'active' && l.source_ref > 'feed-31-0002500');
    expect(result.counts.removed).toBe(active.length);
    expect(result.counts.removed).toBeGreaterThan(0);
  });
});
