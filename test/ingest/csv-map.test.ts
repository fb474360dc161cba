/**
 * Partner exports imported as they are: their column names, labels and money formats
 * through a column map (`--columns`), the Windows-1252 files Excel writes in French
 * (detected or named), rows priced "on request" skipped apart from rejections, and a bad
 * map or an unknown column refused before anything is stored.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColumnMap } from '../../server/ingest/column-map.js';
import { importFile } from '../../server/ingest/import.js';
import type { Database } from '../../server/platform/db.js';
import { FIXTURES, listingsOf, removeSource, testDatabase, testSource, workdir, type Workdir } from './helpers.js';

let db: Database;
let work: Workdir;
const sources: string[] = [];

beforeAll(() => {
  db = testDatabase();
  work = workdir();
});
afterAll(async () => {
  await removeSource(db, ...sources);
  work.remove();
  await db.close();
});

function source(): string {
  const s = testSource();
  sources.push(s);
  return s;
}

const MAP_FILE = join(FIXTURES, 'partner-map.json');
const partnerMap = () => ColumnMap.load(MAP_FILE);
const partnerText = () => readFileSync(join(FIXTURES, 'partner-fr.csv'), 'utf8');

/** Text as Excel saves it in French: Windows-1252, é the single byte E9, € the byte 80. */
function windows1252(name: string, text: string): string {
  const bytes = [...text].map((c) => {
    const code = c.charCodeAt(0);
    if (c === '€') return 0x80;
    if (code > 0xff || (code >= 0x80 && code < 0xa0)) throw new Error(`not written by this test's encoder: ${c}`);
    return code;
  });
  const path = join(work.dir, name);
  writeFileSync(path, Buffer.from(bytes));
  return path;
}

function admin(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('a partner CSV through its column map', () => {
  it('imports the French export as written, Windows-1252 detected, the price on request skipped apart', async () => {
    const file = windows1252('partner-auto.csv', partnerText());
    expect(readFileSync(file).includes(Buffer.from('Yaound\xe9', 'latin1'))).toBe(true);
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src, columns: partnerMap() });
    expect(result.encoding).toBe('windows-1252');
    expect(result.counts).toMatchObject({ rows: 5, accepted: 4, rejected: 0, skipped: 1, inserted: 4 });
    const report = JSON.parse(readFileSync(result.report_path, 'utf8'));
    expect(report.rejected).toEqual([]);
    expect(report.skipped).toEqual([{ line: 5, source_ref: 'DLA-104', reason: 'price: given on request' }]);
    const stored = await listingsOf(db, src);
    const pick = (l: (typeof stored)[number]) => [
      l.source_ref,
      Number(l.price),
      l.city,
      l.neighborhood,
      l.type,
      l.purpose,
      l.bedrooms,
      l.bathrooms,
      l.surface,
    ];
    expect(stored.map(pick)).toEqual([
      ['DLA-101', 350_000, 'Douala', 'Bonapriso', 'apartment', 'rent', 3, 2, 120],
      ['DLA-102', 1_200_000, 'Douala', 'Deïdo', 'apartment', 'furnished_rent', 2, 1, 85.5],
      ['DLA-103', 250_000_000, 'Yaoundé', 'Bastos', 'villa', 'sale', 5, 4, 600],
      ['DLA-105', 25_000_000, 'Douala', 'Makepe', 'land', 'sale', null, null, 500],
    ]);
    expect(stored[0]).toMatchObject({ title: 'Bel appartement à Bonapriso', contact_name: 'Mme Ngo Bébé' });
    expect(stored[3].title).toBe('Terrain titré');
  });

  it('reads the same bytes alike when --encoding names Windows-1252; read as UTF-8, refuses them with the field named', async () => {
    const file = windows1252('partner-named.csv', partnerText());
    const named = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: named, columns: partnerMap(), encoding: 'windows-1252' });
    expect(result.counts).toMatchObject({ accepted: 4, skipped: 1 });
    expect((await listingsOf(db, named)).map((l) => l.neighborhood)).toContain('Deïdo');

    // Its header (Référence) cannot be read as UTF-8: nothing is read, and the message says why.
    await expect(importFile(db.pool, { file, format: 'csv', source: source(), columns: partnerMap(), encoding: 'utf-8' })).rejects.toThrow(
      '(the header is not UTF-8: try --encoding windows-1252)',
    );

    const plain = windows1252(
      'plain-1252.csv',
      'source_ref,title,price,city,neighborhood,type,purpose\nW-1,Studio à Deïdo,50000,Douala,Deïdo,studio,rent\n' +
        'W-2,Villa,300000000,Yaoundé,Bastos,villa,sale\nW-3,Appartement,100000,Douala,Akwa,apartment,rent\n',
    );
    const auto = source();
    await importFile(db.pool, { file: plain, format: 'csv', source: auto });
    expect((await listingsOf(db, auto)).map((l) => [l.title, l.city, l.neighborhood])).toEqual([
      ['Studio à Deïdo', 'Douala', 'Deïdo'],
      ['Villa', 'Yaoundé', 'Bastos'],
      ['Appartement', 'Douala', 'Akwa'],
    ]);
    const forced = source();
    const wrong = await importFile(db.pool, { file: plain, format: 'csv', source: forced, encoding: 'utf-8' });
    const why = 'holds bytes that are not UTF-8 (the file is in another encoding: try --encoding windows-1252)';
    expect(wrong.rejected_sample.map((r) => [r.line, r.source_ref, r.reason])).toEqual([
      [2, 'W-1', `title: ${why}; neighborhood: ${why}`],
      [3, 'W-2', `city: ${why}`],
    ]);
    const { rows } = await db.pool.query(`SELECT source_ref FROM listings WHERE source = $1`, [forced]);
    expect(rows).toEqual([{ source_ref: 'W-3' }]);
  });

  it('imports at least 99 % of a 300-row export whose prices, counts and labels are written in French', async () => {
    const hoods = ['Akwa', 'Bonapriso', 'Deïdo', 'Makepe'];
    const types: Array<[string, string]> = [
      ['Appartement', 'apartment'],
      ['VILLA', 'villa'],
      ['duplex', 'duplex'],
    ];
    const purposes: Array<[string, string]> = [
      ['A louer', 'rent'],
      ['Location', 'rent'],
      ['À vendre', 'sale'],
      ['meublé', 'furnished_rent'],
    ];
    const spaced = (n: number, sep: string) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, sep);
    const priceText = (n: number, i: number) =>
      [
        `${spaced(n, ' ')} FCFA`,
        `${spaced(n, '.')} F CFA`,
        `CFA ${spaced(n, ',')}`,
        `${String(n / 1e6).replace('.', ',')} million`,
        `${n / 1e6}M`,
        `${spaced(n, '\u00a0')}\u00a0FCFA/mois`,
      ][i % 6];
    const expected = new Map<string, unknown[]>();
    const lines = ['Réf.;Prix;Quartier;Type;Transaction;Chambres;Salles de bain;Superficie'];
    for (let i = 0; i < 300; i++) {
      const ref = `FR-${i}`;
      const price = 100_000 * (i + 1);
      const [bed, bath] = [(i % 5) + 1, (i % 3) + 1];
      const [typeLabel, type] = types[i % 3];
      const [purposeLabel, purpose] = purposes[i % 4];
      const hood = hoods[i % 4];
      let cell = priceText(price, i);
      if (i % 100 === 7) cell = i === 107 ? 'Prix sur demande' : 'Prix : Contactez le vendeur';
      if (i === 150) cell = '1 500 €';
      const beds = i % 2 ? `${bed} Chambres` : `${bed} ch`;
      const baths = i % 2 ? `${bath} Salles de bain` : `${bath} douche${bath > 1 ? 's' : ''}`;
      lines.push([ref, cell, hood, typeLabel, purposeLabel, beds, baths, `${40 + i},5 m²`].join(';'));
      if (i % 100 !== 7 && i !== 150) expected.set(ref, [ref, price, 'Douala', hood, type, purpose, bed, bath, 40 + i + 0.5]);
    }
    const file = windows1252('partner-300.csv', `${lines.join('\r\n')}\r\n`);
    const map = work.write(
      'map-300.json',
      JSON.stringify({
        columns: {
          ref: 'source_ref',
          prix: 'price',
          quartier: 'neighborhood',
          transaction: 'purpose',
          chambres: 'bedrooms',
          'salles de bain': 'bathrooms',
          superficie: 'surface',
        },
        values: { purpose: { 'À vendre': 'sale', Meublé: 'furnished_rent' } },
        constants: { city: 'Douala' },
      }),
    );
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src, columns: ColumnMap.load(map) });
    const { rows, accepted, rejected, skipped } = result.counts;
    expect({ rows, accepted, rejected, skipped }).toEqual({ rows: 300, accepted: 296, rejected: 1, skipped: 3 });
    expect(accepted / (rows - skipped)).toBeGreaterThanOrEqual(0.99);
    expect(result.rejected_sample).toEqual([
      { line: 152, source_ref: 'FR-150', reason: 'price: is in euros: only XAF (FCFA) is accepted' },
    ]);
    expect(result.skipped_sample.map((s) => [s.line, s.source_ref])).toEqual([
      [9, 'FR-7'],
      [109, 'FR-107'],
      [209, 'FR-207'],
    ]);
    const stored = await listingsOf(db, src);
    expect(stored).toHaveLength(expected.size);
    for (const l of stored) {
      expect([l.source_ref, Number(l.price), l.city, l.neighborhood, l.type, l.purpose, l.bedrooms, l.bathrooms, l.surface]).toEqual(
        expected.get(l.source_ref),
      );
    }
  });

  it('reads prices and counts written in words in a plain CSV and in NDJSON, without a map', async () => {
    const csv = work.write(
      'plain.csv',
      'source_ref,price,city,neighborhood,type,purpose,bedrooms,bathrooms\nP-1,"130 000 FCFA",Douala,Akwa,apartment,rent,3 chambres,2 salles de bain\n',
    );
    const ndjson = work.write(
      'plain.ndjson',
      `${JSON.stringify({ source_ref: 'P-2', price: '1,5 million', city: 'Douala', neighborhood: 'Akwa', type: 'Appartement', purpose: 'A louer', bedrooms: '2 ch' })}\n`,
    );
    const src = source();
    await importFile(db.pool, { file: csv, format: 'csv', source: src });
    await importFile(db.pool, { file: ndjson, format: 'ndjson', source: src });
    const stored = await listingsOf(db, src);
    expect(stored.map((l) => [l.source_ref, Number(l.price), l.type, l.purpose, l.bedrooms, l.bathrooms])).toEqual([
      ['P-1', 130_000, 'apartment', 'rent', 3, 2],
      ['P-2', 1_500_000, 'apartment', 'rent', 2, null],
    ]);
  });

  it('keeps a stored listing whose price turns "on request" under --full (skipped, not withdrawn)', async () => {
    const src = source();
    const first = windows1252('partner-day1.csv', partnerText());
    await importFile(db.pool, { file: first, format: 'csv', source: src, columns: partnerMap() });
    const second = windows1252('partner-day2.csv', partnerText().replace('350 000 FCFA/mois', 'Prix sur demande'));
    const result = await importFile(db.pool, { file: second, format: 'csv', source: src, columns: partnerMap(), full: true });
    expect(result.counts).toMatchObject({ accepted: 3, skipped: 2, removed: 0 });
    const kept = (await listingsOf(db, src)).find((l) => l.source_ref === 'DLA-101')!;
    expect([kept.status, Number(kept.price)]).toEqual(['active', 350_000]);
  });
});

describe('admin import --columns --encoding', () => {
  it('imports through the CLI, names the encoding, and exits 0 when rows were only skipped', async () => {
    const file = windows1252('partner-cli.csv', partnerText());
    const src = source();
    const r = admin('import', file, '--source', src, '--columns', MAP_FILE, '--encoding', 'windows-1252');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(csv, windows-1252, source');
    expect(r.stdout).toContain('6 lines, 5 records: 4 accepted, 0 rejected, 1 skipped (price on request)');
    expect(r.stdout).toContain('line 5 (DLA-104): price: given on request');
    expect((await listingsOf(db, src)).map((l) => l.city).sort()).toEqual(['Douala', 'Douala', 'Douala', 'Yaoundé']);
  });

  it.each([
    [{ columns: { Prix: 'prix' } }, '--columns: column map MAP: columns."Prix": "prix" is not a field'],
    [{ values: { type: { Appartement: 'appart' } } }, 'values."type"."Appartement": "appart" is not one of villa'],
    ['{"columns": {', 'is not valid JSON'],
  ])('a bad map file %j exits 2 naming the bad key, nothing stored', async (content, message) => {
    const map = work.write('bad-map.json', typeof content === 'string' ? content : JSON.stringify(content));
    const src = source();
    const r = admin('import', work.fixture('partner-fr.csv'), '--source', src, '--columns', map);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message.replace('MAP', map));
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(await listingsOf(db, src)).toHaveLength(0);
  });

  it('a column the map does not name stops the import before any row, naming it', async () => {
    const file = work.write('extra.csv', partnerText().replace('Photos\n', 'Photos;Couleur\n'));
    const src = source();
    const r = admin('import', file, '--source', src, '--columns', MAP_FILE);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown CSV column(s) "Couleur": name them in the map\'s "columns" (a field, or null to ignore)');
    expect(await listingsOf(db, src)).toHaveLength(0);
  });

  it('an unknown --encoding is a usage error', () => {
    const r = admin('import', work.fixture('partner-fr.csv'), '--encoding', 'latin9');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--encoding must be auto, utf-8, windows-1252');
  });
});
