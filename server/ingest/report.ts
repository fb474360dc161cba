/**
 * The import report, `FILE.report.json` next to the input: counts, then every rejected
 * row with its line number and reason, then every repeat folded (repeats.ts), then every
 * skipped row (a price on request), then every row held (a reference already met in the
 * file). The lists are spilled to side files as they come and copied into the report at
 * the end, so a feed of a million bad rows is reported in full without holding them in
 * memory. Each entry is bounded: a reference is cut to REPORTED_REF_CHARS characters and
 * a reason to REPORTED_REASON_CHARS (`…` marks the cut), so a 50 MB cell never makes a
 * 50 MB report.
 */
import { closeSync, createReadStream, openSync, rmSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { HeldRow, PriceWarning } from './plausibility.js';
import type { ApproximateName, UnresolvedName } from './neighborhoods.js';

export interface Rejection {
  line: number;
  source_ref?: string;
  reason: string;
}

/** A row that repeats an advert already taken: not stored, and not a rejection. */
export interface Repeat {
  line: number;
  source_ref: string;
  /** The reference of the earlier row of the file, or of the stored listing, it repeats. */
  repeats_source_ref: string;
  /** True when it repeats a listing stored by an earlier import. */
  repeats_stored?: true;
}

/** A valid row whose reference an earlier row of the same file already had: not stored. */
export interface Held {
  line: number;
  source_ref: string;
  /** The line of the row taken for that reference (the first valid one). */
  first_line: number;
  reason: string;
}

export interface ImportCounts {
  /** Lines of the file read: header_lines + blank_lines + record_lines. */
  lines: number;
  /** The CSV header (0 for NDJSON). */
  header_lines: number;
  blank_lines: number;
  /** Lines of records, each record counting every line it spans. */
  record_lines: number;
  /** Records read: accepted + rejected + skipped + held. */
  records: number;
  /** The same as `records` (its older name). */
  rows: number;
  /** Valid rows: inserted + updated + unchanged + repeats_folded. */
  accepted: number;
  rejected: number;
  /** Of the rejected: records that could not be read at all (then --full withdraws nothing). */
  unreadable: number;
  /**
   * Valid rows held, not stored: a reference an earlier row of the file had (listed under
   * `held`), or an implausible price (listed under `held_prices`, kept until an operator
   * releases it: plausibility.ts).
   */
  held: number;
  inserted: number;
  /** Existing listings with a changed field. */
  updated: number;
  /** Accepted rows identical to the stored listing. */
  unchanged: number;
  /**
   * Accepted rows folded as repeats: the same advert as an earlier row of the file or an
   * active listing of the source, under another reference (README, "Loading listings").
   */
  repeats_folded: number;
  /** Rows that are no listing to store and no error either: a price given on request. */
  skipped: number;
  /** Listings whose price changed (one new price_history row each). */
  repriced: number;
  /** With --full: listings of the source absent from the file, now withdrawn. */
  removed: number;
}

export interface ImportReportHead {
  file: string;
  format: string;
  source: string;
  dry_run: boolean;
  full: boolean;
  /** The text encoding the file was read in (given, or detected: encoding.ts). */
  encoding: string;
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
  /** Names matched to a quarter only approximately (approximate-neighborhood.ts): to check. */
  approximate_neighborhoods: ApproximateName[];
  /** The held rows with their reasons (the first thousand; `admin held list` has them all). */
  held_prices?: HeldRow[];
  /** Rows whose title names a price ×10 away from the price column. */
  price_warnings?: PriceWarning[];
  /** Why --full removed nothing although asked, if it did not run. */
  full_skipped_reason?: string;
  /** With --force-full: the guard it overrode (what --full would otherwise have refused). */
  full_forced?: string;
}

/** The longest reference and reason a report entry keeps (the rest is cut, marked `…`). */
export const REPORTED_REF_CHARS = 200;
export const REPORTED_REASON_CHARS = 500;

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** An entry with its reference(s) and reason cut to the documented sizes. */
function clipped<T extends object>(entry: T): T {
  const e = entry as Record<string, unknown>;
  const out: Record<string, unknown> = { ...e };
  for (const k of ['source_ref', 'repeats_source_ref']) if (typeof e[k] === 'string') out[k] = clip(e[k], REPORTED_REF_CHARS);
  if (typeof e.reason === 'string') out.reason = clip(e.reason, REPORTED_REASON_CHARS);
  return out as T;
}

/** How many entries of each list are also kept in memory, for the command's summary on screen. */
const SAMPLE = 20;
const FLUSH_EVERY = 1_000;

/** One list of the report, spilled to `path` as it grows. */
class SpillList<T extends object> {
  readonly sample: T[] = [];
  count = 0;
  private fd: number | null = null;
  private buffer: string[] = [];

  constructor(private readonly path: string) {}

  add(whole: T): void {
    const entry = clipped(whole);
    this.count++;
    if (this.sample.length < SAMPLE) this.sample.push(entry);
    this.buffer.push(JSON.stringify(entry));
    if (this.buffer.length >= FLUSH_EVERY) this.flush();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.fd ??= openSync(this.path, 'w');
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
  }

  /** Writes `"name": [...]` from the spill file, then removes it. */
  async copyInto(name: string, write: (text: string) => Promise<void>): Promise<void> {
    this.flush();
    this.discard();
    await write(`"${name}": [`);
    let first = true;
    if (this.count > 0) {
      const lines = createInterface({ input: createReadStream(this.path), crlfDelay: Infinity });
      for await (const line of lines) {
        if (!line) continue;
        await write(`${first ? '' : ','}\n    ${line}`);
        first = false;
      }
    }
    await write(first ? ']' : '\n  ]');
    rmSync(this.path, { force: true });
  }

  discard(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  remove(): void {
    this.discard();
    rmSync(this.path, { force: true });
  }
}

/** The rejections, repeats and skipped rows of one import, and the report they end in. */
export class ImportLog {
  readonly rejected: SpillList<Rejection>;
  readonly repeats: SpillList<Repeat>;
  readonly skipped: SpillList<Rejection>;
  readonly held: SpillList<Held>;

  constructor(readonly reportPath: string) {
    this.held = new SpillList(`${reportPath}.held.partial`);
    this.rejected = new SpillList(`${reportPath}.partial`);
    this.repeats = new SpillList(`${reportPath}.repeats.partial`);
    this.skipped = new SpillList(`${reportPath}.skipped.partial`);
  }

  /** Writes the report: `head`, then `"rejected"`, `"repeats"`, `"skipped"` and `"held"` from the spill files. */
  async writeReport(head: ImportReportHead): Promise<void> {
    const out = createWriteStream(this.reportPath);
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    const headJson = JSON.stringify(head, null, 2);
    await write(`${headJson.slice(0, -2)},\n  `);
    await this.rejected.copyInto('rejected', write);
    await write(',\n  ');
    await this.repeats.copyInto('repeats', write);
    await write(',\n  ');
    await this.skipped.copyInto('skipped', write);
    await write(',\n  ');
    await this.held.copyInto('held', write);
    await write('\n}\n');
    out.end();
    await once(out, 'finish');
  }

  /** Removes the spill files when the import fails before writing its report. */
  discard(): void {
    this.rejected.remove();
    this.repeats.remove();
    this.skipped.remove();
    this.held.remove();
  }
}
