/**
 * Starts a Mboa server from the environment (see config.ts for the two modes):
 * `npm start` (demo, or production from sources) and `npm run start:prod` (the compiled
 * build under plain node). SIGTERM and SIGINT drain the server, then exit 0; a second
 * signal exits at once.
 */
import { ConfigError, type Config, type Secrets } from '../platform/config.js';
import { createLogger, flushLogs, type Logger } from '../platform/logger.js';
import { createServer, type MboaServer } from './create-server.js';
import { demoKeysFile, demoLoginFile, findDemoAccounts } from './demo-accounts.js';
import { type Demo, prepareDemo } from './demo.js';
import { loadConfig } from '../platform/config.js';
import { serverMail } from '../mail/setup.js';

async function warnAboutDemoAccounts(server: MboaServer, logger: Logger): Promise<void> {
  if (!(await server.readiness.refreshSchema())) return;
  const demo = await findDemoAccounts(server.db.pool);
  if (demo.length === 0) return;
  logger.warn(
    { accounts: demo.map((a) => ({ email: a.email, plan: a.plan, active_keys: a.activeKeys })) },
    `this production database holds demo accounts (${demo.map((a) => a.email).join(', ')}): suspend or delete them unless you meant to keep them`,
  );
}

function banner(base: string, demo: Demo | undefined, config: Config): string {
  const lines = ['', `Mboa API on ${base}  (docs: ${base}/docs, customer dashboard: ${base}/dashboard)`];
  if (demo) {
    lines.push(`Demo mode: embedded PostgreSQL in ${config.dataDir}. Demo keys (also in ${demoKeysFile(config.dataDir)}):`);
    for (const [plan, key] of Object.entries(demo.keys)) lines.push(`  ${plan.padEnd(10)} ${key}`);
    lines.push(`Try: curl -H "X-API-Key: ${demo.keys.starter}" "${base}/api/v1/listings?city=Douala&limit=2"`);
    lines.push(
      `Market explorer: ${base}/dashboard/market  (log in as demo-pro@mboa.cm, demo-starter@… or demo-enterprise@…, password ${demo.password}; also in ${demoLoginFile(config.dataDir)})`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // Production needs SMTP_URL and MBOA_PUBLIC_URL: refused here, before anything starts.
  const { mailer } = serverMail(config, logger);
  const demo = config.mode === 'demo' ? await prepareDemo(config, logger) : undefined;
  const server = await createServer({
    databaseUrl: demo?.databaseUrl ?? config.databaseUrl!,
    dbPoolMax: demo ? 4 : config.dbPoolMax,
    dbHeavyPoolMax: demo ? 2 : config.dbHeavyPoolMax,
    readReplicas: demo ? undefined : config.readReplicas,
    redisUrl: config.redisUrl,
    redisSentinels: config.redisSentinels,
    logger,
    // Production's are checked by loadConfig; demo's come from the data folder.
    secrets: demo?.secrets ?? (config.secrets as Secrets),
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    docsDemoKey: demo?.keys.starter,
    metrics: config.metrics,
    shutdownGraceMs: config.shutdownGraceMs,
    marketRefreshMinutes: config.marketRefreshMinutes,
    checkMigrations: config.mode === 'production',
    mailer,
    // Demo mode delivers webhooks to receivers on this machine (MBOA_WEBHOOKS_ALLOW_LOOPBACK=1 does elsewhere).
    webhooks: { allowLoopback: config.webhooksAllowLoopback },
  });
  if (config.mode === 'production') await warnAboutDemoAccounts(server, logger);
  if (!config.metrics.token && config.metrics.port === undefined) {
    logger.info('GET /metrics is off: set MBOA_METRICS_TOKEN (bearer token) or METRICS_PORT (a port of its own) to open it');
  }

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting without waiting');
      flushLogs(logger);
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, grace_ms: config.shutdownGraceMs }, 'draining: no new connections, finishing calls in flight');
    const { cut } = await server.close();
    await demo?.stop();
    logger.info({ cut }, cut ? `stopped; ${cut} calls cut by the grace period (not charged)` : 'stopped');
    flushLogs(logger);
    process.exit(0);
  };
  process.on('SIGTERM', (s) => void stop(s));
  process.on('SIGINT', (s) => void stop(s));

  const base = await server.listen(config.port, config.host);
  logger.info({ port: config.port, mode: config.mode }, 'Mboa API listening');
  process.stdout.write(banner(base, demo, config));
}

main().catch((err: Error) => {
  const message = err instanceof ConfigError ? err.message : `cannot start: ${err.message}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});
