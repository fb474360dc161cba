/** What an import is asked (`importFile`'s options), what it reports as it goes, and what it returns. */
import type { ColumnMap } from './column-map.js';
import type { FeedEncoding } from './encoding.js';
import type { FeedFormat } from './feed-reader.js';
import type { Held, ImportReportHead, Rejection, Repeat } from './report.js';

export interface ImportOptions {
  file: string;
  format: FeedFormat;
  source: string;
  /** A partner's column names, labels and constants (column-map.ts). */
  columns?: ColumnMap;
  /** The file's text encoding; `auto` (default) detects UTF-8 or Windows-1252. */
  encoding?: FeedEncoding;
  full?: boolean;
  /** With `full`: withdraw even past the guards (an unreadable record, too large a share; removals.ts). */
  forceFull?: boolean;
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
  /**
   * Holds rows whose price is implausible (plausibility.ts). `admin import` always checks;
   * off by default here, for tests of other concerns whose prices are synthetic.
   */
  plausibility?: boolean;
  /** A backfill's date: rows without `listed_at` were listed then, not on the import day (backfill.ts). */
  listedAt?: Date;
  onProgress?: (p: ImportProgress) => void;
}

export interface ImportProgress {
  rows: number;
  rejected: number;
  skipped: number;
  bytes: number;
  totalBytes: number;
  seconds: number;
}

export interface ImportResult extends ImportReportHead {
  report_path: string;
  /** The first rejections, for a summary on screen; the report has them all. */
  rejected_sample: Rejection[];
  /** The first skipped rows (price on request), likewise. */
  skipped_sample: Rejection[];
  /** The first repeats folded, likewise. */
  repeats_sample: Repeat[];
  /** The first rows held (a reference already in the file), likewise. */
  held_sample: Held[];
}
