/**
 * A backfill names the day its adverts were listed (`admin import --listed-at`): rows
 * without their own `listed_at` take it instead of the import day, rows with one keep
 * theirs, and a day in the future or badly written is a usage error.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  await removeSource(db, ...sources);
  work.remove();
  await db.close();
});

function admin(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('admin import --listed-at', () => {
  it('dates the rows without a date from the backfill day, and keeps the dates rows give', async () => {
    const src = testSource();
    sources.push(src);
    const row = (ref: string, extra: Record<string, unknown> = {}) => ({
      source_ref: ref,
      type: 'apartment',
      purpose: 'rent',
      city: 'Douala',
      neighborhood: 'Makepe',
      bedrooms: 2,
      price: 120_000,
      ...extra,
    });
    const file = work.write(
      'backfill.ndjson',
      toJsonLines([
        row(`${src}-a`),
        row(`${src}-b`, { price: 130_000, listed_at: '2022-03-04T00:00:00.000Z' }),
        row(`${src}-c`, { price: 140_000, updated_at: '2021-01-15T00:00:00.000Z' }),
      ]),
    );
    const run = admin('import', file, '--source', src, '--listed-at', '2021-06-01', '--json');
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).counts).toMatchObject({ rows: 3, accepted: 3, inserted: 3 });
    const stored = await listingsOf(db, src);
    expect(stored.map((l) => [l.source_ref.slice(src.length + 1), l.listed_at.toISOString()])).toEqual([
      ['a', '2021-06-01T00:00:00.000Z'],
      ['b', '2022-03-04T00:00:00.000Z'],
      ['c', '2021-01-15T00:00:00.000Z'], // never after the row's own updated_at
    ]);
  });

  it.each([
    ['2021-13-01', '--listed-at must be a date written YYYY-MM-DD'],
    ['2999-01-01', '--listed-at must not be in the future'],
  ])('refuses --listed-at %s', (day, message) => {
    const file = work.write(
      'one.ndjson',
      toJsonLines([{ source_ref: 'x', type: 'room', purpose: 'rent', city: 'Douala', neighborhood: 'Akwa', price: 30_000 }]),
    );
    const run = admin('import', file, '--source', 'never-written', '--listed-at', day);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
