/**
 * The SDK as users get it: built, packed by npm, installed from the tarball into a
 * project outside this repository, then used from ESM, CommonJS and strict TypeScript.
 * It proves the tarball carries what the `exports` map points at, needs no dependency
 * (the install is offline), and ships types that stand alone (no zod, ts-rest or contract).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server.js';

const execFileAsync = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SDK = join(ROOT, 'sdk');
const TSC = join(ROOT, 'node_modules/.bin/tsc');

function sh(command: string, args: string[], cwd: string): string {
  try {
    return execFileSync(command, args, {
      cwd,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`, { cause: err });
  }
}

/** A tiny stand-in for the API, run inside the consumer scripts so the built bundle makes a real request. */
const FAKE_API = `
const http = require('node:http');
function fakeApi() {
  return new Promise((resolve) => {
    const server = http.createServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({
        data: { status: 'ok', time: '2026-11-22T10:00:00.000Z', version: '0.1.0', key: req.headers['x-api-key'], path: req.url },
        meta: { quota: { plan: 'starter', limit: 10000, used: 1, remaining: 9999, resets_at: '2026-12-01T00:00:00.000Z' }, request_id: 'req_fake' },
      }));
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
`;

const CHECKS = `
  const mboa = new sdk.Mboa({ apiKey: 'mboa_live_test', baseUrl: 'http://127.0.0.1:' + server.address().port });
  const pong = await mboa.ping();
  if (pong.data.key !== 'mboa_live_test' || pong.data.path !== '/api/v1/ping') throw new Error('bad request ' + JSON.stringify(pong));
  const answer = await mboa.ping().withResponse();
  if (answer.status !== 200 || answer.data.meta.request_id !== 'req_fake') throw new Error('withResponse ' + JSON.stringify(answer));
  if (!(mboa.exports.listings() instanceof sdk.ListingExport)) throw new Error('exports');
  if (mboa.quota.remaining !== 9999) throw new Error('quota not tracked');
  const classes = ['MboaError', 'APIError', 'AuthenticationError', 'PermissionDeniedError', 'PlanForbiddenError', 'AccountSuspendedError',
    'NotFoundError', 'BadRequestError', 'ValidationError', 'InvalidCursorError', 'RateLimitError', 'QuotaExceededError', 'ServerError',
    'ConnectionError', 'TimeoutError', 'RequestAbortedError', 'CursorPage', 'PagePromise', 'APIPromise', 'ListingExport'];
  for (const name of classes) if (typeof sdk[name] !== 'function') throw new Error('missing export ' + name);
  if (!(sdk.PlanForbiddenError.prototype instanceof sdk.PermissionDeniedError)) throw new Error('hierarchy');
  if (!(sdk.TimeoutError.prototype instanceof sdk.MboaError)) throw new Error('hierarchy');
  let threw = false;
  try { delete process.env.MBOA_API_KEY; new sdk.Mboa(); } catch (e) { threw = e instanceof sdk.MboaError && e.code === 'configuration_error'; }
  if (!threw) throw new Error('no key accepted');
  server.close();
  console.log('ok ' + sdk.VERSION);
`;

const TS_CHECK = `
import {
  Mboa, CursorPage, MboaError, ValidationError, QuotaExceededError, PlanForbiddenError, ListingExport,
  type Listing, type ListingSearchParams, type Quota, type MarketStatsResponse, type ErrorCode,
  type City, type KnownCity, type KnownNeighborhood, type NeighborhoodsByCity, type ListingExportParams, type WithResponse, type LogDetails, type QuotaHeaders,
} from '@mboa/sdk';

export async function check(): Promise<void> {
  const mboa = new Mboa({
    apiKey: 'k', maxRetries: 3, onQuota: (q: Quota) => void q.remaining, quotaWarningAt: 0.9,
    defaultHeaders: { 'X-Team': 'risk', 'X-Unset': null }, appInfo: { name: 'valuer', version: '1.0.0' },
    logLevel: 'debug', logger: { debug: (message: string, details: LogDetails) => void [message, details.status, details.requestId] },
  });
  const known: KnownCity = 'Ngaoundéré';
  const spelt: City = 'Yaounde';
  const neighborhood: NeighborhoodsByCity['Douala'] = 'Bonapriso';
  const anywhere: KnownNeighborhood = neighborhood;
  await mboa.market.stats({ city: 'Douala', neighborhood: anywhere });
  await mboa.market.trends({ neighborhood: 'Bonapriso-Sud' });
  // @ts-expect-error not a neighbourhood of Douala
  const elsewhere: NeighborhoodsByCity['Douala'] = 'Bastos';
  const { data: stats0, headers, requestId, status }: WithResponse<MarketStatsResponse> = await mboa.market.stats({ city: known }).withResponse();
  const first = await mboa.listings.search({ city: spelt }).withResponse();
  const firstPage: CursorPage<Listing> = first.data;
  const remaining: string | undefined = headers['x-quota-remaining'];
  const exportParams: ListingExportParams = { city: 'Douala', status: 'any', currency: 'EUR', after: 'lst_x' };
  const exp: ListingExport = mboa.exports.listings(exportParams, { maxRetries: 5, headers: { 'X-Request-Id': 'job-00000001' } });
  for await (const listing of exp) void listing.id;
  const q: QuotaHeaders | undefined = exp.quota;
  const resumeAt: string | undefined = exp.lastId;
  // @ts-expect-error no sort on an export
  mboa.exports.listings({ sort: 'price' });
  void [elsewhere, stats0, requestId, status, firstPage.response.requestId, remaining, q?.remaining, resumeAt, exp.received, exp.resumes, exp.complete];
  const params: ListingSearchParams = { city: 'Douala', purpose: 'sale', type: 'villa', min_price: 1, sort: '-price', limit: 200 };
  const page: CursorPage<Listing> = await mboa.listings.search(params);
  const total: number = page.meta.total;
  const next: string | null = page.meta.next_cursor;
  for await (const listing of mboa.listings.search({ ...params, cursor: next ?? undefined }, { timeout: 5000 })) {
    const price: number = listing.price;
    const removed: string | null = listing.removed_at;
    void price; void removed;
  }
  for await (const p of page.iterPages()) void p.data.length;
  const some: Listing[] = await mboa.listings.search().toArray({ max: 10 });
  const detail = await mboa.listings.get('lst_x', { signal: new AbortController().signal });
  const history: number[] = detail.data.price_history.map((c) => c.price);
  const stats: MarketStatsResponse = await mboa.market.stats({ city: 'Douala' });
  const trends = await mboa.market.trends({ neighborhood: 'Bastos' });
  const change: number | null | undefined = trends.data[0]?.avg_price_change_pct;
  const left: number | null | undefined = mboa.quota?.remaining;
  // @ts-expect-error not a purpose
  mboa.listings.search({ purpose: 'lease' });
  // @ts-expect-error not a parameter
  mboa.listings.search({ colour: 'red' });
  // @ts-expect-error toArray needs its cap
  await mboa.listings.search().toArray();
  try {
    await mboa.ping();
  } catch (err) {
    if (err instanceof ValidationError) err.errors.map((e) => e.path + e.message);
    if (err instanceof QuotaExceededError) void err.resetsAt;
    if (err instanceof PlanForbiddenError) void err.detail;
    if (err instanceof MboaError) {
      const code: ErrorCode | string = err.code;
      void code; void err.requestId; void err.status;
    }
  }
  void total; void some; void history; void stats; void change; void left;
}
`;

describe('the packed @mboa/sdk tarball', () => {
  let work: string;
  let tarball: string;
  let packed: { files: { path: string }[] };

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'mboa-sdk-consumer-'));
    // The run's global setup built sdk/dist (test/sdk/build-sdk.ts, the package's own tsup
    // build); building again here would empty dist/ under the files importing the SDK beside
    // this one. So the prepack script, the same build, is skipped.
    const out = sh('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], SDK);
    const [info] = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string; files: { path: string }[] }>;
    packed = info!;
    tarball = join(work, info!.filename);

    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    // Offline: the SDK has no dependencies, so nothing but the tarball is installed.
    sh('npm', ['install', '--no-audit', '--no-fund', '--offline', '--no-package-lock', tarball], work);
  }, 120_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('contains the build, README and LICENSE, and no sources or tests', () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'CHANGELOG.md',
        'LICENSE',
        'README.md',
        'dist/index.cjs',
        'dist/index.d.cts',
        'dist/index.d.ts',
        'dist/index.js',
        'package.json',
      ]),
    );
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.includes('tsconfig'))).toEqual([]);
  });

  it('says where it comes from, under which license, and on which Node.js it runs', () => {
    const pkg = JSON.parse(readFileSync(join(work, 'node_modules/@mboa/sdk/package.json'), 'utf8')) as Record<string, any>;
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\//), directory: 'sdk' });
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
    // The versions the tests run on: Node.js 20 and later.
    expect(pkg.engines).toEqual({ node: '>=20' });
    expect(readFileSync(join(work, 'node_modules/@mboa/sdk/CHANGELOG.md'), 'utf8')).toMatch(/^# Changelog/);
  });

  it('installs with no dependency and types that import nothing', () => {
    const pkg = JSON.parse(readFileSync(join(work, 'node_modules/@mboa/sdk/package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
    expect(readdirSync(join(work, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['@mboa']);
    for (const file of ['index.d.ts', 'index.d.cts', 'index.js', 'index.cjs']) {
      const text = readFileSync(join(work, 'node_modules/@mboa/sdk/dist', file), 'utf8');
      expect(text, file).not.toMatch(/from ['"](zod|@ts-rest\/[\w-]+|\.\.?\/[^'"]*contract[^'"]*)['"]/);
      expect(text, file).not.toMatch(/require\(['"](zod|@ts-rest)/);
      expect(text, file).not.toMatch(/^import .* from /m);
    }
  });

  it('works from an ES module', () => {
    writeFileSync(
      join(work, 'esm.mjs'),
      `import * as sdk from '@mboa/sdk';\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${FAKE_API}\nconst server = await fakeApi();\n${CHECKS}`,
    );
    expect(sh(process.execPath, ['esm.mjs'], work).trim()).toBe('ok 0.1.0');
  });

  it('works from CommonJS', () => {
    writeFileSync(
      join(work, 'cjs.cjs'),
      `const sdk = require('@mboa/sdk');\n${FAKE_API}\n(async () => {\nconst server = await fakeApi();\n${CHECKS}\n})().catch((e) => { console.error(e); process.exit(1); });`,
    );
    expect(sh(process.execPath, ['cjs.cjs'], work).trim()).toBe('ok 0.1.0');
  });

  it('pages through every listing of Douala in five lines, against the real server', async () => {
    const five = [
      "import { Mboa } from '@mboa/sdk';",
      'const mboa = new Mboa(); // MBOA_API_KEY and MBOA_BASE_URL from the environment',
      'let count = 0;',
      "for await (const listing of mboa.listings.search({ city: 'Douala', limit: 200 })) count++;",
      'console.log(count);',
    ];
    writeFileSync(join(work, 'douala.mjs'), `${five.join('\n')}\n`);
    const server = await startTestServer();
    try {
      // Asynchronous: the server answering the script runs in this very process.
      const { stdout: out } = await execFileAsync(process.execPath, ['douala.mjs'], {
        cwd: work,
        encoding: 'utf8',
        env: { ...process.env, MBOA_API_KEY: server.keys.enterprise, MBOA_BASE_URL: server.baseUrl },
      });
      const { rows } = await server.db.pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM listings WHERE status = 'active' AND city = 'Douala'",
      );
      expect(rows[0].n).toBeGreaterThan(200);
      expect(Number(out.trim())).toBe(rows[0].n);
    } finally {
      await server.close();
    }
  });

  it('type-checks in strict TypeScript, as ESM and CommonJS with Node types, and with only the DOM lib', () => {
    writeFileSync(join(work, 'check.mts'), TS_CHECK);
    writeFileSync(join(work, 'check.cts'), TS_CHECK);
    writeFileSync(join(work, 'check-dom.ts'), TS_CHECK);
    const strict = {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      target: 'ES2022',
    };
    writeFileSync(
      join(work, 'tsconfig.node.json'),
      JSON.stringify({
        // Node ESM and CommonJS resolution: the exports map's import and require conditions.
        compilerOptions: {
          ...strict,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
        },
        files: ['check.mts', 'check.cts'],
      }),
    );
    writeFileSync(
      join(work, 'tsconfig.dom.json'),
      JSON.stringify({
        // A browser or edge bundle: no Node types at all.
        compilerOptions: { ...strict, module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM'], types: [] },
        files: ['check-dom.ts'],
      }),
    );
    sh(TSC, ['-p', 'tsconfig.node.json'], work);
    sh(TSC, ['-p', 'tsconfig.dom.json'], work);
  });
});
