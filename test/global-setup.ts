/**
 * Once per `vitest run`: a real PostgreSQL, migrated and seeded. With DATABASE_URL (as
 * `.ci/run` sets it, to a fresh database) that server; without it, the embedded PGlite
 * in a temporary directory, so `npm test` needs nothing running.
 *
 * Test files run side by side, one per worker (`vitest.config.ts`), and each worker has a
 * database of its own: on a server, copies of the seeded one (`CREATE DATABASE … TEMPLATE`);
 * embedded, copies of its data directory, each served by a process of its own. Each worker
 * also takes a Redis database of its own (its number), so no file sees another's counters.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { applyMigrations } from '../prisma/schema-engine/migrations.js';
import { openDatabase } from '../server/platform/db.js';
import { seedListings } from '../server/generate/seed.js';
import { ensureSampleData } from '../server/generate/sample-data.js';
import { refreshMarketFigures } from '../server/ingest/market-refresh.js';
import { type EmbeddedProcess, startEmbeddedProcess, stopEmbeddedProcesses } from './helpers/embedded-process.js';
import { testWorkers } from './workers.js';

/** Listings seeded for the tests: enough for several pages of every filter. */
export const TEST_LISTINGS = 5000;

const scratch: string[] = [];
let embedded: EmbeddedProcess[] = [];
let copies: { admin: string; names: string[] } | undefined;

async function prepare(url: string): Promise<void> {
  await applyMigrations(url);
  await ensureSampleData(url);
  const db = openDatabase(url, { max: 4 });
  try {
    const { rows } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM listings WHERE source = 'mboa-seed'");
    // Seeding is one transaction (a bulk load into an empty table): any row means all of them.
    if (rows[0].n === 0) await seedListings(db.pool, { listings: TEST_LISTINGS, seed: 7 });
    await refreshMarketFigures(db.pool);
  } finally {
    await db.close();
  }
}

/** Copies of the seeded database on the same server, one per further worker. */
async function copyOnServer(url: string, count: number): Promise<string[]> {
  const source = new URL(url);
  const name = decodeURIComponent(source.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const names: string[] = [];
  try {
    for (let i = 2; i <= count; i++) {
      const copy = `${name}_w${i}`;
      await client.query(`DROP DATABASE IF EXISTS "${copy}" WITH (FORCE)`);
      // A template must have no session, and the setup's own connections close
      // asynchronously: waited for up to 10 s, then ended, and the copy tried again.
      for (let attempt = 1; ; attempt++) {
        const others = () =>
          client
            .query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name])
            .then((r) => r.rowCount ?? 0);
        for (let waited = 0; waited < 10_000 && (await others()) > 0; waited += 250) await new Promise((r) => setTimeout(r, 250));
        await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
        try {
          await client.query(`CREATE DATABASE "${copy}" TEMPLATE "${name}"`);
          break;
        } catch (err) {
          if ((err as { code?: string }).code !== '55006' || attempt === 5) throw err;
        }
      }
      names.push(copy);
    }
  } finally {
    await client.end();
  }
  copies = { admin: admin.toString(), names };
  return names.map((copy) => {
    const u = new URL(url);
    u.pathname = `/${copy}`;
    return u.toString();
  });
}

/** Embedded: the seeded data directory copied, each copy served by its own process. */
async function embeddedDatabases(count: number): Promise<string[]> {
  const first = mkdtempSync(join(tmpdir(), 'mboa-test-'));
  scratch.push(first);
  const seeding = await startEmbeddedProcess(first);
  await prepare(seeding.url);
  await seeding.stop();
  const dirs = [first];
  for (let i = 2; i <= count; i++) {
    const dir = mkdtempSync(join(tmpdir(), 'mboa-test-'));
    scratch.push(dir);
    cpSync(join(first, 'pgdata'), join(dir, 'pgdata'), { recursive: true });
    dirs.push(dir);
  }
  embedded = await Promise.all(dirs.map((dir) => startEmbeddedProcess(dir)));
  return embedded.map((e) => e.url);
}

export async function setup(project: TestProject) {
  const workers = testWorkers();
  let urls: string[];
  if (process.env.DATABASE_URL) {
    const url = process.env.DATABASE_URL;
    await prepare(url);
    urls = [url, ...(await copyOnServer(url, workers))];
  } else {
    urls = await embeddedDatabases(workers);
  }
  process.env.DATABASE_URL = urls[0];
  project.provide('databaseUrls', urls);
  project.provide('embedded', embedded.length > 0);
}

export async function teardown() {
  await stopEmbeddedProcesses(embedded);
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  if (copies) {
    const client = new pg.Client({ connectionString: copies.admin });
    await client.connect();
    try {
      for (const name of copies.names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await client.end();
    }
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrls: string[];
    embedded: boolean;
  }
}
