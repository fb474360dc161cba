/**
 * CSV records out of numbered lines (RFC 4180: a quoted field may hold separators, `""`
 * and line breaks; a quote inside an unquoted field is an ordinary character). A record
 * may span at most MAX_RECORD_LINES lines and MAX_RECORD_BYTES bytes: a quote left open
 * longer than that (or to the end of the file) makes its first line unreadable, and the
 * lines after it are read again as records of their own, so one stray quote costs one
 * row, never the rest of the file.
 */
import { type FeedLine, MAX_RECORD_BYTES, MAX_RECORD_LINES, tooLongReason } from './feed-lines.js';

export type CsvRecord =
  { line: number; lines: number; cells: string[] } | { line: number; lines: number; error: string } | { line: number; blank: true };

/** Whether a line leaves a quoted field open, given whether it starts inside one. */
function endsQuoted(text: string, quoted: boolean, sep: string): boolean {
  let fieldStart = !quoted;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
    } else if (c === sep) fieldStart = true;
    else {
      if (c === '"' && fieldStart) quoted = true;
      fieldStart = false;
    }
  }
  return quoted;
}

/** The cells of one whole record, or why it cannot be read. */
export function splitRecord(text: string, sep: string): string[] | string {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (text[i] === '"') {
      let cell = '';
      let from = i + 1;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q === -1) return 'a quoted field is not closed';
        cell += text.slice(from, q);
        if (text[q + 1] === '"') {
          cell += '"';
          from = q + 2;
          continue;
        }
        i = q + 1;
        break;
      }
      if (i < text.length && text[i] !== sep) return `characters after the closing quote of field ${cells.length + 1}`;
      cells.push(cell);
    } else {
      const end = text.indexOf(sep, i);
      cells.push(text.slice(i, end === -1 ? text.length : end));
      i = end === -1 ? text.length : end;
    }
    if (i >= text.length) return cells;
    i++; // the separator
    if (i === text.length) {
      cells.push('');
      return cells;
    }
  }
}

/** Assembles records line by line; `flush` at the end of the file. */
export class CsvRecords {
  private open: { line: number; text: string }[] = [];
  private bytes = 0;

  constructor(private readonly sep: string) {}

  push(lines: FeedLine[]): CsvRecord[] {
    const out: CsvRecord[] = [];
    const queue = lines.slice();
    for (let k = 0; k < queue.length; k++) this.take(queue[k], out, queue, k);
    return out;
  }

  flush(): CsvRecord[] {
    const out: CsvRecord[] = [];
    const queue: FeedLine[] = [];
    while (this.open.length > 0) {
      const rest = this.abandon(out, 'is never closed (an unclosed quote?)');
      queue.push(...rest);
      for (let k = 0; k < queue.length; k++) this.take(queue[k], out, queue, k);
      queue.length = 0;
    }
    return out;
  }

  /** One line; a failed record puts its later lines back in `queue` after position `k`. */
  private take(l: FeedLine, out: CsvRecord[], queue: FeedLine[], k: number): void {
    if ('tooLong' in l) {
      if (this.open.length > 0) {
        // Its other lines are read again, then the long line on its own.
        queue.splice(k + 1, 0, ...this.abandon(out, `runs into line ${l.line}, longer than ${MAX_RECORD_BYTES} bytes`), l);
        return;
      }
      out.push({ line: l.line, lines: 1, error: tooLongReason(l.line) });
      return;
    }
    if (this.open.length === 0 && l.text.trim() === '') {
      out.push({ line: l.line, blank: true });
      return;
    }
    const quotedBefore = this.open.length > 0;
    this.open.push(l);
    if (!endsQuoted(l.text, quotedBefore, this.sep)) {
      const first = this.open[0].line;
      const n = this.open.length;
      const text = this.open.map((o) => o.text).join('\n');
      this.open = [];
      this.bytes = 0;
      const cells = splitRecord(text, this.sep);
      out.push(typeof cells === 'string' ? { line: first, lines: n, error: `unreadable CSV: ${cells}` } : { line: first, lines: n, cells });
      return;
    }
    this.bytes += Buffer.byteLength(l.text, 'utf8') + 1;
    if (this.open.length >= MAX_RECORD_LINES || this.bytes > MAX_RECORD_BYTES) {
      const why = `is not closed within ${MAX_RECORD_LINES} lines or ${MAX_RECORD_BYTES} bytes (an unclosed quote?)`;
      queue.splice(k + 1, 0, ...this.abandon(out, why));
    }
  }

  /** Rejects the open record's first line; returns its other lines, to be read again. */
  private abandon(out: CsvRecord[], why: string): FeedLine[] {
    const [first, ...rest] = this.open;
    out.push({ line: first.line, lines: 1, error: `unreadable CSV: the quoted field opened on line ${first.line} ${why}` });
    this.open = [];
    this.bytes = 0;
    return rest;
  }
}
