/**
 * `admin import`: a feed file (NDJSON or CSV) into `listings`, streamed with bounded
 * memory. Each row is validated; bad rows go to the report with their line and reason
 * and never stop the good ones, which are upserted by (source, source_ref) in batches.
 * With `full`, listings of the source missing from the file are withdrawn. A real import
 * ends by rebuilding the market figures.
 */
import { statSync } from 'node:fs';
import type pg from 'pg';
import { refreshMarketFigures } from '../market/refresh.js';
import { estimatedListings, shouldBulkLoad, withSecondaryIndexesRebuilt } from './bulk-load.js';
import { type FeedFormat, readFeed, type ReadProgress } from './feed-reader.js';
import { PartitionedWriter } from './partitioned-writer.js';
import { SeenReferences } from './removals.js';
import { type ImportCounts, type ImportReportHead, type Rejection, RejectionLog } from './report.js';
import type { Queryable } from './upsert.js';
import { validateRow } from './validate.js';

export interface ImportOptions {
  file: string;
  format: FeedFormat;
  source: string;
  full?: boolean;
  dryRun?: boolean;
  /** The import's timestamp for updated_at, removed_at and price changes. Default: now. */
  now?: Date;
  /** Concurrent batch writes (database connections used). Default 2. */
  concurrency?: number;
  batchRows?: number;
  /**
   * `auto` (default) bulk-loads a file at least twice the size of the table (see
   * bulk-load.ts); `never` and `always` force the choice (benchmarks, tests).
   */
  bulk?: 'auto' | 'never' | 'always';
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportProgress {
  rows: number;
  rejected: number;
  bytes: number;
  totalBytes: number;
  seconds: number;
}

export interface ImportResult extends ImportReportHead {
  report_path: string;
  /** The first rejections, for a summary on screen; the report has them all. */
  rejected_sample: Rejection[];
}

export function reportPathFor(file: string): string {
  return `${file}.report.json`;
}

const PROGRESS_EVERY_MS = 250;
/** A generous size per feed row, so the row count is rather under- than overestimated. */
const BYTES_PER_ROW = 600;

/** `pool` may be null for a dry run, which never touches the database. */
export async function importFile(pool: pg.Pool | null, opts: ImportOptions): Promise<ImportResult> {
  const started = new Date();
  const t0 = performance.now();
  const now = opts.now ?? started;
  const dryRun = opts.dryRun ?? false;
  if (!dryRun && !pool) throw new Error('a database is needed unless dryRun is set');
  const totalBytes = statSync(opts.file).size;
  const log = new RejectionLog(reportPathFor(opts.file));
  const counts: ImportCounts = { rows: 0, accepted: 0, rejected: 0, inserted: 0, updated: 0, unchanged: 0, repriced: 0, removed: 0 };
  let fullSkippedReason: string | undefined;
  const progress: ReadProgress = { bytes: 0 };
  let lastProgress = 0;

  /** Reads, validates and writes the whole file through `db`. */
  const load = async (db: Queryable | null, partitions: number, seen: SeenReferences | null) => {
    const writer = db
      ? new PartitionedWriter({
          db,
          source: opts.source,
          now,
          partitions,
          batchRows: opts.batchRows ?? 5_000,
          onBatch: async (result, refs) => {
            counts.inserted += result.inserted;
            counts.updated += result.updated;
            counts.repriced += result.repriced;
            await seen?.add(refs);
          },
        })
      : null;
    try {
      for await (const rows of readFeed(opts.file, opts.format, progress)) {
        for (const row of rows) {
          counts.rows++;
          const checked = 'error' in row ? { ok: false as const, reason: row.error, sourceRef: row.sourceRef } : validateRow(row.value);
          let wait: Promise<unknown> | undefined;
          if (checked.ok) {
            counts.accepted++;
            wait = writer?.add(checked.record);
          } else {
            counts.rejected++;
            log.add({ line: row.line, ...(checked.sourceRef ? { source_ref: checked.sourceRef } : {}), reason: checked.reason });
            // A listing whose row is malformed today is not a listing gone from the feed.
            if (checked.sourceRef) wait = seen?.add([checked.sourceRef]);
          }
          if (wait) await wait;
        }
        if (opts.onProgress && performance.now() - lastProgress > PROGRESS_EVERY_MS) {
          lastProgress = performance.now();
          opts.onProgress({ rows: counts.rows, rejected: counts.rejected, bytes: progress.bytes, totalBytes, seconds: (lastProgress - t0) / 1000 });
        }
      }
      await writer?.finish();
    } catch (err) {
      await writer?.settle();
      throw err;
    }
    if (seen) {
      if (counts.accepted === 0) {
        fullSkippedReason = `the file has no valid row: refusing to withdraw every listing of source ${opts.source}`;
      } else {
        counts.removed = await seen.withdrawUnseen(opts.source, now);
      }
    }
  };

  const withSeen = async (client: pg.PoolClient | undefined, run: (seen: SeenReferences | null) => Promise<void>) => {
    const seen = opts.full ? await SeenReferences.open(pool!, client) : null;
    try {
      await run(seen);
    } finally {
      await seen?.close();
    }
  };

  let bulk = false;
  let indexSeconds: number | undefined;
  try {
    if (dryRun) {
      await load(null, 0, null);
    } else {
      bulk = opts.bulk === 'always' ||
        (opts.bulk !== 'never' && shouldBulkLoad(Math.floor(totalBytes / BYTES_PER_ROW), await estimatedListings(pool!)));
      if (bulk) {
        await withSecondaryIndexesRebuilt(
          pool!,
          (client) => withSeen(client, (seen) => load(client, 1, seen)),
          (s) => (indexSeconds = s),
        );
      } else {
        await withSeen(undefined, (seen) => load(pool!, opts.concurrency ?? 2, seen));
      }
    }
  } catch (err) {
    log.discard();
    throw err;
  }

  counts.unchanged = dryRun ? 0 : counts.accepted - counts.inserted - counts.updated;
  const refreshStart = performance.now();
  if (!dryRun) await refreshMarketFigures(pool!);
  const refreshSeconds = (performance.now() - refreshStart) / 1000;

  const seconds = (performance.now() - t0) / 1000;
  const round = (s: number) => Math.round(s * 1000) / 1000;
  const head: ImportReportHead = {
    file: opts.file,
    format: opts.format,
    source: opts.source,
    dry_run: dryRun,
    full: opts.full ?? false,
    mode: dryRun ? 'dry_run' : bulk ? 'bulk' : 'incremental',
    started_at: started.toISOString(),
    finished_at: new Date().toISOString(),
    seconds: round(seconds),
    rows_per_second: seconds > 0 ? Math.round(counts.rows / seconds) : counts.rows,
    phases: {
      load: round(seconds - refreshSeconds - (indexSeconds ?? 0)),
      ...(indexSeconds !== undefined ? { index_rebuild: round(indexSeconds) } : {}),
      ...(dryRun ? {} : { market_refresh: round(refreshSeconds) }),
    },
    counts,
    ...(fullSkippedReason ? { full_skipped_reason: fullSkippedReason } : {}),
  };
  await log.writeReport(head);
  return { ...head, report_path: log.reportPath, rejected_sample: log.sample };
}
