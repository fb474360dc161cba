/**
 * `admin import`: a feed file (NDJSON or CSV) into `listings`, streamed with bounded
 * memory. Each row is validated; bad rows go to the report with their line and reason
 * and never stop the good ones, which are upserted by (source, source_ref) in batches.
 * An advert repeated under another reference is stored once (repeats.ts). With `full`,
 * listings of the source missing from the file are withdrawn. A real import ends by
 * rebuilding the market figures.
 */
import { statSync } from 'node:fs';
import type pg from 'pg';
import { refreshMarketFigures } from './market-refresh.js';
import { estimatedListings, shouldBulkLoad, withSecondaryIndexesRebuilt } from './bulk-load.js';
import { type FeedRow, readFeed, type ReadProgress } from './feed-reader.js';
import { checkPartnerRow } from './partner-row.js';
import { fingerprintOf } from './columns.js';
import { PartitionedWriter } from './partitioned-writer.js';
import { SeenReferences, withdrawalGuard } from './removals.js';
import { AdvertsSeen, ReferencesInFile } from './repeats.js';
import { type ImportCounts, ImportLog, type ImportReportHead } from './report.js';
import type { ImportOptions, ImportResult } from './import-options.js';
import type { Queryable } from './upsert.js';
import { operatorAliases, NeighborhoodResolver } from './neighborhoods.js';
import { Plausibility } from './plausibility.js';
import { backfillDate } from './backfill.js';

export type { ImportOptions, ImportResult } from './import-options.js';

export function reportPathFor(file: string): string {
  return `${file}.report.json`;
}

const PROGRESS_EVERY_MS = 250;
/** A generous size per feed row, so the row count is rather under- than overestimated. */
const BYTES_PER_ROW = 600;

/** `pool` may be null for a dry run, which never touches the database. */
export async function importFile(pool: pg.Pool | null, opts: ImportOptions): Promise<ImportResult> {
  if (!(opts.dryRun ?? false) && !pool) throw new Error('a database is needed unless dryRun is set');
  return new FeedImport(pool, opts).run();
}

/** One import run: its counts, its rejection log, and the phases it goes through. */
class FeedImport {
  private readonly started = new Date();
  private readonly t0 = performance.now();
  private readonly now: Date;
  private readonly dryRun: boolean;
  private readonly totalBytes: number;
  private readonly log: ImportLog;
  private readonly adverts = new AdvertsSeen();
  private readonly refs = new ReferencesInFile();
  private firstUnreadable: number | undefined;
  private fullForced: string | undefined;
  private readonly counts: ImportCounts = {
    lines: 0,
    header_lines: 0,
    blank_lines: 0,
    record_lines: 0,
    records: 0,
    rows: 0,
    accepted: 0,
    rejected: 0,
    unreadable: 0,
    held: 0,
    skipped: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    repeats_folded: 0,
    repriced: 0,
    removed: 0,
  };
  private readonly progress: ReadProgress = { bytes: 0 };
  private lastProgress = 0;
  private fullSkippedReason: string | undefined;
  private bulk = false;
  /** Whether the source had active listings when the import began (repeats to fold into). */
  private foldIntoStored = false;
  private resolver = new NeighborhoodResolver();
  /** Prices checked against floors and their stratum (plausibility.ts): implausible rows are held. */
  private plausibility: Plausibility | null = null;
  private indexSeconds: number | undefined;

  constructor(
    private readonly pool: pg.Pool | null,
    private readonly opts: ImportOptions,
  ) {
    this.now = opts.now ?? this.started;
    this.dryRun = opts.dryRun ?? false;
    this.totalBytes = statSync(opts.file).size;
    this.log = new ImportLog(reportPathFor(opts.file));
  }

  async run(): Promise<ImportResult> {
    try {
      // Quarter names resolve with the operators' aliases too.
      if (this.pool) this.resolver = new NeighborhoodResolver(await operatorAliases(this.pool));
      if (this.opts.plausibility) {
        this.plausibility = this.pool ? await Plausibility.load(this.pool, this.opts.source) : new Plausibility();
      }
      await this.loadAll();
      if (!this.dryRun) await this.plausibility?.store(this.pool!, this.opts.source, this.now);
    } catch (err) {
      this.log.discard();
      throw err;
    }
    const { accepted, inserted, updated, repeats_folded } = this.counts;
    this.counts.lines = this.progress.lines ?? 0;
    this.counts.header_lines = this.progress.header_lines ?? 0;
    this.counts.blank_lines = this.progress.blank_lines ?? 0;
    this.counts.unchanged = this.dryRun ? 0 : accepted - inserted - updated - repeats_folded;
    const refreshStart = performance.now();
    if (!this.dryRun) await refreshMarketFigures(this.pool!);
    const head = this.reportHead((performance.now() - refreshStart) / 1000);
    await this.log.writeReport(head);
    const { reportPath, rejected, repeats, skipped } = this.log;
    return {
      ...head,
      report_path: reportPath,
      rejected_sample: rejected.sample,
      repeats_sample: repeats.sample,
      skipped_sample: skipped.sample,
      held_sample: this.log.held.sample,
    };
  }

  /** The whole file, by the path its size calls for: nowhere (dry run), bulk or incremental. */
  private async loadAll(): Promise<void> {
    if (this.dryRun) return this.load(null, 0, null);
    const pool = this.pool!;
    const { bulk, concurrency } = this.opts;
    this.foldIntoStored = await hasActiveListings(pool, this.opts.source);
    this.bulk =
      bulk === 'always' || (bulk !== 'never' && shouldBulkLoad(Math.floor(this.totalBytes / BYTES_PER_ROW), await estimatedListings(pool)));
    if (this.bulk) {
      await withSecondaryIndexesRebuilt(
        pool,
        (client) => this.withSeen(client, (seen) => this.load(client, 1, seen)),
        (s) => (this.indexSeconds = s),
        // The lookup of the listing a new reference repeats needs its index during the load.
        this.foldIntoStored ? [FINGERPRINT_INDEX] : [],
      );
    } else {
      await this.withSeen(undefined, (seen) => this.load(pool, concurrency ?? 2, seen));
    }
  }

  /** With `full`, the references seen in the file, kept to withdraw the others at the end. */
  private async withSeen(client: pg.PoolClient | undefined, run: (seen: SeenReferences | null) => Promise<void>): Promise<void> {
    const seen = this.opts.full ? await SeenReferences.open(this.pool!, client) : null;
    try {
      await run(seen);
    } finally {
      await seen?.close();
    }
  }

  /** Reads, validates and writes the whole file through `db` (null: validate only). */
  private async load(db: Queryable | null, partitions: number, seen: SeenReferences | null): Promise<void> {
    const writer = db ? this.writer(db, partitions, seen) : null;
    try {
      const { file, format, encoding, columns } = this.opts;
      for await (const rows of readFeed(file, format, this.progress, { encoding, columns })) {
        for (const row of rows) await this.take(row, writer, seen);
        this.reportProgress();
      }
      await writer?.finish();
    } catch (err) {
      await writer?.settle();
      throw err;
    }
    if (seen) await this.withdrawUnseen(seen);
  }

  private writer(db: Queryable, partitions: number, seen: SeenReferences | null): PartitionedWriter {
    return new PartitionedWriter({
      db,
      source: this.opts.source,
      now: this.now,
      partitions,
      batchRows: this.opts.batchRows ?? 5_000,
      foldRepeats: this.foldIntoStored,
      onBatch: async (result, refs) => {
        this.counts.inserted += result.inserted;
        this.counts.updated += result.updated;
        this.counts.repriced += result.repriced;
        for (const [ref, kept] of result.folded) {
          this.counts.repeats_folded++;
          this.log.repeats.add({ line: refs.get(ref) ?? 0, source_ref: ref, repeats_source_ref: kept, repeats_stored: true });
        }
        // A repeat keeps the listing it repeats on the market (not withdrawn by `full`).
        await seen?.add([...refs.keys(), ...result.folded.map(([, kept]) => kept)]);
      },
    });
  }

  /** One feed row: written when valid, folded when it repeats an earlier one, logged with its reason when not (or skipped: price on request). */
  private async take(row: FeedRow, writer: PartitionedWriter | null, seen: SeenReferences | null): Promise<void> {
    this.counts.rows++;
    this.counts.records++;
    this.counts.record_lines += row.lines ?? 1;
    if ('error' in row) {
      this.counts.unreadable++;
      this.firstUnreadable ??= row.line;
    }
    const checked =
      'error' in row
        ? { ok: false as const, reason: row.error, sourceRef: row.sourceRef }
        : checkPartnerRow(row.value, this.resolver, this.opts.columns, this.opts.format === 'ndjson');
    if (checked.ok && this.opts.listedAt) backfillDate(checked.record, this.opts.listedAt);
    if (checked.ok && this.plausibility?.check(checked.record, row.line)) {
      // Held, not written: kept in held_listings with its reason, and not withdrawn by `full`.
      this.counts.held++;
      await seen?.add([checked.record.source_ref]);
      return;
    }
    if (checked.ok) {
      const { record } = checked;
      const first = this.refs.earlier(record.source_ref, row.line);
      if (first !== undefined) {
        // One file is one moment of the feed: a second row of a reference is no price change.
        this.counts.held++;
        const reason = `source_ref is already on line ${first} of this file: that row is taken, this one held`;
        this.log.held.add({ line: row.line, source_ref: record.source_ref, first_line: first, reason });
        return;
      }
      this.counts.accepted++;
      const fingerprint = fingerprintOf(record);
      // Only an active advert repeats another: a withdrawn row never hides an active one.
      const kept = record.status === 'active' ? this.adverts.repeated(fingerprint, record.source_ref) : undefined;
      if (kept === undefined) {
        await writer?.add(record, row.line, fingerprint);
        return;
      }
      this.counts.repeats_folded++;
      this.log.repeats.add({ line: row.line, source_ref: record.source_ref, repeats_source_ref: kept });
      return;
    }
    const ref = checked.sourceRef ? { source_ref: checked.sourceRef } : {};
    if ('skipped' in checked) {
      this.counts.skipped++;
      this.log.skipped.add({ line: row.line, ...ref, reason: checked.skipped });
    } else {
      this.counts.rejected++;
      this.log.rejected.add({ line: row.line, ...ref, reason: checked.reason });
    }
    // A listing whose row is malformed (or unpriced) today is not a listing gone from the feed.
    if (checked.sourceRef) await seen?.add([checked.sourceRef]);
  }

  private reportProgress(): void {
    if (!this.opts.onProgress || performance.now() - this.lastProgress <= PROGRESS_EVERY_MS) return;
    this.lastProgress = performance.now();
    const { rows, rejected, skipped } = this.counts;
    this.opts.onProgress({
      rows,
      rejected,
      skipped,
      bytes: this.progress.bytes,
      totalBytes: this.totalBytes,
      seconds: (this.lastProgress - this.t0) / 1000,
    });
  }

  /**
   * `full`: the source's listings missing from the file are withdrawn, unless no row was
   * valid, or a guard holds (removals.ts) and `forceFull` was not given.
   */
  private async withdrawUnseen(seen: SeenReferences): Promise<void> {
    if (this.counts.accepted === 0) {
      this.fullSkippedReason = `the file has no valid row: refusing to withdraw every listing of source ${this.opts.source}`;
      return;
    }
    const guard = withdrawalGuard(this.counts.unreadable, this.firstUnreadable, await seen.unseenShare(this.opts.source));
    if (guard && !this.opts.forceFull) {
      this.fullSkippedReason = `${guard} (--force-full withdraws anyway)`;
      return;
    }
    if (guard) this.fullForced = `--force-full: withdrawn although ${guard}`;
    this.counts.removed = await seen.withdrawUnseen(this.opts.source, this.now);
  }

  private reportHead(refreshSeconds: number): ImportReportHead {
    const seconds = (performance.now() - this.t0) / 1000;
    const round = (s: number) => Math.round(s * 1000) / 1000;
    const { opts, counts, dryRun, indexSeconds } = this;
    return {
      file: opts.file,
      format: opts.format,
      encoding: this.progress.encoding ?? opts.encoding ?? 'utf-8',
      source: opts.source,
      dry_run: dryRun,
      full: opts.full ?? false,
      mode: dryRun ? 'dry_run' : this.bulk ? 'bulk' : 'incremental',
      started_at: this.started.toISOString(),
      finished_at: new Date().toISOString(),
      seconds: round(seconds),
      rows_per_second: seconds > 0 ? Math.round(counts.rows / seconds) : counts.rows,
      phases: {
        load: round(seconds - refreshSeconds - (indexSeconds ?? 0)),
        ...(indexSeconds !== undefined ? { index_rebuild: round(indexSeconds) } : {}),
        ...(dryRun ? {} : { market_refresh: round(refreshSeconds) }),
      },
      counts,
      unresolved_neighborhoods: this.resolver.unresolved(),
      approximate_neighborhoods: this.resolver.approximate(),
      ...this.plausibility?.report(),
      ...(this.fullSkippedReason ? { full_skipped_reason: this.fullSkippedReason } : {}),
      ...(this.fullForced ? { full_forced: this.fullForced } : {}),
    };
  }
}

const FINGERPRINT_INDEX = 'listings_source_fingerprint_idx';

async function hasActiveListings(pool: pg.Pool, source: string): Promise<boolean> {
  const { rows } = await pool.query<{ any: boolean }>(
    "SELECT EXISTS (SELECT 1 FROM listings WHERE source = $1 AND status = 'active') AS any",
    [source],
  );
  return rows[0].any;
}
