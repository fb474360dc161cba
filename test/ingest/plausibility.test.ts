/**
 * Prices that cannot be real are held at the door: under an absolute floor, or far from
 * the median of their stratum (bounds computed here from the stored prices, independently
 * of the importer's SQL). Held rows are never listings (so never served nor counted), are
 * reported with their reason, listed and released by an operator; good rows of the same
 * file are stored as usual.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import { titleAmounts } from '../../server/ingest/plausibility.js';
import type { Database } from '../../server/platform/db.js';
import { listingsOf, removeSource, testDatabase, testSource, toJsonLines, workdir, type Workdir } from './helpers.js';

let db: Database;
let work: Workdir;
const sources: string[] = [];

beforeAll(() => {
  db = testDatabase();
  work = workdir();
});
afterAll(async () => {
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

const flat = (ref: string, price: number, extra: Record<string, unknown> = {}) => ({
  source_ref: ref,
  type: 'apartment',
  purpose: 'rent',
  city: 'Douala',
  neighborhood: 'Makepe',
  bedrooms: 2,
  price,
  ...extra,
});

/** The stratum's bounds, by the README's rule, from the prices stored now. */
async function bounds(): Promise<{ low: number; high: number; n: number }> {
  const { rows } = await db.pool.query<{ price: string }>(
    `SELECT price FROM listings WHERE status = 'active' AND city_key = 'douala' AND purpose = 'rent' AND type = 'apartment' AND bedrooms = 2 AND price > 0`,
  );
  const logs = rows.map((r) => Math.log(Number(r.price))).sort((a, b) => a - b);
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length / 2;
    return s.length % 2 ? s[Math.floor(m)] : (s[m - 1] + s[m]) / 2;
  };
  const med = median(logs);
  const sigma = 1.4826 * median(logs.map((l) => Math.abs(l - med)));
  const below = Math.exp(Math.max(4 * sigma, Math.log(8)));
  const above = Math.exp(Math.max(4 * sigma, Math.log(16)));
  return { low: Math.exp(med) / below, high: Math.exp(med) * above, n: logs.length };
}

describe('plausibility at the door', () => {
  it('reads the prices a title names', () => {
    expect(titleAmounts('Appartement 2 chambres Makepe 150.000 fcfa')).toEqual([150_000]);
    expect(titleAmounts('Studio à 75 000 F CFA/mois')).toEqual([75_000]);
    expect(titleAmounts('Villa 4 chambres, 3 douches')).toEqual([]);
  });

  it('holds a price under the floor or far outside its stratum, reports why, and stores the good rows', async () => {
    // A stratum of at least 12 listings, whatever else the database holds.
    const base = source();
    const stratum = Array.from({ length: 20 }, (_, i) => flat(`${base}-${i}`, 100_000 + i * 5_000));
    await importFile(db.pool, {
      file: work.write('base.ndjson', toJsonLines(stratum)),
      format: 'ndjson',
      source: base,
      plausibility: true,
    });
    const { low, high, n } = await bounds();
    expect(n).toBeGreaterThanOrEqual(20);

    const src = source();
    const rows = [
      flat(`${src}-one`, 1),
      flat(`${src}-fifty`, 50, { title: 'Bel appartement 2 chambres Makepe 150.000 fcfa' }),
      flat(`${src}-low`, Math.floor(low * 0.95)),
      flat(`${src}-high`, Math.ceil(high * 1.05)),
      flat(`${src}-near-low`, Math.ceil(low * 1.05)),
      flat(`${src}-ok`, 120_000),
      flat(`${src}-titled`, 120_000, { title: 'Appartement Makepe 1 200 000 FCFA' }),
      flat(`${src}-sale`, 60_000, { purpose: 'sale', type: 'land', bedrooms: undefined, surface: 500 }),
    ];
    const file = work.write('feed.ndjson', toJsonLines(rows));
    const result = await importFile(db.pool, { file, format: 'ndjson', source: src, plausibility: true });
    expect(result.counts).toMatchObject({ rows: 8, accepted: 3, held: 5, rejected: 0, inserted: 3 });
    const reasons = new Map(result.held_prices!.map((h) => [h.source_ref.slice(src.length + 1), h.reason]));
    expect(reasons.get('one')).toBe('price: 1 XAF is under the floor of 5,000 XAF for a monthly rent');
    expect(reasons.get('fifty')).toBe(
      'price: 50 XAF is under the floor of 5,000 XAF for a monthly rent; price: the title says 150,000 XAF, the price column 50 XAF',
    );
    expect(reasons.get('low')).toMatch(
      /^price: [\d,]+ XAF is more than ×[\d.]+ from the median [\d,]+ XAF of \d+ listings \(city Douala, purpose rent, type apartment, bedrooms 2\)$/,
    );
    expect(reasons.get('high')).toMatch(/is more than ×/);
    expect(reasons.get('sale')).toBe('price: 60,000 XAF is under the floor of 100,000 XAF for a sale');
    expect(result.price_warnings!.map((w) => [w.source_ref.slice(src.length + 1), w.reason])).toEqual([
      ['fifty', 'price: the title says 150,000 XAF, the price column 50 XAF'],
      ['titled', 'price: the title says 1,200,000 XAF, the price column 120,000 XAF'],
    ]);
    // Held rows are no listings: never served, never in a market figure or a model.
    const stored = await listingsOf(db, src);
    expect(stored.map((l) => l.source_ref.slice(src.length + 1))).toEqual(['near-low', 'ok', 'titled']);
    const { rows: held } = await db.pool.query(
      `SELECT source_ref, price, reason FROM held_listings WHERE source = $1 ORDER BY source_ref`,
      [src],
    );
    expect(held).toHaveLength(5);
    expect(held.find((h) => h.source_ref === `${src}-one`)).toMatchObject({ price: '1', reason: reasons.get('one') });

    // The operator lists them and releases one: it becomes a listing; a re-import does not hold it again.
    const list = admin('held', 'list', '--source', src, '--json');
    expect(list.code, list.stderr).toBe(0);
    expect(
      JSON.parse(list.stdout)
        .map((h: { source_ref: string }) => h.source_ref)
        .sort(),
    ).toEqual(held.map((h) => h.source_ref));
    const release = admin('held', 'release', src, `${src}-high`);
    expect(release.code, release.stderr).toBe(0);
    expect(release.stdout).toContain('1 row(s) of');
    const released = (await listingsOf(db, src)).find((l) => l.source_ref === `${src}-high`)!;
    expect(Number(released.price)).toBe(Math.ceil(high * 1.05));
    const again = await importFile(db.pool, { file, format: 'ndjson', source: src, plausibility: true });
    expect(again.counts).toMatchObject({ accepted: 4, held: 4, unchanged: 4 });
    expect(admin('held', 'list', '--source', src, '--json').stdout).not.toContain(`${src}-high"`);

    const unknown = admin('held', 'release', src, 'no-such-ref');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no held row "no-such-ref"');
  });
});
