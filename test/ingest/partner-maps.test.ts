/**
 * The documented column maps of examples/feeds/ import their files as they come (no
 * script): a portal's Windows-1252 export with an unnamed index column and an address
 * split into quarter and city, and the shared koutchoumi crawl (when present). Names as
 * advertisers write them are matched approximately, listed in the report, and an
 * operator overrules one with a single command.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ColumnMap } from '../../server/ingest/column-map.js';
import { importFile } from '../../server/ingest/import.js';
import type { Database } from '../../server/platform/db.js';
import { listingsOf, removeSource, testDatabase, testSource, workdir, type Workdir } from './helpers.js';

const FEEDS = join(process.cwd(), 'examples', 'feeds');
const CRAWL = join(process.cwd(), '..', 'shared', 'realdata', 'koutchoumi-rents.csv');

let db: Database;
let work: Workdir;
const sources: string[] = [];
const refused: Array<[string, string]> = [];

beforeAll(() => {
  db = testDatabase();
  work = workdir();
});
afterAll(async () => {
  for (const [city, folded] of refused)
    await db.pool.query('DELETE FROM neighborhood_aliases WHERE city_key = $1 AND folded = $2', [city, folded]);
  await db.pool.query('DELETE FROM held_listings WHERE source = ANY($1::text[])', [sources]);
  await removeSource(db, ...sources);
  work.remove();
  await db.close();
});

function source(): string {
  const s = testSource();
  sources.push(s);
  return s;
}

function admin(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const portalMap = () => ColumnMap.load(join(FEEDS, 'portal-rents.columns.json'));

describe('the portal export of examples/feeds', () => {
  it('imports as it comes: encoding, unnamed index, split address, type and purpose from the title, unknown labels', async () => {
    const file = join(work.dir, 'portal-rents.csv');
    copyFileSync(join(FEEDS, 'portal-rents.csv'), file);
    expect(readFileSync(file).includes(Buffer.from('Yaound\xe9', 'latin1'))).toBe(true); // Windows-1252 as written
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src, columns: portalMap(), plausibility: true });
    expect(result.encoding).toBe('windows-1252');
    expect(result.counts).toMatchObject({ rows: 30, accepted: 28, rejected: 0, skipped: 2, inserted: 28 });
    const priced = result.counts.rows - result.counts.skipped;
    expect(result.counts.accepted / priced).toBeGreaterThanOrEqual(0.97);

    const stored = await listingsOf(db, src);
    const byTitle = new Map(stored.map((l) => [`${l.title}|${l.city}`, l]));
    const pick = (title: string, city: string) => {
      const l = byTitle.get(`${title}|${city}`)!;
      return [l.neighborhood, l.type, l.purpose, l.bedrooms, l.bathrooms, Number(l.price), l.street_address];
    };
    expect(pick('Studio meublé', 'Douala')).toEqual(['Makepe', 'studio', 'furnished_rent', null, 1, 150_000, 'Makepe, Douala, Littoral']);
    expect(pick('Chambre à louer à Bépanda', 'Douala')).toEqual([
      'Bépanda',
      'room',
      'rent',
      1,
      1,
      35_000,
      'Carrefour Bépanda, Douala, Littoral',
    ]);
    expect(pick('Villa 4 chambres à louer', 'Douala')).toEqual([
      'Bonamoussadi',
      'villa',
      'rent',
      4,
      3,
      600_000,
      'Bonamoussadi, Douala, Littoral',
    ]);
    expect(pick('Bureau à louer à Akwa', 'Douala')).toEqual(['Akwa', 'office', 'rent', null, null, 350_000, 'Akwa, Douala, Littoral']);
    expect(pick('Duplex à louer', 'Yaoundé')).toEqual(['Golf', 'duplex', 'rent', 5, 4, 1_200_000, 'Golf, Yaoundé, Centre']);
    expect(pick('Appartement meublé à louer', 'Kribi')).toEqual([
      'Mokolo',
      'apartment',
      'furnished_rent',
      2,
      1,
      250_000,
      'Mokolo, Kribi, Sud',
    ]);
    // Five cities from one column; every row named a quarter and every one resolved.
    expect(new Set(stored.map((l) => l.city))).toEqual(new Set(['Douala', 'Yaoundé', 'Buea', 'Limbe', 'Kribi']));
    expect(stored.filter((l) => l.neighborhood === null)).toEqual([]);
    expect(result.unresolved_neighborhoods).toEqual([]);
    expect(result.approximate_neighborhoods.map((a) => [a.name, a.neighborhood, a.how])).toEqual([
      ['Carrefour Bépanda', 'Bépanda', 'landmark words around "Bépanda"'],
      ['Entrée Simbock', 'Simbock', 'landmark words around "Simbock"'],
      ['Lycée de Logpom, Logpom', 'Logpom', 'part "Logpom"'],
      ['Rue 1.234, Makepe', 'Makepe', 'part "Makepe"'],
      ['Rue 1.750, Biyem-Assi', 'Biyem-Assi', 'part "Biyem-Assi"'],
      ['Rue 3.012, Mimboman', 'Mimboman', 'part "Mimboman"'],
      ['Rue de la Joie, Ndokotti', 'Ndokotti', 'part "Ndokotti"'],
      ['Rue Njo-Njo, Bonapriso', 'Bonapriso', 'part "Bonapriso"'],
    ]);
    // References written from the content: a re-import finds every listing again.
    expect(stored.every((l) => /^portal-[0-9a-f]{16}$/.test(l.source_ref))).toBe(true);
    const again = await importFile(db.pool, { file, format: 'csv', source: src, columns: portalMap(), plausibility: true });
    expect(again.counts).toMatchObject({ accepted: 28, inserted: 0, updated: 0, unchanged: 28 });
  });

  it('an approximate match is overruled by one command, and later imports agree', async () => {
    const file = join(work.dir, 'portal-overrule.csv');
    copyFileSync(join(FEEDS, 'portal-rents.csv'), file);
    const src = source();
    await importFile(db.pool, { file, format: 'csv', source: src, columns: portalMap(), plausibility: true });
    const before = (await listingsOf(db, src)).find((l) => l.title === 'Chambre moderne à louer')!;
    expect(before.neighborhood).toBe('Simbock');

    refused.push(['yaounde', 'entreesimbock']);
    const run = admin('alias', 'refuse', 'Yaoundé', 'Entrée Simbock');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/names no quarter of Yaoundé; [1-9]\d* listing\(s\) back to the city alone/);
    const after = (await listingsOf(db, src)).find((l) => l.source_ref === before.source_ref)!;
    expect([after.city, after.neighborhood, after.neighborhood_key]).toEqual(['Yaoundé', null, null]);

    const again = await importFile(db.pool, { file, format: 'csv', source: src, columns: portalMap(), plausibility: true });
    expect(again.unresolved_neighborhoods.map((u) => u.name)).toEqual(['Entrée Simbock']);
    expect(again.approximate_neighborhoods.map((a) => a.name)).not.toContain('Entrée Simbock');
    expect((await listingsOf(db, src)).find((l) => l.source_ref === before.source_ref)!.neighborhood).toBeNull();

    // A name of the gazetteer cannot be refused.
    const wrong = admin('alias', 'refuse', 'Douala', 'Makepe');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"Makepe" is a name of Makepe in the gazetteer');
  });
});

describe('the shared koutchoumi crawl through examples/feeds/portal-crawl.columns.json', () => {
  it.skipIf(!existsSync(CRAWL))('imports with no script, every priced row but the one at 0 XAF, approximate names listed', async () => {
    const file = join(work.dir, 'koutchoumi-rents.csv'); // the report is written next to the file: not in ../shared
    copyFileSync(CRAWL, file);
    const src = source();
    const columns = () => ColumnMap.load(join(FEEDS, 'portal-crawl.columns.json'));
    const result = await importFile(db.pool, { file, format: 'csv', source: src, columns: columns(), plausibility: true });
    // Every valid row is stored, or held for its price with the reason (which rows depends on the
    // listings already stored: the strata plausibility.ts compares prices with).
    expect(result.counts).toMatchObject({ rows: 2565, rejected: 1, skipped: 0 });
    expect(result.counts.accepted + result.counts.held!).toBe(2564);
    expect(result.held_prices!.every((h) => /^price: [\d,]+ XAF is (under|over|more than)/.test(h.reason))).toBe(true);
    expect(result.counts.accepted / (result.counts.rows - result.counts.skipped)).toBeGreaterThanOrEqual(0.97);
    expect(result.rejected_sample.map((r) => r.reason)).toEqual(['price: must be greater than 0']);
    expect(result.approximate_neighborhoods.map((a) => [a.city, a.name, a.neighborhood])).toEqual([['Douala', 'Manbanda', 'Mabanda']]);
    expect(result.unresolved_neighborhoods.map((u) => u.name)).toEqual(['Cite Ubo Palmiers', 'Elig', 'Kondo']);
    const { rows } = await db.pool.query<{ type: string; purpose: string; n: number }>(
      `SELECT type, purpose, count(*)::int AS n FROM listings WHERE source = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [src],
    );
    const furnishedTitles = readFileSync(CRAWL, 'utf8')
      .split('\n')
      .slice(1)
      .filter((l) => /furnished/.test(l) && !/> 0 FCFA/.test(l)).length;
    const stored = rows.reduce((s, r) => s + r.n, 0);
    expect(rows.every((r) => r.type === 'apartment')).toBe(true);
    expect(stored).toBe(result.counts.accepted - result.counts.repeats_folded);
    expect(result.counts.repeats_folded).toBeGreaterThan(0);
    // Stable references: the same file again changes nothing.
    const again = await importFile(db.pool, { file, format: 'csv', source: src, columns: columns(), plausibility: true });
    // (Only a row held the first time may be stored now: the strata have the crawl's own rents.)
    expect(again.counts).toMatchObject({ updated: 0 });
    expect(again.counts.accepted + again.counts.held!).toBe(2564);
    expect(again.counts.inserted).toBeLessThanOrEqual(result.counts.held!);
    // What is still held is what this import held: earlier holds now stored are forgotten.
    const { rows: held } = await db.pool.query<{ source_ref: string }>(
      'SELECT source_ref FROM held_listings WHERE source = $1 ORDER BY 1',
      [src],
    );
    expect(held.map((h) => h.source_ref)).toEqual([...new Set(again.held_prices!.map((h) => h.source_ref))].sort());
    expect(furnishedTitles).toBeGreaterThan(0);
    const furnishedStored = rows.find((r) => r.purpose === 'furnished_rent')?.n ?? 0;
    expect(furnishedStored).toBeGreaterThan(0);
  });
});
