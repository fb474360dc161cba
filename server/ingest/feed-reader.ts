/**
 * Reads a feed file a chunk at a time, never the whole file: NDJSON by lines, CSV through
 * csv-parse's streaming parser. Each row comes out with the line it starts on, either as
 * a raw object (still to validate) or as the reason it could not be read at all, so one
 * malformed row never stops the rows after it. Rows come in groups (those of one read
 * chunk): one await per group rather than per row, which matters at a million rows.
 */
import { createReadStream } from 'node:fs';
import { Transform } from 'node:stream';
import { parse } from 'csv-parse';
import { csvSeparator } from './csv-dialect.js';
import { FeedDecoder, type FeedEncoding } from './encoding.js';
import { RECORD_FIELDS } from './record.js';

export type FeedFormat = 'ndjson' | 'csv';

export type FeedRow = { line: number; value: Record<string, unknown> } | { line: number; error: string; sourceRef?: string };

/** Longer than any listing; a longer "line" is a file without line breaks, not a row. */
const MAX_LINE_CHARS = 1_000_000;
const CHUNK_BYTES = 1 << 20;

export function formatFromPath(path: string): FeedFormat | null {
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  if (/\.csv$/i.test(path)) return 'csv';
  return null;
}

/** Bytes read so far, for progress reporting, and the encoding the text was read in. */
export interface ReadProgress {
  bytes: number;
  encoding?: string;
}

/** A partner's CSV header in Mboa's terms (column-map.ts): a field, null (ignored) or undefined (unknown). */
export interface CsvColumns {
  /** `index`: the column's position from 0 (a map may name a column by position). */
  fieldOf(name: string, index?: number): string | null | undefined;
  /** Fields every row gets without a column. */
  provided: ReadonlySet<string>;
}

export interface ReadOptions {
  encoding?: FeedEncoding;
  columns?: CsvColumns;
}

export function readFeed(
  path: string,
  format: FeedFormat,
  progress: ReadProgress = { bytes: 0 },
  options: ReadOptions = {},
): AsyncGenerator<FeedRow[]> {
  return format === 'csv' ? readCsv(path, progress, options) : readNdjson(path, progress, options.encoding);
}

function parseJsonRow(text: string, line: number): FeedRow {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // V8 quotes the offending text in its message; the report must not copy contacts. Newer
    // V8 versions add "(line 1 column N)", which names the row's own line, not the feed's.
    const why = (err as Error).message
      .replace(/,?\s*".*"(\.\.\.)? is not valid JSON$/s, '')
      .replace(/ \(line \d+ column \d+\)$/, '')
      .replace(/^Unexpected token '(.)'$/, "unexpected character '$1'");
    return { line, error: `invalid JSON: ${why}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { line, error: 'must be a JSON object (one listing per line)' };
  }
  return { line, value: value as Record<string, unknown> };
}

async function* readNdjson(path: string, progress: ReadProgress, encoding: FeedEncoding | undefined): AsyncGenerator<FeedRow[]> {
  const decoder = new FeedDecoder(encoding);
  let pending = '';
  let line = 0;
  let skippingLongLine = false;
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    progress.bytes += chunk.length;
    let text = pending + decoder.write(chunk);
    if (line === 0 && pending === '' && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const rows: FeedRow[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n', start); nl !== -1; nl = text.indexOf('\n', start)) {
      line++;
      const row = text.slice(start, nl);
      start = nl + 1;
      if (skippingLongLine) {
        skippingLongLine = false;
        continue;
      }
      const trimmed = row.endsWith('\r') ? row.slice(0, -1) : row;
      if (trimmed.trim() !== '') rows.push(parseJsonRow(trimmed, line));
    }
    pending = text.slice(start);
    if (pending.length > MAX_LINE_CHARS) {
      // Keep memory bounded: report the line once and drop it up to its end.
      if (!skippingLongLine) rows.push({ line: line + 1, error: `line longer than ${MAX_LINE_CHARS} characters` });
      skippingLongLine = true;
      pending = '';
    }
    progress.encoding = decoder.encoding;
    if (rows.length > 0) yield rows;
  }
  pending += decoder.end();
  progress.encoding = decoder.encoding;
  if (skippingLongLine) return;
  if (pending.trim() !== '') {
    line++;
    yield [parseJsonRow(pending.endsWith('\r') ? pending.slice(0, -1) : pending, line)];
  }
}

const NUMBER_FIELDS = new Set(['price', 'surface', 'bedrooms', 'bathrooms', 'advance_months', 'deposit_months']);
/** How feeds write yes and no (French and English portals, spreadsheets). */
const BOOLEANS = new Map([
  ['true', true],
  ['oui', true],
  ['yes', true],
  ['1', true],
  ['false', false],
  ['non', false],
  ['no', false],
  ['0', false],
]);
const NUMERIC = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * A CSV cell as the validator expects it: empty cells are absent fields, numeric cells
 * numbers, `furnished` a boolean (true/false, oui/non, yes/no, 1/0, in any case). A
 * non-numeric price (or an unreadable yes/no) stays a string so that validation names the problem.
 */
function csvValue(field: string, cell: string): unknown {
  if (cell === '') return undefined;
  if (NUMBER_FIELDS.has(field) && NUMERIC.test(cell)) return Number(cell);
  if (field === 'furnished') return BOOLEANS.get(cell.trim().toLowerCase()) ?? cell;
  return cell;
}

/** The line a record starts on: csv-parse reports where it ends. */
function startLine(endLine: number, raw: string | undefined): number {
  if (!raw) return endLine;
  const body = raw.replace(/^(\r?\n)+/, '').replace(/\r?\n$/, '');
  let breaks = 0;
  for (let i = body.indexOf('\n'); i !== -1; i = body.indexOf('\n', i + 1)) breaks++;
  return endLine - breaks;
}

export class FeedFileError extends Error {}

const CSV_GROUP = 1_000;

async function* readCsv(path: string, progress: ReadProgress, options: ReadOptions): AsyncGenerator<FeedRow[]> {
  let group: FeedRow[] = [];
  for await (const row of readCsvRows(path, progress, options)) {
    group.push(row);
    if (group.length >= CSV_GROUP) {
      yield group;
      group = [];
    }
  }
  if (group.length > 0) yield group;
}

/** The file's bytes as text, in the encoding given or detected (encoding.ts). */
function decoding(encoding: FeedEncoding | undefined, progress: ReadProgress): Transform {
  const decoder = new FeedDecoder(encoding);
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const text = decoder.write(chunk);
      progress.encoding = decoder.encoding;
      done(null, text);
    },
    flush(done) {
      const text = decoder.end();
      progress.encoding = decoder.encoding;
      done(null, text);
    },
  });
}

async function* readCsvRows(path: string, progress: ReadProgress, options: ReadOptions): AsyncGenerator<FeedRow> {
  // Rows csv-parse cannot read at all (an unclosed quote) arrive through on_skip, ahead
  // of the records still buffered: they are held here and given out in line order.
  const skipped: FeedRow[] = [];
  const input = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  input.on('data', (chunk) => {
    progress.bytes += chunk.length;
  });
  const text = input.pipe(decoding(options.encoding, progress));
  const parser = text.pipe(
    parse({
      bom: true,
      delimiter: csvSeparator(path),
      info: true,
      raw: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      on_skip: (err, raw) => {
        const lines = (err as { lines?: number } | undefined)?.lines ?? 0;
        skipped.push({ line: startLine(lines, raw), error: `unreadable CSV: ${err?.message ?? 'malformed record'}` });
        return undefined;
      },
    }),
  );
  input.on('error', (err) => parser.destroy(err));
  text.on('error', (err) => parser.destroy(err));

  let header: (string | null)[] | null = null;
  for await (const entry of parser as AsyncIterable<{ record: string[]; info: { lines: number }; raw?: string }>) {
    const line = startLine(entry.info.lines, entry.raw);
    while (skipped.length > 0 && skipped[0].line < line) yield skipped.shift()!;
    if (!header) {
      header = checkHeader(entry.record, options.columns);
      continue;
    }
    const cells = entry.record;
    if (cells.length !== header.length) {
      const refAt = header.indexOf('source_ref');
      yield {
        line,
        error: `has ${cells.length} fields where the header has ${header.length}`,
        sourceRef: refAt >= 0 && cells[refAt] ? cells[refAt] : undefined,
      };
      continue;
    }
    const value: Record<string, unknown> = {};
    for (let i = 0; i < header.length; i++) {
      const field = header[i];
      if (field === null) continue;
      const v = csvValue(field, cells[i]);
      if (v !== undefined) value[field] = v;
    }
    yield { line, value };
  }
  while (skipped.length > 0) yield skipped.shift()!;
  if (!header) throw new FeedFileError('the CSV file is empty: expected a header line naming the columns');
}

/** What every listing needs; the other columns (surface, contacts, dates, title) may be left out. */
const REQUIRED_COLUMNS = ['source_ref', 'price', 'city', 'neighborhood', 'type', 'purpose'];

/**
 * A header naming unknown or missing columns makes every row unreadable: stop at once.
 * With a column map, partner names become fields (null: a column to ignore).
 */
function checkHeader(cells: string[], columns: CsvColumns | undefined): (string | null)[] {
  const names = cells.map((c) => c.trim());
  const known = new Set<string>(RECORD_FIELDS);
  const header = names.map((h, i) => (columns ? columns.fieldOf(h, i) : known.has(h) ? h : undefined));
  const unknown = names.filter((_, i) => header[i] === undefined);
  if (unknown.length > 0) {
    const unreadable = unknown.some((u) => u.includes('\ufffd')) ? ' (the header is not UTF-8: try --encoding windows-1252)' : '';
    throw new FeedFileError(
      (columns
        ? `unknown CSV column(s) ${unknown.map((u) => JSON.stringify(u)).join(', ')}: name them in the map's "columns" (a field, or null to ignore)`
        : `unknown CSV column(s) ${unknown.join(', ')}; the columns are ${RECORD_FIELDS.join(', ')}`) + unreadable,
    );
  }
  const fields = header.filter((h): h is string => h != null);
  const missing = REQUIRED_COLUMNS.filter((f) => !fields.includes(f) && !columns?.provided.has(f));
  if (missing.length > 0) throw new FeedFileError(`missing CSV column(s) ${missing.join(', ')}`);
  const dup = fields.find((h, i) => fields.indexOf(h) !== i);
  if (dup) throw new FeedFileError(`CSV column ${dup} appears twice`);
  return header as (string | null)[];
}
