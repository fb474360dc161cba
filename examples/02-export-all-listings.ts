/**
 * Export every listing of a search to NDJSON or CSV, resumably: through the bulk export
 * (one stream, Enterprise plan) when the key allows it, else page after page.
 *
 *   npx tsx examples/02-export-all-listings.ts [--format ndjson|csv] [--out FILE] [--city Douala] ...
 *
 * After each page (or each 1,000 exported listings) the file is flushed to disk, then a
 * state file next to it (`FILE.state.json`) records where to continue (the cursor of the
 * next page, or the id of the last listing exported) and the file's length. If the run
 * dies (crash, Ctrl-C, network down for good), the same command resumes: it cuts the file
 * back to the last recorded length, so a half-written batch is never kept or written
 * twice, and appends from there. The state file is removed once the export is complete.
 *
 * Within a run, the SDK already resumes a broken export stream by itself; the state file
 * is for when the process itself stops.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
  type ListingExport,
  type Listing,
  type ListingSearchParams,
  type ListingStatus,
  type Mboa,
  NotFoundError,
  PlanForbiddenError,
  type PropertyType,
  type Purpose,
} from '@mboa/sdk';
import { OUTPUT_DIR, client, flags, run } from './shared.js';

const args = flags(
  `
Export every listing of a search to NDJSON or CSV; rerun the same command to resume.
Uses the bulk export when your plan includes it (Enterprise), else pages through the search.

  --format ndjson|csv   default ndjson
  --out FILE            default ${relative(process.cwd(), join(OUTPUT_DIR, 'listings.<format>'))}
  --city, --neighborhood, --type, --purpose, --min-price, --max-price   filters
  --status STATUS       active (default), withdrawn, sold, rented or any
  --page-size N         when paging: listings per call, 1 to 200 (default 200: fewest calls of your quota)
  --pages               page through the search even when the bulk export is available
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
    pages: { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
  },
);

/** The listing fields, in CSV column order. */
const COLUMNS: (keyof Listing)[] = [
  'id',
  'title',
  'price',
  'currency',
  'city',
  'neighborhood',
  'surface',
  'bedrooms',
  'bathrooms',
  'type',
  'purpose',
  'price_per_m2',
  'status',
  'listed_at',
  'updated_at',
  'removed_at',
  'days_on_market',
];

/** Listings written per checkpoint of a bulk export: a crash costs at most this many again. */
const EXPORT_BATCH = 1000;

/** What a resumed run needs to carry on exactly where the last one stopped. */
interface ExportState {
  format: string;
  params: ListingSearchParams;
  /** `export`: the bulk export, resumed with `after`; `pages` (or absent, in older files): the search, with `cursor`. */
  mode?: 'export' | 'pages';
  /** Pages (or export batches) written so far (0: start from the beginning). */
  pages: number;
  /** Pages: cursor of the next page to fetch; null once the last page is written. */
  cursor: string | null;
  /** Export: id of the last listing written; null before the first. */
  after?: string | null;
  /** Export: the stream ended normally, everything is written. */
  done?: boolean;
  /** Length of the output file once that page was written: anything beyond is a torn write. */
  bytes: number;
  exported: number;
  /** Listings the search matches (pages only; the bulk export does not count ahead). */
  total: number;
}

/**
 * Text from adverts (titles above all) may begin like a formula: such a cell goes out behind
 * an apostrophe (OWASP's CSV-injection rule), so a spreadsheet shows it and runs nothing.
 */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value);
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
    const of = total > 0 ? ` / ${total.toLocaleString('en-US')}` : '';
    const percent = total > 0 ? ` (${((done / total) * 100).toFixed(1)} %)` : '';
    const text = `${done.toLocaleString('en-US')}${of} listings${percent}, ${Math.round(rate).toLocaleString('en-US')} listings/s`;
    if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${text}${final ? '\n' : ''}`);
    else if (final || Date.now() - lastPrinted > 2000) {
      process.stderr.write(`${text}\n`);
      lastPrinted = Date.now();
    }
  };
}

/**
 * The bulk export of `params` after `after`, opened; or undefined when the key's plan does
 * not include it (or the server predates it), so the caller pages instead. Opening sends
 * the first request only: nothing is read, and a refusal is never charged.
 */
async function openExport(mboa: Mboa, params: ListingSearchParams, after: string | undefined): Promise<ListingExport | undefined> {
  const { limit: _limit, sort: _sort, cursor: _cursor, ...filters } = params;
  const exp = mboa.exports.listings({ ...filters, after });
  try {
    await exp.withResponse();
    return exp;
  } catch (err) {
    if (err instanceof PlanForbiddenError) {
      console.error(`No bulk export on this key (${err.detail ?? err.message}): paging through the search instead.`);
      return undefined;
    }
    if (err instanceof NotFoundError) {
      console.error('This server has no bulk export: paging through the search instead.');
      return undefined;
    }
    throw err;
  }
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
    // A cursor or an `after` only means something with the filters it was issued for:
    // refuse rather than mix exports.
    if (state.format !== as || JSON.stringify(state.params) !== JSON.stringify(params)) {
      throw new Error(
        `${stateFile} belongs to an unfinished export with other options (${state.format}, ${JSON.stringify(state.params)}). ` +
          'Rerun with those options to finish it, or pass --fresh to start over.',
      );
    }
    if (!existsSync(out) || statSync(out).size < state.bytes) throw new Error(`${out} is shorter than ${stateFile} records: pass --fresh.`);
    truncateSync(out, state.bytes);
    const of = state.total > 0 ? ` of ${state.total.toLocaleString('en-US')}` : '';
    console.error(`Resuming: ${state.exported.toLocaleString('en-US')}${of} listings already in ${out}.`);
  } else {
    const header = as === 'csv' ? `${COLUMNS.join(',')}\r\n` : '';
    writeFileSync(out, header);
    state = { format: as, params, pages: 0, cursor: null, bytes: Buffer.byteLength(header), exported: 0, total: 0 };
    saveState(stateFile, state);
  }

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

  // The way of a started export is kept; a new one tries the bulk export first. A crash
  // after the last batch but before the state file was removed leaves nothing to fetch.
  const resuming = state.pages > 0;
  const finished = state.done === true || (resuming && state.mode !== 'export' && state.cursor === null);
  let exp: ListingExport | undefined;
  if (!finished && (state.mode === 'export' || (!resuming && !args.pages))) {
    exp = await openExport(mboa, params, state.after ?? undefined);
    if (!exp && state.mode === 'export') throw new Error(`${stateFile} is a bulk export, which this key cannot continue: pass --fresh.`);
  }
  if (exp) console.error('Using the bulk export: one stream, in id order.');
  state = { ...state, mode: exp ? 'export' : 'pages' };

  const fd = openSync(out, 'a');
  /** Appends listings, flushes them to disk, then records the new state: the file never runs ahead of it unrecorded. */
  const commit = (listings: Listing[], next: Partial<ExportState>) => {
    const chunk = format(listings, as);
    writeSync(fd, chunk);
    fsyncSync(fd);
    thisRun += listings.length;
    state = {
      ...state,
      ...next,
      pages: state.pages + 1,
      bytes: state.bytes + Buffer.byteLength(chunk),
      exported: state.exported + listings.length,
    };
    saveState(stateFile, state);
    show(state.exported, state.total, thisRun / ((performance.now() - started) / 1000));
  };

  try {
    if (finished) {
      // Nothing left to fetch.
    } else if (exp) {
      let batch: Listing[] = [];
      for await (const listing of exp) {
        batch.push(listing);
        if (batch.length >= EXPORT_BATCH) {
          commit(batch, { after: listing.id });
          batch = [];
        }
      }
      commit(batch, { after: exp.lastId ?? null, done: true });
    } else {
      const resumeFrom = resuming ? (state.cursor ?? undefined) : undefined;
      for await (const page of mboa.listings.search({ ...params, cursor: resumeFrom }).iterPages()) {
        commit(page.data, { cursor: page.meta.next_cursor, total: state.total || page.meta.total });
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
  if (exp?.quota) console.log(`Quota: ${exp.quota.remaining ?? 'unlimited'} calls left this month.`);
  else if (mboa.quota) console.log(`Quota (${mboa.quota.plan}): ${mboa.quota.remaining ?? 'unlimited'} calls left this month.`);
});
