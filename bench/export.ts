/**
 * Bulk export throughput: the compiled production server on a seeded database (Redis set,
 * an Enterprise account), on loopback only. Streams every listing (`status=any`) once
 * uncompressed and once gzip-compressed, reading the body as fast as it comes, and runs
 * example 02 (the SDK) with an Enterprise key (the bulk export) and with a Pro key (page
 * by page), each over the same listings of one city.
 *
 *   npm run build
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/mboa_1m REDIS_URL=redis://127.0.0.1:6379 \
 *     node --import tsx bench/export.ts [--city Douala]
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { parseArgs, promisify } from 'node:util';
import { createAccount } from '../server/accounts/accounts.js';
import { loopbackServices, productionEnv } from './loopback.js';
import { openDatabase } from '../server/platform/db.js';
import { randomId } from '../server/platform/ids.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { city: { type: 'string', default: 'Douala' }, port: { type: 'string', default: '3992' } } });
const { databaseUrl, redisUrl } = loopbackServices('a seeded database');

const db = openDatabase(databaseUrl, { max: 2 });
const { rows } = await db.pool.query<{ all: number; city: number }>(
  'SELECT count(*)::int AS all, count(*) FILTER (WHERE city = $1)::int AS city FROM listings',
  [values.city],
);
const enterprise = (await createAccount(db.prisma, { email: `${randomId('bench')}@bench.mboa.cm`, plan: 'enterprise' })).key;
const pro = (
  await createAccount(db.prisma, {
    email: `${randomId('bench')}@bench.mboa.cm`,
    plan: 'pro',
    monthlyQuotaOverride: 10_000_000,
    rateLimitOverride: 1_000_000,
  })
).key;
await db.close();

const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;
const server: ChildProcess = spawn(process.execPath, ['dist/server/start/main.js'], {
  cwd: ROOT,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    ...productionEnv({ databaseUrl, redisUrl, port }),
  },
});

async function waitReady(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server never became ready');
}

/** Streams an export, counting lines and bytes as they arrive. */
function stream(path: string, encoding: 'identity' | 'gzip'): Promise<{ lines: number; bytes: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(`${base}${path}`, { headers: { 'X-API-Key': enterprise, 'Accept-Encoding': encoding } }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
      let bytes = 0;
      let lines = 0;
      const body = encoding === 'gzip' ? res.pipe(createGunzip()) : res;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      body.on('data', (chunk: Buffer) => {
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      });
      body.on('end', () => resolve({ lines, bytes, seconds: (performance.now() - started) / 1000 }));
      body.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function example02(key: string, out: string, status: string): Promise<{ seconds: number; listings: number; stderr: string }> {
  const started = performance.now();
  const { stderr } = await promisify(execFile)(
    join(ROOT, 'node_modules/.bin/tsx'),
    [join(ROOT, 'examples/02-export-all-listings.ts'), '--city', values.city!, '--status', status, '--out', out, '--fresh'],
    { cwd: ROOT, env: { ...process.env, MBOA_BASE_URL: base, MBOA_API_KEY: key }, maxBuffer: 64 * 1024 * 1024 },
  );
  const listings = readFileSync(out, 'utf8').split('\n').filter(Boolean).length;
  return { seconds: (performance.now() - started) / 1000, listings, stderr };
}

const f = (n: number) => Math.round(n).toLocaleString('en-US');
const dir = mkdtempSync(join(tmpdir(), 'mboa-export-bench-'));
try {
  await waitReady();
  console.log(`${f(rows[0].all)} listings (${f(rows[0].city)} in ${values.city}); Node ${process.version}\n`);
  console.log('| Run | Listings | Seconds | Listings/s | MB on the wire |');
  console.log('|---|---|---|---|---|');
  for (const encoding of ['identity', 'gzip'] as const) {
    const r = await stream('/api/v1/exports/listings?status=any', encoding);
    if (r.lines !== rows[0].all) throw new Error(`exported ${r.lines} of ${rows[0].all}`);
    console.log(
      `| export, every listing, ${encoding} | ${f(r.lines)} | ${r.seconds.toFixed(1)} | ${f(r.lines / r.seconds)} | ${(r.bytes / 1e6).toFixed(0)} |`,
    );
  }
  const viaExport = await example02(enterprise, join(dir, 'enterprise.ndjson'), 'active');
  if (!/Using the bulk export/.test(viaExport.stderr)) throw new Error('example 02 did not use the bulk export');
  console.log(
    `| example 02 (SDK), Enterprise key: bulk export, ${values.city} active | ${f(viaExport.listings)} | ${viaExport.seconds.toFixed(1)} | ${f(viaExport.listings / viaExport.seconds)} | |`,
  );
  const viaPages = await example02(pro, join(dir, 'pro.ndjson'), 'active');
  console.log(
    `| example 02 (SDK), Pro key: pages of 200, ${values.city} active | ${f(viaPages.listings)} | ${viaPages.seconds.toFixed(1)} | ${f(viaPages.listings / viaPages.seconds)} | |`,
  );
} finally {
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
