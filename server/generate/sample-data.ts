/**
 * The fixed public sample that test keys read: 2,000 generated listings (a fixed seed, as
 * of a fixed date) with their price history, market figures and places, in the `sample`
 * schema. Identical on every deployment and at every load, so an integration suite run
 * against it gets the same answers every time.
 *
 * The server reads it with the live data's SQL, naming the `sample` schema's tables (see
 * domain/listing/dataset.ts). Loading it reuses the generator and the market refresh as they are, on
 * connections whose search_path puts `sample` first, reset afterwards (on the embedded
 * database every connection shares one session).
 */
import pg from 'pg';
import { DATASET_TABLES } from '../platform/dataset-tables.js';
import { seedListings } from './seed.js';

/** Change any of these and bump `version`: deployments reload the sample at their next migrate. */
export const SAMPLE = {
  version: 5,
  listings: 2_000,
  seed: 20_260_101,
  /** The sample's "now": listing dates fall in the 36 months before it; trends end there. */
  asOf: new Date('2026-11-01T00:00:00.000Z'),
  source: 'mboa-sample',
} as const;

/** Serialises loaders (two deploy steps at once). */
const LOAD_LOCK = 0x6d626f73; // "mbos"

/** A pool whose unqualified table names are the sample's: for loading it with the live data's writers. */
function openSampleWriter(databaseUrl: string, max = 2): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000 });
  // Queued before any query of the connection, so it always runs first.
  pool.on('connect', (client) => {
    client.query('SET search_path TO sample, public').catch(() => {});
  });
  pool.on('error', () => {});
  return pool;
}

/** Loads the sample unless the database holds this version already. Returns whether it loaded. */
export async function ensureSampleData(databaseUrl: string): Promise<boolean> {
  const pool = openSampleWriter(databaseUrl, 1);
  const lock = new pg.Client({ connectionString: databaseUrl });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [LOAD_LOCK]);
    const { rows } = await lock.query<{ version: number }>('SELECT max(version) AS version FROM sample.version');
    if (rows[0]?.version === SAMPLE.version) return false;
    await pool.query(`TRUNCATE ${[...DATASET_TABLES, 'version'].map((t) => `sample.${t}`).join(', ')}`);
    await seedListings(pool, { listings: SAMPLE.listings, seed: SAMPLE.seed, now: SAMPLE.asOf, source: SAMPLE.source });
    await pool.query('INSERT INTO sample.version (version) VALUES ($1)', [SAMPLE.version]);
    return true;
  } finally {
    await pool.query('RESET search_path').catch(() => {});
    await lock.end().catch(() => {});
    await pool.end().catch(() => {});
  }
}
