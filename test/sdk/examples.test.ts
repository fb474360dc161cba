/**
 * The examples, run as users run them (`npx tsx examples/...`), against the real test
 * server: they must exit 0, and the export must hold exactly `meta.total` listings, also
 * after resuming from a crash that left half a page in the file.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mboa } from '../../sdk/src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = join(ROOT, 'node_modules/.bin/tsx');

let t: TestServer;
let dir: string;

beforeAll(async () => {
  t = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'mboa-examples-'));
});
afterAll(async () => {
  await t?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs an example with the test server's URL and `key`; resolves with its exit code and output. */
async function example(file: string, args: string[], key: string) {
  const env = { ...process.env, MBOA_BASE_URL: t.baseUrl, MBOA_API_KEY: key, MBOA_DATA_DIR: dir };
  const command = file.endsWith('.sh') ? 'bash' : TSX;
  try {
    const { stdout, stderr } = await promisify(execFile)(command, [join(ROOT, 'examples', file), ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const ids = (ndjson: string) => ndjson.trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id);

describe('examples', () => {
  it('01-search prints a page, a listing and the quota', async () => {
    const run = await example('01-search.ts', ['--city', 'douala', '--limit', '3'], t.keys.starter);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/listings match/);
    expect(run.stdout).toMatch(/price history/);
    expect(run.stdout).toMatch(/Quota \(starter\)/);
  });

  it('02-export writes every listing of the search, as NDJSON and as CSV', async () => {
    const mboa = new Mboa({ apiKey: t.keys.pro, baseUrl: t.baseUrl });
    const { meta } = await mboa.listings.search({ city: 'Yaoundé', status: 'any', limit: 1 });

    const ndjson = join(dir, 'yaounde.ndjson');
    const run = await example('02-export-all-listings.ts', ['--city', 'Yaoundé', '--status', 'any', '--page-size', '100', '--out', ndjson], t.keys.pro);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`Exported ${meta.total.toLocaleString('en-US')} listings .* listings/s`));
    expect(run.stderr).toMatch(/listings\/s/);
    const exported = ids(readFileSync(ndjson, 'utf8'));
    expect(exported).toHaveLength(meta.total);
    expect(new Set(exported).size).toBe(meta.total);

    const csv = join(dir, 'yaounde.csv');
    const csvRun = await example('02-export-all-listings.ts', ['--city', 'Yaoundé', '--status', 'any', '--format', 'csv', '--out', csv], t.keys.pro);
    expect(csvRun.code, csvRun.stderr).toBe(0);
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^id,title,price,currency,city,/);
    expect(lines).toHaveLength(meta.total + 1);
  });

  it('02-export resumes after a crash from its saved cursor, dropping a torn write', async () => {
    const out = join(dir, 'resumed.ndjson');
    const params = { city: 'Douala', limit: 50 };
    const mboa = new Mboa({ apiKey: t.keys.pro, baseUrl: t.baseUrl });
    const first = await mboa.listings.search(params);
    const everything = await mboa.listings.search(params).toArray({ max: 100_000 });

    // What a run killed while writing its second page leaves behind: one page recorded
    // in the state file, then part of a line that was never recorded.
    const written = first.data.map((l) => `${JSON.stringify(l)}\n`).join('');
    writeFileSync(out, written);
    appendFileSync(out, '{"id":"lst_torn');
    writeFileSync(
      `${out}.state.json`,
      JSON.stringify({
        format: 'ndjson',
        params,
        pages: 1,
        cursor: first.meta.next_cursor,
        bytes: Buffer.byteLength(written),
        exported: first.data.length,
        total: first.meta.total,
      }),
    );

    const run = await example('02-export-all-listings.ts', ['--city', 'Douala', '--page-size', '50', '--out', out], t.keys.pro);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Resuming/);
    expect(ids(readFileSync(out, 'utf8'))).toEqual(everything.map((l) => l.id));

    // Other filters with the same unfinished state: refused, not mixed into the file.
    writeFileSync(`${out}.state.json`, JSON.stringify({ format: 'ndjson', params, pages: 1, cursor: 'x', bytes: 0, exported: 0, total: 0 }));
    const refused = await example('02-export-all-listings.ts', ['--city', 'Kribi', '--out', out], t.keys.pro);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--fresh/);
  });

  it('03-market-report prints stats and trends with a Pro key, and exits 1 on Starter', async () => {
    const pro = await example('03-market-report.ts', ['--city', 'Douala', '--top', '5'], t.keys.pro);
    expect(pro.code, pro.stderr).toBe(0);
    expect(pro.stdout).toMatch(/Market statistics/);
    expect(pro.stdout).toMatch(/Most active neighbourhoods/);

    const starter = await example('03-market-report.ts', ['--city', 'Douala'], t.keys.starter);
    expect(starter.code).toBe(1);
    expect(starter.stdout).toMatch(/Market statistics/);
    expect(starter.stderr).toMatch(/not included in the Starter plan/);
  });

  it('04-incremental-sync copies everything, then fetches only what changed', async () => {
    const args = ['--city', 'Kribi', '--mirror', join(dir, 'kribi.json'), '--state', join(dir, 'kribi-state.json')];
    const { key } = await t.account('enterprise');
    const initial = await example('04-incremental-sync.ts', args, key);
    expect(initial.code, initial.stderr).toBe(0);
    expect(initial.stdout).toMatch(/First run/);
    const mirror = JSON.parse(readFileSync(join(dir, 'kribi.json'), 'utf8')) as Record<string, unknown>;
    const { meta } = await new Mboa({ apiKey: key, baseUrl: t.baseUrl }).listings.search({ city: 'Kribi', status: 'any', limit: 1 });
    expect(Object.keys(mirror)).toHaveLength(meta.total);

    const again = await example('04-incremental-sync.ts', args, key);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/Fetching changes after/);
    expect(again.stdout).toMatch(/^0 new, 0 updated, 0 removed/m);
    const state = JSON.parse(readFileSync(join(dir, 'kribi-state.json'), 'utf8')) as { watermark: string; inProgress: unknown };
    expect(state.inProgress).toBeNull();
    expect(Date.parse(state.watermark)).toBeGreaterThan(0);
  });

  it('curl.sh calls every endpoint', async () => {
    const run = await example('curl.sh', [], t.keys.pro);
    expect(run.code, run.stderr).toBe(0);
    for (const path of ['/api/v1/ping', '/api/v1/listings?', '/api/v1/listings/lst_', '/api/v1/market/stats', '/api/v1/market/trends']) {
      expect(run.stderr).toContain(path);
    }
    expect(run.stdout).toMatch(/X-Quota-Remaining/i);
  });
});
