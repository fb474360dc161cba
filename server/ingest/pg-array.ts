/**
 * PostgreSQL array literals (`{"a","b",NULL}`) for the unnest() parameters of batch
 * writes, built as rows arrive into an off-heap buffer per column.
 *
 * Why not arrays of JS strings handed to node-postgres: a batch of thousands of rows
 * would keep about a hundred thousand small strings alive while it fills, and every
 * young-generation garbage collection would copy them again; at a million rows that
 * copying cost more CPU than parsing the feed. Here a row's strings die as soon as they
 * are written, and each column becomes one string when the batch is sent.
 */

const NEEDS_ESCAPE = /["\\]/;
const ESCAPE = /["\\]/g;
const COMMA = 0x2c;
const QUOTE = 0x22;

export class ArrayLiteral {
  private buf: Buffer;
  private len = 1;
  private count = 0;

  constructor(initialBytes = 16 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
    this.buf[0] = 0x7b; // {
  }

  get length(): number {
    return this.count;
  }

  private reserve(bytes: number): void {
    if (this.len + bytes <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.len + bytes) size *= 2;
    const grown = Buffer.allocUnsafe(size);
    this.buf.copy(grown, 0, 0, this.len);
    this.buf = grown;
  }

  text(value: string | null): void {
    if (value === null) return this.raw('NULL');
    const v = NEEDS_ESCAPE.test(value) ? value.replace(ESCAPE, '\\$&') : value;
    // A UTF-16 code unit is at most 3 bytes of UTF-8; plus quotes and comma.
    this.reserve(v.length * 3 + 3);
    if (this.count++ > 0) this.buf[this.len++] = COMMA;
    this.buf[this.len++] = QUOTE;
    this.len += this.buf.write(v, this.len, 'utf8');
    this.buf[this.len++] = QUOTE;
  }

  number(value: number | null): void {
    this.raw(value === null ? 'NULL' : String(value));
  }

  private raw(token: string): void {
    this.reserve(token.length + 1);
    if (this.count++ > 0) this.buf[this.len++] = COMMA;
    this.len += this.buf.write(token, this.len, 'latin1');
  }

  /** The literal, e.g. `{"a","b"}`. */
  toString(): string {
    this.reserve(1);
    this.buf[this.len] = 0x7d; // }
    return this.buf.toString('utf8', 0, this.len + 1);
  }
}

export function textArray(values: readonly string[]): string {
  const literal = new ArrayLiteral();
  for (const v of values) literal.text(v);
  return literal.toString();
}
