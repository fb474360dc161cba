/**
 * Once per `vitest run`: a real PostgreSQL, migrated and seeded. With DATABASE_URL (as
 * `.ci/run` sets it, to a fresh database) that server; without it, the embedded PGlite
 * in a temporary directory, so `npm test` needs nothing running.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { applyMigrations } from '../prisma/schema-engine/migrations.js';
import { openDatabase } from '../server/platform/db.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '../server/platform/embedded-postgres.js';
import { seedListings } from '../server/generate/seed.js';
import { ensureSampleData } from '../server/generate/sample-data.js';
import { refreshMarketFigures } from '../server/ingest/market-refresh.js';

/** Listings seeded for the tests: enough for several pages of every filter. */
export const TEST_LISTINGS = 5000;

let embedded: EmbeddedPostgres | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject) {
  let url = process.env.DATABASE_URL;
  if (!url) {
    dataDir = mkdtempSync(join(tmpdir(), 'mboa-test-'));
    embedded = await startEmbeddedPostgres(dataDir, { announce: false });
    url = embedded.url;
  }
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
  process.env.DATABASE_URL = url;
  project.provide('databaseUrl', url);
  project.provide('embedded', embedded !== undefined);
}

export async function teardown() {
  await embedded?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    embedded: boolean;
  }
}
