/**
 * The import report, `FILE.report.json` next to the input: counts, then every rejected
 * row with its line number and reason, then every skipped row (a price on request). Rejections are spilled to a side file as they come
 * and copied into the report at the end, so a feed of a million bad rows is reported in
 * full without holding them in memory.
 */
import { closeSync, createReadStream, openSync, rmSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { UnresolvedName } from './quarters.js';

export interface Rejection {
  line: number;
  source_ref?: string;
  reason: string;
}

export interface ImportCounts {
  /** Rows read from the file (blank lines aside). */
  rows: number;
  accepted: number;
  rejected: number;
  /** Rows that are no listing to store and no error either: a price given on request. */
  skipped: number;
  inserted: number;
  /** Existing listings with a changed field. */
  updated: number;
  /** Accepted rows identical to the stored listing. */
  unchanged: number;
  /** Listings whose price changed (one new price_history row each). */
  repriced: number;
  /** With --full: listings of the source absent from the file, now withdrawn. */
  removed: number;
}

export interface ImportReportHead {
  file: string;
  format: string;
  /** The text encoding the file was read in (given, or detected: encoding.ts). */
  encoding: string;
  source: string;
  dry_run: boolean;
  full: boolean;
  /** `bulk`: secondary indexes rebuilt after the load (see bulk-load.ts). */
  mode: 'incremental' | 'bulk' | 'dry_run';
  started_at: string;
  finished_at: string;
  seconds: number;
  rows_per_second: number;
  /** Parts of `seconds`: reading and writing rows, rebuilding indexes (bulk), market figures. */
  phases: { load: number; index_rebuild?: number; market_refresh?: number };
  counts: ImportCounts;
  /**
   * Quarter names of gazetteer cities that resolved to no known quarter: their rows were
   * imported under their city alone. Most rows first, with the closest known names
   * (`npm run admin -- alias add CITY NAME QUARTER` files them, and their rows, under one).
   */
  unresolved_neighborhoods: UnresolvedName[];
  /** Why --full removed nothing although asked, if it did not run. */
  full_skipped_reason?: string;
}

/** How many rejections are also kept in memory, for the command's summary on screen. */
const SAMPLE = 20;
const FLUSH_EVERY = 1_000;

export class RejectionLog {
  readonly sample: Rejection[] = [];
  count = 0;
  private readonly spillPath: string;
  private fd: number | null = null;
  private buffer: string[] = [];

  constructor(
    readonly reportPath: string,
    spillSuffix = '.partial',
  ) {
    this.spillPath = `${reportPath}${spillSuffix}`;
  }

  add(rejection: Rejection): void {
    this.count++;
    if (this.sample.length < SAMPLE) this.sample.push(rejection);
    this.buffer.push(JSON.stringify(rejection));
    if (this.buffer.length >= FLUSH_EVERY) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.fd ??= openSync(this.spillPath, 'w');
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
  }

  /**
   * Writes the report: `head`, then `"rejected": [...]` from the spill file, then
   * `"skipped": [...]` from `skipped`'s (a log of its own).
   */
  async writeReport(head: ImportReportHead, skipped?: RejectionLog): Promise<void> {
    const out = createWriteStream(this.reportPath);
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    const headJson = JSON.stringify(head, null, 2);
    await write(`${headJson.slice(0, -2)},\n  "rejected": [`);
    await this.copyEntries(write);
    if (skipped) {
      await write(',\n  "skipped": [');
      await skipped.copyEntries(write);
    }
    await write('\n}\n');
    out.end();
    await once(out, 'finish');
  }

  /** The entries as the items of a JSON array, then `]`; the spill file is removed. */
  private async copyEntries(write: (text: string) => Promise<void>): Promise<void> {
    this.flush();
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    let first = true;
    if (this.count > 0) {
      const lines = createInterface({ input: createReadStream(this.spillPath), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        await write(`${first ? '' : ','}\n    ${line}`);
        first = false;
      }
    }
    await write(first ? ']' : '\n  ]');
    rmSync(this.spillPath, { force: true });
  }

  /** Removes the spill file when the import fails before writing its report. */
  discard(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    rmSync(this.spillPath, { force: true });
  }
}
