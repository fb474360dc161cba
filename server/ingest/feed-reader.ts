/**
 * Reads a feed file a chunk at a time, never the whole file: NDJSON by lines, CSV by
 * records of at most MAX_RECORD_LINES lines and MAX_RECORD_BYTES bytes (csv-records.ts),
 * in the encoding decided for the whole file before any row (encoding.ts). Each row comes
 * out with the line it starts on and the lines it spans, either as a raw object (still to
 * validate) or as the reason it could not be read at all, so one malformed row never
 * stops the rows after it. Rows come in groups (those of one read chunk): one await per
 * group rather than per row, which matters at a million rows.
 */
import { csvSeparator } from './csv-dialect.js';
import { CsvRecords } from './csv-records.js';
import { decideEncoding, type FeedEncoding } from './encoding.js';
import { feedLines, type LineProgress, tooLongReason } from './feed-lines.js';
import { RECORD_FIELDS } from './record.js';

export type FeedFormat = 'ndjson' | 'csv';

/** A record: `line` its first line, `lines` how many it spans (1 unless a CSV field holds line breaks). */
export type FeedRow =
  { line: number; lines?: number; value: Record<string, unknown> } | { line: number; lines?: number; error: string; sourceRef?: string };

export function formatFromPath(path: string): FeedFormat | null {
  if (/\.(ndjson|jsonl)$/i.test(path)) return 'ndjson';
  if (/\.csv$/i.test(path)) return 'csv';
  return null;
}

/**
 * Bytes read so far (progress), the encoding the text is read in, and the file's lines:
 * `lines` read, of which `header_lines` (a CSV's first) and `blank_lines`; every other
 * line belongs to one record.
 */
export interface ReadProgress extends LineProgress {
  header_lines?: number;
  blank_lines?: number;
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
  progress.header_lines = 0;
  progress.blank_lines = 0;
  for await (const lines of feedLines(path, await decideEncoding(path, encoding), progress)) {
    const rows: FeedRow[] = [];
    for (const l of lines) {
      if ('tooLong' in l) rows.push({ line: l.line, error: tooLongReason(l.line) });
      else if (l.text.trim() === '') progress.blank_lines++;
      else rows.push(parseJsonRow(l.text, l.line));
    }
    if (rows.length > 0) yield rows;
  }
}

const NUMBER_FIELDS = new Set(['price', 'surface', 'bedrooms', 'bathrooms', 'advance_months', 'deposit_months', 'lat', 'lng']);
/** A coordinate as spreadsheets write it: `4.0511`, `-4,0511` (decimal comma), `9.7`. */
const COORDINATE = /^\s*[-+]?\d{1,3}([.,]\d+)?\s*$/;
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
 * numbers (`lat` and `lng` with a decimal point or comma), `furnished` a boolean (true/false, oui/non, yes/no, 1/0, in any case). A
 * non-numeric price (or an unreadable yes/no) stays a string so that validation names the problem.
 */
function csvValue(field: string, cell: string): unknown {
  if (cell === '') return undefined;
  // A cell is a slice of the chunk of text it was read from: the reference, which the import
  // keeps for the whole file (repeats.ts), is copied so that it does not keep the chunk alive.
  if (field === 'source_ref') return Buffer.from(cell, 'utf8').toString('utf8');
  if ((field === 'lat' || field === 'lng') && COORDINATE.test(cell)) return Number(cell.trim().replace(',', '.'));
  if (NUMBER_FIELDS.has(field) && NUMERIC.test(cell)) return Number(cell);
  if (field === 'furnished') return BOOLEANS.get(cell.trim().toLowerCase()) ?? cell;
  return cell;
}

export class FeedFileError extends Error {}

async function* readCsv(path: string, progress: ReadProgress, options: ReadOptions): AsyncGenerator<FeedRow[]> {
  progress.header_lines = 0;
  progress.blank_lines = 0;
  const sep = csvSeparator(path);
  const records = new CsvRecords(sep);
  let header: (string | null)[] | null = null;
  const rowsOf = (batch: ReturnType<CsvRecords['push']>): FeedRow[] => {
    const rows: FeedRow[] = [];
    for (const r of batch) {
      if ('blank' in r) progress.blank_lines!++;
      else if ('error' in r) rows.push(r);
      else if (!header) {
        header = checkHeader(r.cells, options.columns);
        progress.header_lines = r.lines;
      } else rows.push(csvRow(header, r.cells, r.line, r.lines));
    }
    return rows;
  };
  for await (const lines of feedLines(path, await decideEncoding(path, options.encoding), progress)) {
    const rows = rowsOf(records.push(lines));
    if (rows.length > 0) yield rows;
  }
  const rows = rowsOf(records.flush());
  if (rows.length > 0) yield rows;
  if (!header) throw new FeedFileError('the CSV file is empty: expected a header line naming the columns');
}

function csvRow(header: (string | null)[], cells: string[], line: number, lines: number): FeedRow {
  if (cells.length !== header.length) {
    const refAt = header.indexOf('source_ref');
    return {
      line,
      lines,
      error: `has ${cells.length} fields where the header has ${header.length}`,
      sourceRef: refAt >= 0 && cells[refAt] ? cells[refAt] : undefined,
    };
  }
  const value: Record<string, unknown> = {};
  for (let i = 0; i < header.length; i++) {
    const field = header[i];
    if (field === null) continue;
    const v = csvValue(field, cells[i]);
    if (v !== undefined) value[field] = v;
  }
  return { line, lines, value };
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
