/** Option checks shared by the ingest commands (seed, generate, import). */
import { UsageError } from './io.js';
import type { FeedFormat } from '../ingest/feed-reader.js';
import { ColumnMap, ColumnMapError } from '../ingest/column-map.js';
import { FEED_ENCODINGS, type FeedEncoding, feedEncoding } from '../ingest/encoding.js';

export function feedFormat(value: string | undefined): FeedFormat | undefined {
  if (value === undefined) return undefined;
  if (value !== 'ndjson' && value !== 'csv') throw new UsageError('--format must be ndjson or csv');
  return value;
}

/** `--columns FILE`: the partner's column map, read and checked before any row. */
export function columnMap(path: string | undefined): ColumnMap | undefined {
  if (path === undefined) return undefined;
  try {
    return ColumnMap.load(path);
  } catch (err) {
    if (err instanceof ColumnMapError) throw new UsageError(`--columns: ${err.message}`);
    throw err;
  }
}

export function encodingOption(value: string | undefined): FeedEncoding | undefined {
  if (value === undefined) return undefined;
  const encoding = feedEncoding(value);
  if (!encoding) throw new UsageError(`--encoding must be ${FEED_ENCODINGS.join(', ')}`);
  return encoding;
}

/** A count like --listings: digits only, 1 or more; underscores allowed (1_000_000). */
export function count(value: string | undefined, flag: string, max = 100_000_000): number {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${flag} is required`);
  const digits = value.replace(/_/g, '');
  if (!/^\d+$/.test(digits) || Number(digits) < 1) throw new UsageError(`--${flag} must be a positive integer`);
  if (Number(digits) > max) throw new UsageError(`--${flag} must be at most ${max}`);
  return Number(digits);
}

export function seedNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new UsageError('--seed must be an integer from 0 to 999999999');
  return Number(value);
}

/** Source names end up in every listing row and in reports: keep them plain. */
export function sourceName(value: string | undefined, fallback: string): string {
  const v = value ?? fallback;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(v)) {
    throw new UsageError('--source must be 1 to 64 letters, digits, dots, dashes or underscores');
  }
  return v;
}

export const thousands = (n: number) => n.toLocaleString('en-US');
