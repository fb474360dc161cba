/**
 * The CSV record reader on its own: any record written by the RFC 4180 rules (quotes,
 * doubled quotes, separators and line breaks inside quotes) reads back as written, and
 * an open quote costs its own line only, whatever follows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CsvRecord, CsvRecords } from '../../server/ingest/csv-records.js';
import type { FeedLine } from '../../server/ingest/feed-lines.js';

const lines = (text: string): FeedLine[] => text.split('\n').map((t, i) => ({ line: i + 1, text: t }));

function read(text: string, sep = ','): CsvRecord[] {
  const r = new CsvRecords(sep);
  return [...r.push(lines(text)), ...r.flush()];
}

const quote = (cell: string, sep: string) =>
  /["\n]/.test(cell) || cell.includes(sep) || cell.startsWith(' ') ? `"${cell.replaceAll('"', '""')}"` : cell;

describe('CsvRecords', () => {
  it.each([',', ';', '\t'])('reads back any record written with %j', (sep) => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'é', '"', sep, '\n', ' ', '1') });
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 10 }), (rows) => {
        // A line of blanks is no record, as in any CSV reader.
        const written = rows.map((r) => r.map((c) => quote(c, sep)).join(sep));
        const nonBlank = rows.filter((_, i) => written[i].trim() !== '');
        const text = written.filter((w) => w.trim() !== '').join('\n');
        const got = read(text, sep).filter((r) => 'cells' in r);
        expect(got.map((r) => ('cells' in r ? r.cells : null))).toEqual(nonBlank);
      }),
      { numRuns: 300 },
    );
  });

  it('a quote in the middle of a field is an ordinary character', () => {
    expect(read('a,5" pipe,b')).toEqual([{ line: 1, lines: 1, cells: ['a', '5" pipe', 'b'] }]);
  });

  it('an open quote costs its own line: the lines after it are records again', () => {
    expect(read('a,b\n"x,y\nc,d\ne,f')).toEqual([
      { line: 1, lines: 1, cells: ['a', 'b'] },
      { line: 2, lines: 1, error: 'unreadable CSV: the quoted field opened on line 2 is never closed (an unclosed quote?)' },
      { line: 3, lines: 1, cells: ['c', 'd'] },
      { line: 4, lines: 1, cells: ['e', 'f'] },
    ]);
  });

  it('a record spans its lines, and a closed quote followed by text is unreadable', () => {
    expect(read('"a\nb",c\n"x"y,z')).toEqual([
      { line: 1, lines: 2, cells: ['a\nb', 'c'] },
      { line: 3, lines: 1, error: 'unreadable CSV: characters after the closing quote of field 1' },
    ]);
  });
});
