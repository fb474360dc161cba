/**
 * Export every listing of a search to NDJSON or CSV, page after page, resumably.
 *
 *   npx tsx examples/02-export-all-listings.ts [--format ndjson|csv] [--out FILE] [--city Douala] ...
 *
 * After each page the file is flushed to disk, then a state file next to it
 * (`FILE.state.json`) records the cursor of the next page and the file's length. If the
 * run dies (crash, Ctrl-C, network down for good), the same command resumes: it cuts
 * the file back to the last recorded length, so a half-written page is never kept or
 * written twice, and appends from the saved cursor. The state file is removed once the
 * export is complete.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Listing, ListingSearchParams, ListingStatus, PropertyType, Purpose } from '../sdk/src/index.js';
import { OUTPUT_DIR, client, flags, run } from './shared.js';

const args = flags(
  `
Export every listing of a search to NDJSON or CSV; rerun the same command to resume.

  --format ndjson|csv   default ndjson
  --out FILE            default ${relative(process.cwd(), join(OUTPUT_DIR, 'listings.<format>'))}
  --city, --neighborhood, --type, --purpose, --min-price, --max-price   filters
  --status STATUS       active (default), withdrawn, sold, rented or any
  --page-size N         listings per call, 1 to 200 (default 200: fewest calls of your quota)
  --fresh               ignore an unfinished export of FILE and start over
`,
  {
    format: { type: 'string', default: 'ndjson' },
    out: { type: 'string' },
    city: { type: 'string' },
    neighborhood: { type: 'string' },
    type: { type: 'string' },
    purpose: { type: 'string' },
    'min-price': { type: 'string' },
    'max-price': { type: 'string' },
    status: { type: 'string' },
    'page-size': { type: 'string', default: '200' },
    fresh: { type: 'boolean', default: false },
  },
);

/** The listing fields, in CSV column order. */
const COLUMNS: (keyof Listing)[] = [
  'id', 'title', 'price', 'currency', 'city', 'neighborhood', 'surface', 'bedrooms', 'bathrooms', 'type', 'purpose',
  'price_per_m2', 'status', 'listed_at', 'updated_at', 'removed_at', 'days_on_market',
];

/** What a resumed run needs to carry on exactly where the last one stopped. */
interface ExportState {
  format: string;
  params: ListingSearchParams;
  /** Pages written so far (0: start from the first page). */
  pages: number;
  /** Cursor of the next page to fetch; null once the last page is written. */
  cursor: string | null;
  /** Length of the output file once that page was written: anything beyond is a torn write. */
  bytes: number;
  exported: number;
  total: number;
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function format(listings: Listing[], as: string): string {
  if (as === 'csv') return listings.map((l) => `${COLUMNS.map((c) => csvCell(l[c])).join(',')}\r\n`).join('');
  return listings.map((l) => `${JSON.stringify(l)}\n`).join('');
}

/** Writes the state atomically (temporary file, then rename), so a crash leaves the old one or the new one. */
function saveState(file: string, state: ExportState): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(state, null, 2));
  renameSync(`${file}.tmp`, file);
}

/** A progress line on stderr: rewritten in place on a terminal, one line every few seconds in a log. */
function progress() {
  let lastPrinted = 0;
  return (done: number, total: number, rate: number, final = false) => {
    const percent = total > 0 ? ` (${((done / total) * 100).toFixed(1)} %)` : '';
    const text = `${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} listings${percent}, ${Math.round(rate).toLocaleString('en-US')} listings/s`;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}${final ? '\n' : ''}`);
    else if (final || Date.now() - lastPrinted > 2000) {
      process.stderr.write(`${text}\n`);
      lastPrinted = Date.now();
    }
  };
}

run(async () => {
  const as = args.format;
  if (as !== 'ndjson' && as !== 'csv') throw new Error(`--format must be ndjson or csv, not ${as}`);
  const out = args.out ?? join(OUTPUT_DIR, `listings.${as}`);
  const stateFile = `${out}.state.json`;
  const number = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const params: ListingSearchParams = Object.fromEntries(
    Object.entries({
      city: args.city,
      neighborhood: args.neighborhood,
      type: args.type as PropertyType | undefined,
      purpose: args.purpose as Purpose | undefined,
      min_price: number(args['min-price']),
      max_price: number(args['max-price']),
      status: args.status as ListingStatus | 'any' | undefined,
      limit: number(args['page-size']),
    }).filter(([, v]) => v !== undefined),
  );

  mkdirSync(dirname(out), { recursive: true });
  let state: ExportState;
  if (existsSync(stateFile) && !args.fresh) {
    state = JSON.parse(readFileSync(stateFile, 'utf8')) as ExportState;
    // A cursor only works with the filters it was issued for: refuse rather than mix exports.
    if (state.format !== as || JSON.stringify(state.params) !== JSON.stringify(params)) {
      throw new Error(
        `${stateFile} belongs to an unfinished export with other options (${state.format}, ${JSON.stringify(state.params)}). ` +
          'Rerun with those options to finish it, or pass --fresh to start over.',
      );
    }
    if (!existsSync(out) || statSync(out).size < state.bytes) throw new Error(`${out} is shorter than ${stateFile} records: pass --fresh.`);
    truncateSync(out, state.bytes);
    console.error(`Resuming: ${state.exported.toLocaleString('en-US')} of ${state.total.toLocaleString('en-US')} listings already in ${out}.`);
  } else {
    const header = as === 'csv' ? `${COLUMNS.join(',')}\r\n` : '';
    writeFileSync(out, header);
    state = { format: as, params, pages: 0, cursor: null, bytes: Buffer.byteLength(header), exported: 0, total: 0 };
    saveState(stateFile, state);
  }

  // A crash after the last page but before the state file was removed: nothing left to fetch.
  const alreadyDone = state.pages > 0 && state.cursor === null;
  const resumeFrom = state.pages > 0 ? (state.cursor ?? undefined) : undefined;
  // Long exports can meet the per-minute limit: let the client wait and retry more patiently.
  const mboa = client('starter', { maxRetries: 6 });
  const started = performance.now();
  let thisRun = 0;
  const show = progress();

  process.once('SIGINT', () => {
    // Writes are synchronous, so the file and the state agree whenever this runs.
    process.stderr.write(`\nInterrupted after ${state.exported.toLocaleString('en-US')} listings: run the same command to resume.\n`);
    process.exit(130);
  });

  const fd = openSync(out, 'a');
  try {
    if (!alreadyDone) {
      for await (const page of mboa.listings.search({ ...params, cursor: resumeFrom }).iterPages()) {
        const chunk = format(page.data, as);
        writeSync(fd, chunk);
        fsyncSync(fd);
        thisRun += page.data.length;
        state = {
          ...state,
          pages: state.pages + 1,
          cursor: page.meta.next_cursor,
          bytes: state.bytes + Buffer.byteLength(chunk),
          exported: state.exported + page.data.length,
          total: state.total || page.meta.total,
        };
        saveState(stateFile, state);
        show(state.exported, state.total, thisRun / ((performance.now() - started) / 1000));
      }
    }
  } finally {
    closeSync(fd);
  }

  const seconds = (performance.now() - started) / 1000;
  const rate = thisRun / Math.max(seconds, 0.001);
  show(state.exported, state.total, rate, true);
  rmSync(stateFile, { force: true });
  console.log(
    `Exported ${state.exported.toLocaleString('en-US')} listings to ${out}` +
      ` (${thisRun.toLocaleString('en-US')} in this run, ${seconds.toFixed(1)} s, ${Math.round(rate).toLocaleString('en-US')} listings/s).`,
  );
  if (mboa.quota) console.log(`Quota (${mboa.quota.plan}): ${mboa.quota.remaining ?? 'unlimited'} calls left this month.`);
});
