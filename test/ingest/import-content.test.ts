/**
 * What an import stores is what the file said: valid UTF-8 rows are never reinterpreted
 * because of another row's bytes (`\xFF`, `\xC0\xAF` reject their own row), a reference
 * repeated in one file is held rather than made into price history, CSV points read as
 * numbers (decimal comma included), a city must be a gazetteer city, and report entries
 * are cut to their documented sizes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import { historyOf, ingestSuite, listingsOf, toJsonLines } from './helpers.js';

const { db, work, source } = ingestSuite();

const HEADER = 'source_ref,title,price,city,neighborhood,type,purpose';
/** The report's documented sizes (README, "Loading listings"). */
const REPORTED_REF_CHARS = 200;
const REPORTED_REASON_CHARS = 500;
const NOT_UTF8 = 'holds bytes that are not UTF-8 (the file is in another encoding: try --encoding windows-1252)';

describe('encoding', () => {
  it('one bad byte never turns the valid UTF-8 rows into Windows-1252: `\\xFF` and `\\xC0\\xAF` reject their own row', async () => {
    const utf8 = (s: string) => Buffer.from(s, 'utf8');
    const file = join(work.dir, 'mixed-bytes.csv');
    writeFileSync(
      file,
      Buffer.concat([
        utf8(`${HEADER}\n`),
        utf8('E-1,Studio à louer,60000,Yaoundé,Bastos,studio,rent\n'),
        utf8('E-2,Studio '),
        Buffer.from([0xff]),
        utf8(' à louer,61000,Yaoundé,Bastos,studio,rent\n'),
        utf8('E-3,Studio à louer,62000,Yaoundé,Bastos'),
        Buffer.from([0xc0, 0xaf]),
        utf8(',studio,rent\n'),
        utf8('E-4,Chambre à louer,30000,Yaoundé,Essos,room,rent\n'),
      ]),
    );
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src });
    expect(result.encoding).toBe('utf-8');
    expect(result.rejected_sample).toEqual([
      { line: 3, source_ref: 'E-2', reason: `title: ${NOT_UTF8}` },
      { line: 4, source_ref: 'E-3', reason: `neighborhood: ${NOT_UTF8}` },
    ]);
    const stored = await listingsOf(db, src);
    expect(stored.map((l) => [l.source_ref, l.city, l.city_key, l.title])).toEqual([
      ['E-1', 'Yaoundé', 'yaounde', 'Studio à louer'],
      ['E-4', 'Yaoundé', 'yaounde', 'Chambre à louer'],
    ]);
  });

  it('a file none of whose lines is UTF-8 beyond ASCII is still read as Windows-1252', async () => {
    const file = join(work.dir, 'excel.csv');
    writeFileSync(file, Buffer.from(`${HEADER}\r\nW-1,Studio à louer,60000,Yaoundé,Bastos,studio,rent\r\n`, 'latin1'));
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src });
    expect(result.encoding).toBe('windows-1252');
    expect((await listingsOf(db, src)).map((l) => [l.city, l.title])).toEqual([['Yaoundé', 'Studio à louer']]);
  });
});

describe('a reference repeated within one file', () => {
  it('is held and reported, not turned into price history', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      source_ref: 'SAME',
      price: 100_000 + i,
      city: 'Douala',
      neighborhood: 'Akwa',
      type: 'apartment',
      purpose: 'rent',
    }));
    const src = source();
    const result = await importFile(db.pool, { file: work.write('same.ndjson', toJsonLines(rows)), format: 'ndjson', source: src });
    expect(result.counts).toMatchObject({ records: 10_000, accepted: 1, held: 9_999, inserted: 1, repriced: 0 });
    const stored = await listingsOf(db, src);
    expect(stored.map((l) => [l.source_ref, Number(l.price)])).toEqual([['SAME', 100_000]]);
    // A new listing's price is its own, not a change: no history entry at all.
    expect(await historyOf(db, src)).toEqual([]);
    const report = JSON.parse(readFileSync(result.report_path, 'utf8')) as { held: unknown[] };
    expect(report.held).toHaveLength(9_999);
    expect(report.held[0]).toEqual({
      line: 2,
      source_ref: 'SAME',
      first_line: 1,
      reason: 'source_ref is already on line 1 of this file: that row is taken, this one held',
    });
  });
});

describe('CSV points', () => {
  it.each([
    ['points.csv', ',', '4.0511', '9.7679'],
    ['points-fr.csv', ';', '4,0511', '9,7679'],
  ])('%s: lat and lng are numbers, with a decimal point or comma', async (name, sep, lat, lng) => {
    const file = work.write(
      name,
      [
        ['source_ref', 'price', 'city', 'neighborhood', 'type', 'purpose', 'lat', 'lng'],
        ['P-1', '90000', 'Douala', '', 'studio', 'rent', lat, lng],
      ]
        .map((r) => r.join(sep))
        .join('\n'),
    );
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src });
    expect(result.rejected_sample).toEqual([]);
    const { rows } = await db.pool.query('SELECT lat, lng FROM listings WHERE source = $1', [src]);
    expect(rows.map((r) => [Number(r.lat), Number(r.lng)])).toEqual([[4.051, 9.768]]);
  });

  it('a point that is not a number is still refused', async () => {
    const file = work.write(
      'bad-point.csv',
      'source_ref,price,city,neighborhood,type,purpose,lat,lng\nP-2,90000,Douala,Akwa,studio,rent,4.05N,9.76E\n',
    );
    const result = await importFile(db.pool, { file, format: 'csv', source: source() });
    expect(result.rejected_sample).toEqual([{ line: 2, source_ref: 'P-2', reason: 'lat: must be a number; lng: must be a number' }]);
  });
});

describe('the city', () => {
  it('must be a gazetteer city: an unknown one rejects the row, naming the closest known cities', async () => {
    const file = work.write(
      'cities.csv',
      `${HEADER}\nC-1,Studio,60000,Douallaa,Akwa,studio,rent\nC-2,Studio,60000,Springfield,Akwa,studio,rent\nC-3,Studio,60000,douala,Akwa,studio,rent\n`,
    );
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src });
    expect(result.rejected_sample).toEqual([
      { line: 2, source_ref: 'C-1', reason: 'city: "Douallaa" is not a known city, closest known: Douala' },
      {
        line: 3,
        source_ref: 'C-2',
        reason:
          'city: "Springfield" is not a known city (known: Bafoussam, Bamenda, Bertoua, Buea, Douala, Ebolowa, Garoua, Kribi, Limbe, Maroua, Ngaoundéré, Yaoundé)',
      },
    ]);
    expect((await listingsOf(db, src)).map((l) => l.city)).toEqual(['Douala']);
  });
});

describe('report entries', () => {
  it(`cut a reference to ${REPORTED_REF_CHARS} characters and a reason to ${REPORTED_REASON_CHARS}`, async () => {
    const longRef = 'R'.repeat(5_000);
    const longKey = 'k'.repeat(100_000);
    const file = work.write(
      'long.ndjson',
      toJsonLines([
        { source_ref: longRef, price: 90_000, city: 'Douala', neighborhood: 'Akwa', type: 'studio', purpose: 'rent' },
        { source_ref: 'K-1', price: 90_000, city: 'Douala', neighborhood: 'Akwa', type: 'studio', purpose: 'rent', [longKey]: 1 },
      ]),
    );
    const result = await importFile(db.pool, { file, format: 'ndjson', source: source() });
    const report = JSON.parse(readFileSync(result.report_path, 'utf8')) as { rejected: Array<{ source_ref: string; reason: string }> };
    expect(report.rejected[0]).toEqual({
      line: 1,
      source_ref: `${'R'.repeat(REPORTED_REF_CHARS - 1)}…`,
      reason: 'source_ref: must be at most 200 characters',
    });
    expect(report.rejected[1].reason).toBe(`unknown field(s) ${longKey}`.slice(0, REPORTED_REASON_CHARS - 1) + '…');
    expect(readFileSync(result.report_path).length).toBeLessThan(5_000);
  });
});
