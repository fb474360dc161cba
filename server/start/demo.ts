/**
 * Demo mode (no DATABASE_URL): everything a fresh clone needs to answer its first call.
 * The embedded PostgreSQL in the data folder, migrated; listings seeded on the first start;
 * one demo account per plan with its key kept in the data folder; secrets made once.
 */
import { applyMigrations } from '../../prisma/schema-engine/migrations.js';
import type { Config, Secrets } from '../platform/config.js';
import { openDatabase } from '../platform/db.js';
import { startEmbeddedPostgres } from '../platform/embedded-postgres.js';
import { seedListings } from '../generate/seed.js';
import { ensureSampleData } from '../generate/sample-data.js';
import type { Logger } from '../platform/logger.js';
import { type DemoKeys, ensureDemoAccounts, ensureDemoPassword, readDemoKeys, writeDemoKeys } from './demo-accounts.js';
import { demoSecrets } from './demo-secrets.js';

export interface Demo {
  databaseUrl: string;
  secrets: Secrets;
  keys: DemoKeys;
  /** The demo accounts' dashboard password (demo-login.json). */
  password: string;
  /** Stops the embedded database; after the server is closed. */
  stop(): Promise<void>;
}

export async function prepareDemo(config: Config, logger: Logger): Promise<Demo> {
  const embedded = await startEmbeddedPostgres(config.dataDir);
  logger.info({ dataDir: config.dataDir }, 'demo mode: embedded PostgreSQL (set DATABASE_URL for production mode)');
  try {
    const applied = await applyMigrations(embedded.url, {
      onSampleChange: (change) => logger.info({ change }, 'sample schema derived from public'),
    });
    if (applied.length) logger.info({ migrations: applied }, 'migrations applied');
    if (await ensureSampleData(embedded.url)) logger.info("test keys' sample data loaded");
    const db = openDatabase(embedded.url, { max: 2 });
    try {
      const { rows } = await db.pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM listings) AS any');
      if (!rows[0].any && config.seedListings > 0) {
        logger.info({ listings: config.seedListings }, 'empty database: seeding demo listings');
        const result = await seedListings(db.pool, { listings: config.seedListings, seed: 1 });
        logger.info({ rows: result.rows, seconds: result.seconds }, 'demo listings seeded');
      }
      const keys = await ensureDemoAccounts(db.prisma, readDemoKeys(config.dataDir));
      writeDemoKeys(config.dataDir, keys);
      const password = await ensureDemoPassword(db.prisma, config.dataDir);
      return {
        databaseUrl: embedded.url,
        secrets: demoSecrets(config.dataDir, config.secrets),
        keys,
        password,
        stop: () => embedded.stop(),
      };
    } finally {
      await db.close();
    }
  } catch (err) {
    await embedded.stop().catch(() => {});
    throw err;
  }
}
