/**
 * Import throughput and memory: generates a feed of N listings (cached in the temp
 * directory), imports it into a fresh scratch database, then imports it again (nothing
 * changes: the idempotent path), and reports rows/s, seconds and peak RSS of the import.
 * Local only and bounded: it refuses a non-loopback server and drops its scratch database.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx bench/import.ts [--listings 1000000]
 *   npx tsx bench/import.ts --pglite [--listings 50000]      # the embedded PGlite
 *   ... --incremental    # never the bulk path (as when the table is already large)
 *
 * DATABASE_URL names any database of the server: the scratch database is created beside it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { applyMigrations } from '../prisma/schema-engine/migrations.js';
import { openDatabase } from '../server/platform/db.js';
import { startEmbeddedPostgres } from '../server/platform/embedded-postgres.js';
import { importFile } from '../server/ingest/import.js';

const { values } = parseArgs({
  options: {
    listings: { type: 'string' },
    seed: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '2' },
    pglite: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    incremental: { type: 'boolean', default: false },
  },
});
const listings = Number(values.listings ?? (values.pglite ? 50_000 : 1_000_000));
if (!Number.isInteger(listings) || listings < 1 || listings > 5_000_000) {
  console.error('--listings must be an integer from 1 to 5000000');
  process.exit(2);
}

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const rssMb = () => mb(process.memoryUsage().rss);

// 1. The feed, generated once per (listings, seed) by the CLI in a child process, so that
//    generation does not count in this process's peak memory.
const dir = join(tmpdir(), 'mboa-bench');
mkdirSync(dir, { recursive: true });
const feed = join(dir, `listings-${listings}-seed${values.seed}.ndjson`);
if (!existsSync(feed)) {
  console.log(`generating ${feed} ...`);
  const gen = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'server/cli/admin.ts', 'generate', '--out', feed, '--listings', String(listings), '--seed', values.seed!],
    { stdio: 'inherit' },
  );
  if (gen.status !== 0) process.exit(1);
}
console.log(`feed: ${feed} (${mb(statSync(feed).size)} MB)`);

// 2. A fresh database: a scratch one on the local server, or an embedded PGlite.
let url: string;
let cleanup: () => Promise<void>;
if (values.pglite) {
  const dataDir = mkdtempSync(join(tmpdir(), 'mboa-bench-pglite-'));
  const embedded = await startEmbeddedPostgres(dataDir, { announce: false });
  url = embedded.url;
  cleanup = async () => {
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
} else {
  const admin = process.env.DATABASE_URL;
  if (!admin) {
    console.error('set DATABASE_URL to a database of the local PostgreSQL server (or use --pglite)');
    process.exit(2);
  }
  const parsed = new URL(admin);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) {
    console.error(`refusing to benchmark against ${parsed.hostname}: local servers only`);
    process.exit(2);
  }
  const name = `mboa_bench_import_${process.pid}`;
  const adminPool = new pg.Pool({ connectionString: admin, max: 1 });
  await adminPool.query(`CREATE DATABASE ${name}`);
  parsed.pathname = `/${name}`;
  url = parsed.toString();
  cleanup = async () => {
    if (!values.keep) await adminPool.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await adminPool.end();
  };
}

try {
  await applyMigrations(url);
  const db = openDatabase(url, { max: values.pglite ? 4 : 10 });
  const rssBefore = rssMb();
  const concurrency = Number(values.concurrency);

  // 3. First import: every row is new.
  const bulk = values.incremental ? 'never' : 'auto';
  const first = await importFile(db.pool, { file: feed, format: 'ndjson', source: 'bench', concurrency, bulk });
  const peakFirst = mb(process.resourceUsage().maxRSS * 1024);
  // 4. Second import of the same file: every row unchanged, nothing written.
  const second = await importFile(db.pool, { file: feed, format: 'ndjson', source: 'bench', concurrency, bulk });
  const peak = mb(process.resourceUsage().maxRSS * 1024);
  const { rows } = await db.pool.query<{ n: number; h: number }>(
    'SELECT (SELECT count(*) FROM listings)::int AS n, (SELECT count(*) FROM price_history)::int AS h',
  );
  await db.close();

  const result = {
    database: values.pglite ? 'pglite (embedded)' : 'postgresql (local server)',
    listings,
    concurrency,
    first_import: {
      mode: first.mode,
      seconds: first.seconds,
      rows_per_second: first.rows_per_second,
      phases: first.phases,
      inserted: first.counts.inserted,
      rejected: first.counts.rejected,
    },
    reimport_unchanged: {
      mode: second.mode,
      seconds: second.seconds,
      rows_per_second: second.rows_per_second,
      phases: second.phases,
      unchanged: second.counts.unchanged,
    },
    rss_mb: { before_import: rssBefore, peak_after_first_import: peakFirst, peak: peak },
    rows_in_database: rows[0].n,
    price_history_rows: rows[0].h,
  };
  console.log(JSON.stringify(result, null, 2));
  if (first.counts.inserted !== listings || second.counts.unchanged !== listings) {
    console.error('unexpected counts: the import did not load every row, or the re-import changed some');
    process.exitCode = 1;
  }
} finally {
  await cleanup();
}
