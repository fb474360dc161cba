/**
 * Writes listings as an importable feed file, NDJSON or CSV, streaming with backpressure:
 * `admin generate` can produce millions of rows without holding them. CSV has no place
 * for the price history array; NDJSON carries it.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { FeedFormat } from '../ingest/feed-reader.js';
import { type ListingRecord, RECORD_FIELDS } from '../ingest/record.js';

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(): string {
  return `${RECORD_FIELDS.join(',')}\n`;
}

export function csvLine(record: ListingRecord): string {
  return `${RECORD_FIELDS.map((f) => csvCell(record[f])).join(',')}\n`;
}

export function ndjsonLine(record: ListingRecord): string {
  return `${JSON.stringify(record)}\n`;
}

export async function writeFeed(
  path: string,
  format: FeedFormat,
  records: Iterable<ListingRecord>,
  onProgress?: (written: number) => void,
): Promise<number> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  const failed = once(out, 'error').then(([err]) => {
    throw err;
  });
  failed.catch(() => {});
  let written = 0;
  let reported = 0;
  let chunk = format === 'csv' ? csvHeader() : '';
  const line = format === 'csv' ? csvLine : ndjsonLine;
  for (const record of records) {
    chunk += line(record);
    written++;
    if (chunk.length >= 256 * 1024) {
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
      chunk = '';
      if (written - reported >= 50_000) onProgress?.((reported = written));
    }
  }
  out.end(chunk);
  await Promise.race([once(out, 'finish'), failed]);
  return written;
}
