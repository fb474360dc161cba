/**
 * An import never loses or corrupts what it was given: a stray quote costs one row (never
 * the rest of the file, never the source's listings through `--full`), every line of the
 * file is accounted for in the report, `--full` withdraws nothing past its guards unless
 * forced, and a NUL byte rejects its row instead of aborting the import.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import { ingestSuite, listingsOf, toJsonLines } from './helpers.js';

const { db, work, source } = ingestSuite();

/** The most lines a CSV record may span (README, "Loading listings"). */
const MAX_RECORD_LINES = 100;
const HEADER = 'source_ref,title,price,city,neighborhood,type,purpose';
const NEIGHBORHOODS = ['Akwa', 'Bonapriso', 'Makepe', 'Deido', 'Bonamoussadi'];
/** One CSV line: a listing of its own (its title and price differ from every other). */
const csvLine = (i: number, title = `Appartement ${i} à louer`) =>
  `R-${String(i).padStart(4, '0')},${title},${100_000 + i * 1_000},Douala,${NEIGHBORHOODS[i % NEIGHBORHOODS.length]},apartment,rent`;
const csvFile = (name: string, lines: string[]) => work.write(name, `${[HEADER, ...lines].join('\n')}\n`);

async function active(src: string): Promise<string[]> {
  return (await listingsOf(db, src)).filter((l) => l.status === 'active').map((l) => l.source_ref);
}

/** The report's own arithmetic, checked on every import below. */
function expectCountsAddUp(c: Record<string, number>): void {
  expect(c.lines).toBe(c.header_lines + c.blank_lines + c.record_lines);
  expect(c.records).toBe(c.accepted + c.rejected + c.skipped + c.held);
}

describe('a stray quote', () => {
  it('costs its own row only: the lines after it are read again, and every line is counted', async () => {
    const lines = Array.from({ length: 62 }, (_, i) => csvLine(i + 1));
    lines[30] = csvLine(31, '"Villa à vendre');
    lines.splice(40, 0, '');
    const file = csvFile('stray.csv', lines);
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src });

    expect(result.counts).toMatchObject({ lines: 64, header_lines: 1, blank_lines: 1, record_lines: 62, records: 62 });
    expect(result.counts).toMatchObject({ accepted: 61, rejected: 1, unreadable: 1, inserted: 61 });
    expectCountsAddUp(result.counts as unknown as Record<string, number>);
    expect(result.rejected_sample).toEqual([
      { line: 32, reason: 'unreadable CSV: the quoted field opened on line 32 is never closed (an unclosed quote?)' },
    ]);
    expect(await active(src)).toHaveLength(61);
  });

  it(`ends after ${MAX_RECORD_LINES} lines at most, in the middle of a long file too`, async () => {
    const lines = Array.from({ length: 400 }, (_, i) => csvLine(i + 1));
    lines[9] = csvLine(10, '"Villa à vendre');
    // A quoted title over three lines is still one record.
    lines[300] = csvLine(301, '"Villa\nà\nvendre"');
    const file = csvFile('long.csv', lines);
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src });
    expect(result.counts).toMatchObject({ lines: 403, records: 400, record_lines: 402, accepted: 399, rejected: 1 });
    expectCountsAddUp(result.counts as unknown as Record<string, number>);
    expect(result.rejected_sample[0]).toEqual({
      line: 11,
      reason: `unreadable CSV: the quoted field opened on line 11 is not closed within ${MAX_RECORD_LINES} lines or 1048576 bytes (an unclosed quote?)`,
    });
    const stored = await listingsOf(db, src);
    expect(stored).toHaveLength(399);
    expect(stored.find((l) => l.source_ref === 'R-0301')!.title).toBe('Villa à vendre');
  });

  it('with --full withdraws nothing: a record could not be read', async () => {
    const src = source();
    await importFile(db.pool, {
      file: csvFile(
        'day1.csv',
        Array.from({ length: 50 }, (_, i) => csvLine(i + 1)),
      ),
      format: 'csv',
      source: src,
    });
    const day2 = Array.from({ length: 50 }, (_, i) => csvLine(i + 1));
    day2[1] = csvLine(2, '"Villa à vendre');
    const result = await importFile(db.pool, { file: csvFile('day2.csv', day2), format: 'csv', source: src, full: true });

    expect(result.counts).toMatchObject({ records: 50, accepted: 49, unreadable: 1, removed: 0 });
    expect(result.full_skipped_reason).toBe(
      '1 record(s) of the file could not be read (the first on line 3): the listings they hold are unknown, so none is withdrawn (--force-full withdraws anyway)',
    );
    expect(JSON.parse(readFileSync(result.report_path, 'utf8')).full_skipped_reason).toBe(result.full_skipped_reason);
    expect(await active(src)).toHaveLength(50);
  });
});

describe('--full past its share', () => {
  it('withdraws nothing when the file lacks more than a quarter of the source; --force-full withdraws, and says so', async () => {
    const src = source();
    const all = Array.from({ length: 50 }, (_, i) => csvLine(i + 1));
    await importFile(db.pool, { file: csvFile('all.csv', all), format: 'csv', source: src });
    const part = csvFile('part.csv', all.slice(0, 20));

    const refused = await importFile(db.pool, { file: part, format: 'csv', source: src, full: true });
    expect(refused.counts.removed).toBe(0);
    expect(refused.full_skipped_reason).toBe(
      "the file lacks 30 of the source's 50 active listings (60 %), more than 25 %: a truncated or wrong file? (--force-full withdraws anyway)",
    );
    expect(await active(src)).toHaveLength(50);

    const forced = await importFile(db.pool, { file: part, format: 'csv', source: src, full: true, forceFull: true });
    expect(forced.counts.removed).toBe(30);
    expect(forced.full_forced).toBe(
      "--force-full: withdrawn although the file lacks 30 of the source's 50 active listings (60 %), more than 25 %: a truncated or wrong file?",
    );
    expect(JSON.parse(readFileSync(forced.report_path, 'utf8')).full_forced).toBe(forced.full_forced);
    expect(await active(src)).toHaveLength(20);
  });

  it('still withdraws a few listings of a small share', async () => {
    const src = source();
    const all = Array.from({ length: 50 }, (_, i) => csvLine(i + 1));
    await importFile(db.pool, { file: csvFile('all.csv', all), format: 'csv', source: src });
    const result = await importFile(db.pool, { file: csvFile('most.csv', all.slice(0, 38)), format: 'csv', source: src, full: true });
    expect(result.counts.removed).toBe(12);
    expect(result.full_skipped_reason).toBeUndefined();
  });
});

describe('a NUL byte', () => {
  const rows = Array.from({ length: 1_001 }, (_, i) => ({
    source_ref: `N-${i + 1}`,
    title: `Studio ${i + 1} à louer`,
    price: 50_000 + i * 100,
    city: 'Yaoundé',
    neighborhood: 'Bastos',
    type: 'studio',
    purpose: 'rent',
  }));

  it('in an NDJSON text field rejects that row, naming the field, and the import goes on', async () => {
    const feed = rows.map((r, i) =>
      i === 500 ? { ...r, title: 'Studio\u0000 à louer' } : i === 600 ? { ...r, title: 'Studio \ud800' } : r,
    );
    const src = source();
    const result = await importFile(db.pool, { file: work.write('nul.ndjson', toJsonLines(feed)), format: 'ndjson', source: src });
    expect(result.counts).toMatchObject({ records: 1_001, accepted: 999, rejected: 2, inserted: 999 });
    expect(result.rejected_sample).toEqual([
      { line: 501, source_ref: 'N-501', reason: 'title: holds a NUL byte (U+0000)' },
      // Half a surrogate pair is no character: stored, it would silently become U+FFFD.
      { line: 601, source_ref: 'N-601', reason: 'title: holds an unpaired surrogate (no Unicode character)' },
    ]);
    expect(await listingsOf(db, src)).toHaveLength(999);
  });

  it('in a CSV cell, the reference too, likewise, with --full as well', async () => {
    const lines = rows.map((r) => [r.source_ref, r.title, r.price, r.city, r.neighborhood, r.type, r.purpose].join(','));
    lines[10] = lines[10].replace('Bastos', 'Bas\u0000tos');
    lines[20] = lines[20].replace('N-21', 'N-2\u00001');
    const src = source();
    const result = await importFile(db.pool, { file: csvFile('nul.csv', lines), format: 'csv', source: src, full: true });
    expect(result.counts).toMatchObject({ accepted: 999, rejected: 2, removed: 0 });
    expect(result.rejected_sample).toEqual([
      { line: 12, source_ref: 'N-11', reason: 'neighborhood: holds a NUL byte (U+0000)' },
      { line: 22, source_ref: 'N-2\u00001', reason: 'source_ref: holds a NUL byte (U+0000)' },
    ]);
    expect(await listingsOf(db, src)).toHaveLength(999);
  });
});

describe('admin import --force-full', () => {
  const admin = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], { encoding: 'utf8', timeout: 60_000 });

  it('goes with --full only, and the summary says what it overrode', async () => {
    const src = source();
    const all = Array.from({ length: 50 }, (_, i) => csvLine(i + 1));
    await importFile(db.pool, { file: csvFile('cli-all.csv', all), format: 'csv', source: src });
    const part = csvFile('cli-part.csv', all.slice(0, 20));

    const alone = admin('import', part, '--source', src, '--force-full');
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--force-full goes with --full');

    const refused = admin('import', part, '--source', src, '--full');
    expect(refused.status).toBe(0);
    expect(refused.stdout).toContain('--full not applied: the file lacks 30 of the source');
    expect(await active(src)).toHaveLength(50);

    const forced = admin('import', part, '--source', src, '--full', '--force-full');
    expect(forced.status).toBe(0);
    expect(forced.stdout).toContain('21 lines, 20 records: 20 accepted, 0 rejected');
    expect(forced.stdout).toContain("--force-full: withdrawn although the file lacks 30 of the source's 50 active listings");
    expect(await active(src)).toHaveLength(20);
  });
});
