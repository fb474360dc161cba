/**
 * A feed file as numbered lines of text, read a chunk at a time in the encoding decided
 * for the whole file (encoding.ts). A line longer than MAX_RECORD_BYTES is never held: it
 * comes out once, marked too long, and is skipped up to its end, so memory stays bounded
 * whatever the file (a 50 MB line included).
 */
import { createReadStream } from 'node:fs';
import { type DecidedEncoding, FeedDecoder } from './encoding.js';

/** The most bytes one record (a NDJSON line, a CSV record over all its lines) may hold. */
export const MAX_RECORD_BYTES = 1 << 20;
/** The most lines one CSV record may span (a quoted field with line breaks). */
export const MAX_RECORD_LINES = 100;

export type FeedLine = { line: number; text: string } | { line: number; tooLong: true };

/** What was read so far: bytes (progress), physical lines, and the encoding used. */
export interface LineProgress {
  bytes: number;
  lines?: number;
  encoding?: string;
}

const CHUNK_BYTES = 1 << 20;

export function tooLongReason(line: number): string {
  return `line ${line} is longer than ${MAX_RECORD_BYTES} bytes, the limit of one record: not read`;
}

function byteLength(text: string): number {
  // A character takes at most 3 bytes in UTF-8 (a surrogate pair 4 for 2 characters).
  return text.length * 3 <= MAX_RECORD_BYTES ? text.length : Buffer.byteLength(text, 'utf8');
}

/** The file's lines, one group per chunk read; a trailing `\r` is dropped, the byte order mark too. */
export async function* feedLines(path: string, encoding: DecidedEncoding, progress: LineProgress): AsyncGenerator<FeedLine[]> {
  const decoder = new FeedDecoder(encoding);
  progress.encoding = encoding;
  progress.lines = 0;
  let pending = '';
  let line = 0;
  let skipping = false;
  const take = (raw: string, out: FeedLine[]) => {
    line++;
    if (skipping) {
      skipping = false;
      return;
    }
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    out.push(byteLength(text) > MAX_RECORD_BYTES ? { line, tooLong: true } : { line, text });
  };
  const stream = createReadStream(path, { highWaterMark: CHUNK_BYTES });
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    progress.bytes += chunk.length;
    let text = decoder.write(chunk);
    if (line === 0 && pending === '' && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const out: FeedLine[] = [];
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      take(start === 0 && pending !== '' ? pending + text.slice(0, nl) : text.slice(start, nl), out);
      if (start === 0) pending = '';
      start = nl + 1;
    }
    if (skipping) pending = '';
    else {
      pending += text.slice(start);
      if (pending.length > MAX_RECORD_BYTES) {
        // Longer than any record can be: reported once, then skipped up to its end.
        out.push({ line: line + 1, tooLong: true });
        skipping = true;
        pending = '';
      }
    }
    progress.lines = line;
    if (out.length > 0) yield out;
  }
  const rest = pending + decoder.end();
  if (rest !== '' || skipping) {
    const out: FeedLine[] = [];
    if (skipping) line++;
    else take(rest, out);
    progress.lines = line;
    if (out.length > 0) yield out;
  }
}
