/**
 * The import command's contract with operators, through the real CLI: exit 2 and a
 * clear message for bad arguments, exit 1 when rows were rejected, a dry run that writes
 * nothing, and no stack trace or personal data on the terminal.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { listingsOf, removeSource, testDatabase, testSource, workdir, type Workdir } from './helpers.js';

let db: Database;
let work: Workdir;

beforeAll(() => {
  db = testDatabase();
  work = workdir();
});
afterAll(async () => {
  work.remove();
  await db.close();
});

function admin(...args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/admin.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('admin import: usage errors exit 2 with a clear message', () => {
  it.each([
    [['import'], 'FILE is required'],
    [['import', '/nonexistent/feed.ndjson'], 'no such file: /nonexistent/feed.ndjson'],
    [['import', 'FIXTURE', '--frobnicate'], "Unknown option '--frobnicate'"],
    [['import', 'FIXTURE', '--format', 'xml'], '--format must be ndjson or csv'],
    [['import', 'FIXTURE', '--source', 'bad source!'], '--source must be'],
    [['import', 'TXT'], 'cannot tell the format'],
  ])('%j', (args, message) => {
    const fixture = work.fixture('good.ndjson');
    const txt = work.write('feed.txt', '');
    const r = admin(...args.map((a) => (a === 'FIXTURE' ? fixture : a === 'TXT' ? txt : a)));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('usage: npm run admin -- import FILE');
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('admin import: rejected rows', () => {
  it('exits 1, names the report, and prints reasons without personal data', async () => {
    const file = work.fixture('mixed.ndjson');
    const src = testSource();
    try {
      const r = admin('import', file, '--source', src);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`Report: ${file}.report.json`);
      expect(r.stdout).toContain('line 3 (FX-BAD-PRICE): price: must be greater than 0');
      expect(r.stdout + r.stderr).not.toMatch(/@example\.(com|net|org)|\+237 6/);
      expect(existsSync(`${file}.report.json`)).toBe(true);
      expect(await listingsOf(db, src)).toHaveLength(8);
    } finally {
      await removeSource(db, src);
    }
  });

  it('a file with only good rows exits 0; --json prints the summary as JSON', async () => {
    const file = work.fixture('good.csv');
    const src = testSource();
    try {
      const r = admin('import', file, '--source', src, '--json');
      expect(r.code).toBe(0);
      const summary = JSON.parse(r.stdout);
      expect(summary).toMatchObject({ source: src, format: 'csv', counts: { accepted: 8, rejected: 0, inserted: 8 } });
      expect(summary.report_path).toBe(`${file}.report.json`);
    } finally {
      await removeSource(db, src);
    }
  });

  it('--dry-run validates and reports but writes nothing', async () => {
    const file = work.fixture('mixed.ndjson');
    const src = testSource();
    const r = admin('import', file, '--source', src, '--dry-run', '--json');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ dry_run: true, mode: 'dry_run', counts: { accepted: 8, rejected: 8, inserted: 0 } });
    expect(JSON.parse(readFileSync(`${file}.report.json`, 'utf8')).rejected).toHaveLength(8);
    expect(await listingsOf(db, src)).toHaveLength(0);
  });

  it('a CSV header with an unknown column stops the import with a clear message', () => {
    const file = work.write('odd.csv', 'source_ref,title,colour\nA,B,C\n');
    const r = admin('import', file, '--source', testSource());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('unknown CSV column(s) colour');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
