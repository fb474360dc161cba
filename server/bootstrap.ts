/**
 * Everything a server needs before it listens, the same on the embedded and on an
 * external PostgreSQL: pending migrations applied, listings seeded on first start,
 * demo accounts ready, market figures fresh.
 */
import { applyMigrations } from '../prisma/schema-engine.js';
import type { Config } from './config.js';
import type { Database } from './db.js';
import { ensureDemoAccounts, type DemoKeys } from './demo-accounts.js';
import { seedListings } from './ingest/seed.js';
import type { Logger } from './logger.js';
import { marketFiguresAsOf, refreshMarketFigures } from './market/refresh.js';

export async function prepareDatabase(config: Config, databaseUrl: string, db: Database, logger: Logger): Promise<DemoKeys> {
  const applied = await applyMigrations(databaseUrl);
  if (applied.length) logger.info({ migrations: applied }, 'migrations applied');

  const { rows } = await db.pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM listings) AS any');
  if (!rows[0].any && config.seedListings > 0) {
    logger.info({ listings: config.seedListings }, 'empty database: seeding demo listings');
    const result = await seedListings(db.pool, { listings: config.seedListings, seed: 1 });
    logger.info({ rows: result.rows, seconds: result.seconds }, 'demo listings seeded');
  }

  const asOf = await marketFiguresAsOf(db.pool);
  const maxAgeMs = Math.max(config.marketRefreshMinutes, 1) * 60_000;
  if (!asOf || Date.now() - asOf.getTime() > maxAgeMs) await refreshMarketFigures(db.pool);

  return ensureDemoAccounts(db.prisma, config.dataDir);
}
