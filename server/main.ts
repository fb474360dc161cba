/**
 * `npm start`: the API on PORT (3000), over DATABASE_URL or else the embedded PostgreSQL
 * in MBOA_DATA_DIR (./.mboa-data), migrated and seeded on first start.
 */
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { dashboardRouter } from './dashboard/index.js';
import { prepareDatabase } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db.js';
import { demoKeysFile } from './demo-accounts.js';
import { type EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres.js';
import { AccountRateLimiter } from './http/rate-limit.js';
import { createLogger } from './logger.js';
import { refreshMarketFigures } from './market/refresh.js';
import { cursorSecret } from './secrets.js';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);

  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir);
    databaseUrl = embedded.url;
    logger.info({ dataDir: config.dataDir }, 'using the embedded PostgreSQL (set DATABASE_URL to use your own)');
  }
  const db = openDatabase(databaseUrl, { max: embedded ? 4 : config.dbPoolMax });
  const demoKeys = await prepareDatabase(config, databaseUrl, db, logger);

  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis unavailable: per-process rate limits in use'));

  const app = buildApp({
    pool: db.pool,
    logger,
    rateLimiter: new AccountRateLimiter(redis),
    cursorSecret: cursorSecret(config),
    mounts: [
      {
        path: '/dashboard',
        router: dashboardRouter({ prisma: db.prisma, pool: db.pool, logger, redis, formSecret: config.dashboardSecret }),
      },
    ],
  });
  if (config.trustProxy !== undefined) {
    app.set('trust proxy', /^\d+$/.test(config.trustProxy) ? Number(config.trustProxy) : config.trustProxy);
  }

  const refresher =
    config.marketRefreshMinutes > 0
      ? setInterval(() => {
          refreshMarketFigures(db.pool).catch((err: Error) => logger.error({ err: err.message }, 'market refresh failed'));
        }, config.marketRefreshMinutes * 60_000)
      : undefined;
  refresher?.unref();

  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port }, 'Mboa API listening');
    const base = `http://localhost:${port}`;
    process.stdout.write(
      [
        '',
        `Mboa API on ${base}  (docs: ${base}/docs, customer dashboard: ${base}/dashboard)`,
        `Demo keys (also in ${demoKeysFile(config.dataDir)}):`,
        ...Object.entries(demoKeys).map(([plan, key]) => `  ${plan.padEnd(10)} ${key}`),
        `Try: curl -H "X-API-Key: ${demoKeys.starter}" "${base}/api/v1/listings?city=Douala&limit=2"`,
        '',
      ].join('\n') + '\n',
    );
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    if (refresher) clearInterval(refresher);
    server.close();
    server.closeAllConnections?.();
    redis?.disconnect();
    await db.close().catch(() => {});
    await embedded?.stop().catch(() => {});
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: Error) => {
  const message = err instanceof ConfigError ? err.message : `cannot start: ${err.message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
