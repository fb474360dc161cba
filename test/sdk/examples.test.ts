/**
 * The examples, run as users run them (`npx tsx examples/...`, importing the built
 * `@mboa/sdk`), against the real test server: they must exit 0, and the export must hold
 * exactly `meta.total` listings, also after resuming from a crash that left half a page in
 * the file.
 *
 * The bulk-export path of 02 runs against the real server too, through a TCP proxy that
 * breaks one export's connection in the middle of the stream: the SDK must resume by
 * itself, losing and repeating nothing.
 */
import { execFile } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer as createNetServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Listing, Mboa } from '@mboa/sdk';
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

/** Runs an example with the test server's URL (or `baseUrl`) and `key`; resolves with its exit code and output. */
async function example(file: string, args: string[], key: string, baseUrl = t.baseUrl) {
  const env = { ...process.env, MBOA_BASE_URL: baseUrl, MBOA_API_KEY: key, MBOA_DATA_DIR: dir, MBOA_LOG: '' };
  const command = file.endsWith('.sh') ? 'bash' : TSX;
  try {
    const { stdout, stderr } = await promisify(execFile)(command, [join(ROOT, 'examples', file), ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const ids = (ndjson: string) =>
  ndjson
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { id: string }).id);

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
    const run = await example(
      '02-export-all-listings.ts',
      ['--city', 'Yaoundé', '--status', 'any', '--page-size', '100', '--out', ndjson],
      t.keys.pro,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`Exported ${meta.total.toLocaleString('en-US')} listings .* listings/s`));
    expect(run.stderr).toMatch(/listings\/s/);
    // A Pro key has no bulk export: the example says so and pages.
    expect(run.stderr).toMatch(/paging through the search instead/);
    expect(run.stderr).not.toMatch(/Using the bulk export/);
    const exported = ids(readFileSync(ndjson, 'utf8'));
    expect(exported).toHaveLength(meta.total);
    expect(new Set(exported).size).toBe(meta.total);

    const csv = join(dir, 'yaounde.csv');
    const csvRun = await example(
      '02-export-all-listings.ts',
      ['--city', 'Yaoundé', '--status', 'any', '--format', 'csv', '--out', csv],
      t.keys.pro,
    );
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
    writeFileSync(
      `${out}.state.json`,
      JSON.stringify({ format: 'ndjson', params, pages: 1, cursor: 'x', bytes: 0, exported: 0, total: 0 }),
    );
    const refused = await example('02-export-all-listings.ts', ['--city', 'Kribi', '--out', out], t.keys.pro);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--fresh/);
  });

  it('02-export writes every listing with an Enterprise key', async () => {
    const mboa = new Mboa({ apiKey: t.keys.enterprise, baseUrl: t.baseUrl });
    const everything = await mboa.listings.search({ city: 'Bafoussam', status: 'any', limit: 200 }).toArray({ max: 100_000 });
    expect(everything.length).toBeGreaterThan(20);
    const out = join(dir, 'bafoussam.ndjson');
    const run = await example('02-export-all-listings.ts', ['--city', 'Bafoussam', '--status', 'any', '--out', out], t.keys.enterprise);
    expect(run.code, run.stderr).toBe(0);
    expect(ids(readFileSync(out, 'utf8')).sort()).toEqual(everything.map((l) => l.id).sort());
  });

  describe('02-export through the bulk export', () => {
    let listings: Listing[];
    let proxy: Server;
    let proxyUrl: string;
    /** The query of each export request that went through the proxy. */
    const queries: Record<string, string>[] = [];
    /** Cut the next export's connection after this many bytes of its answer (0: never). */
    let cutAfter = 0;

    beforeAll(async () => {
      const mboa = new Mboa({ apiKey: t.keys.enterprise, baseUrl: t.baseUrl });
      listings = (await mboa.listings.search({ city: 'Douala', limit: 200 }).toArray({ max: 100_000 })).sort((a, b) =>
        a.id < b.id ? -1 : 1,
      );
      expect(listings.length).toBeGreaterThan(200);
      // A TCP proxy in front of the real server that breaks one export's connection mid-stream.
      const { port } = new URL(t.baseUrl);
      proxy = createNetServer((client) => {
        const upstream = createConnection({ host: '127.0.0.1', port: Number(port) });
        let cutting = false;
        let sent = 0;
        client.once('data', (head: Buffer) => {
          const line = /^GET (\S+) HTTP/.exec(head.toString('latin1'));
          const url = line ? new URL(line[1], 'http://x') : null;
          let forward = head;
          if (url?.pathname === '/api/v1/exports/listings') {
            queries.push(Object.fromEntries(url.searchParams));
            if (cutAfter > 0) {
              cutting = true;
              cutAfter = 0;
              // Uncompressed, so the cut falls at a known place in the listings.
              forward = Buffer.from(head.toString('latin1').replace(/\r\naccept-encoding:[^\r]*/i, ''), 'latin1');
            }
          }
          upstream.write(forward);
          client.pipe(upstream);
        });
        upstream.on('data', (chunk: Buffer) => {
          sent += chunk.length;
          if (cutting && sent > 120_000) {
            client.destroy();
            upstream.destroy();
            return;
          }
          client.write(chunk);
        });
        for (const socket of [client, upstream]) socket.on('error', () => (socket === client ? upstream : client).destroy());
        upstream.on('end', () => client.end());
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', () => resolve()));
      proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    });

    it('streams every listing once from the real server, resuming a broken connection by itself', async () => {
      queries.length = 0;
      cutAfter = 1;
      const out = join(dir, 'bulk.ndjson');
      const run = await example('02-export-all-listings.ts', ['--city', 'Douala', '--out', out], t.keys.enterprise, proxyUrl);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/Using the bulk export/);
      expect(run.stdout).toMatch(new RegExp(`Exported ${listings.length.toLocaleString('en-US')} listings`));
      expect(run.stdout).toMatch(/Quota: unlimited calls left/);
      expect(ids(readFileSync(out, 'utf8'))).toEqual(listings.map((l) => l.id));
      // The first request was cut; the second resumed after the last complete line.
      expect(queries.length).toBe(2);
      expect(queries[0]).toEqual({ city: 'Douala' });
      expect(queries[1]!.city).toBe('Douala');
      const resumedAt = listings.map((l) => l.id).indexOf(queries[1]!.after!);
      expect(resumedAt).toBeGreaterThan(0);
      expect(resumedAt).toBeLessThan(listings.length - 1);

      const csv = join(dir, 'bulk.csv');
      const csvRun = await example(
        '02-export-all-listings.ts',
        ['--city', 'Douala', '--format', 'csv', '--out', csv],
        t.keys.enterprise,
        proxyUrl,
      );
      expect(csvRun.code, csvRun.stderr).toBe(0);
      const rows = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
      expect(rows).toHaveLength(listings.length + 1);
      expect(rows.slice(1).map((r) => r.slice(0, r.indexOf(',')))).toEqual(listings.map((l) => l.id));
    });

    it('resumes after a crash from the last listing written, dropping a torn write', async () => {
      const out = join(dir, 'bulk-resumed.ndjson');
      const written = listings
        .slice(0, 40)
        .map((l) => `${JSON.stringify(l)}\n`)
        .join('');
      writeFileSync(out, written);
      appendFileSync(out, '{"id":"lst_torn');
      writeFileSync(
        `${out}.state.json`,
        JSON.stringify({
          format: 'ndjson',
          params: { city: 'Douala', limit: 200 },
          mode: 'export',
          pages: 1,
          cursor: null,
          after: listings[39]!.id,
          bytes: Buffer.byteLength(written),
          exported: 40,
          total: 0,
        }),
      );
      queries.length = 0;
      const run = await example('02-export-all-listings.ts', ['--city', 'Douala', '--out', out], t.keys.enterprise, proxyUrl);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/Resuming: 40 listings already/);
      expect(queries[0]).toEqual({ city: 'Douala', after: listings[39]!.id });
      expect(ids(readFileSync(out, 'utf8'))).toEqual(listings.map((l) => l.id));
    });
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

  it('07-revalue-collateral writes estimate, range and confidence beside every row of the CSV', async () => {
    const out = join(dir, 'collateral-valued.csv');
    const res = await example(
      '07-revalue-collateral.ts',
      ['--in', join(ROOT, 'examples', 'collateral.csv'), '--out', out],
      t.keys.enterprise,
    );
    expect(res.code, res.stderr).toBe(0);
    const [header, ...rows] = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(header).toMatch(/,estimate_xaf,low_xaf,high_xaf,fsd,confidence,method,sample_size,note$/);
    expect(rows.length).toBe(
      readFileSync(join(ROOT, 'examples', 'collateral.csv'), 'utf8')
        .trim()
        .split('\n').length - 1,
    );
    const valued = rows.map((r) => r.split(',')).filter((c) => c[7] !== '');
    expect(valued.length).toBeGreaterThan(0);
    for (const c of valued) {
      const [price, low, high] = [Number(c[7]), Number(c[8]), Number(c[9])];
      expect(low).toBeLessThan(price);
      expect(price).toBeLessThan(high);
      expect(['high', 'medium', 'low']).toContain(c[11]);
    }
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

  it('05-nearby lists every listing within the radius, nearest first, as many as the search counts', async () => {
    const run = await example('05-nearby.ts', ['--radius', '1500'], t.keys.starter);
    expect(run.code, run.stderr).toBe(0);
    const mboa = new Mboa({ apiKey: t.keys.starter, baseUrl: t.baseUrl });
    const page = await mboa.listings.search({ near: [4.0483, 9.7043], radius_m: 1500, limit: 1 });
    expect(page.meta.total).toBeGreaterThan(0);
    expect(run.stdout).toContain(`${page.meta.total} listings within 1500 m of 4.0483,9.7043`);
    const distances = [...run.stdout.matchAll(/^lst_\S+\s+(\d+) m /gm)].map((m) => Number(m[1]));
    expect(distances).toHaveLength(page.meta.total);
    expect(distances.every((d, i) => d <= 1500 && (i === 0 || d >= distances[i - 1]))).toBe(true);
  });

  it('curl.sh calls every endpoint', async () => {
    const run = await example('curl.sh', [], t.keys.pro);
    expect(run.code, run.stderr).toBe(0);
    for (const path of [
      '/api/v1/ping',
      '/api/v1/listings?',
      '/api/v1/listings/lst_',
      '/api/v1/market/stats',
      '/api/v1/market/trends',
      '/api/v1/market/history',
    ]) {
      expect(run.stderr).toContain(path);
    }
    expect(run.stdout).toMatch(/X-Quota-Remaining/i);
    expect(run.stdout).toMatch(/^city,neighborhood,near,radius_m,purpose,type,bedrooms,month,/m);
  });

  it('06-rent-history prints the median rent per quarter now and a year ago, and saves the CSV', async () => {
    const csv = join(dir, 'douala-rents.csv');
    const pro = await example('06-rent-history.ts', ['--neighborhoods', 'Bonapriso,Akwa', '--csv', csv], t.keys.pro);
    expect(pro.code, pro.stderr).toBe(0);
    expect(pro.stdout).toMatch(/Median monthly rent \(XAF\) of a 2-bedroom apartment in Douala/);
    expect(pro.stdout).toMatch(/^Bonapriso\s/m);
    expect(pro.stdout).toMatch(/^Akwa\s/m);
    const lines = readFileSync(csv, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(25);
    expect(lines[1]).toMatch(/^Douala,,,,rent,apartment,2,/);
    const starter = await example('06-rent-history.ts', ['--neighborhoods', 'Akwa'], t.keys.starter);
    expect(starter.code).toBe(1);
    expect(starter.stderr).toMatch(/not included in the Starter plan/);
  });
});
