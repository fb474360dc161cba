/**
 * The one place a Mboa server is assembled: database pool, Redis, rate limiter, usage
 * meter, metrics, readiness, dashboard and API, the HTTP server with its parser-error
 * answers, the periodic market refresh, and an orderly shutdown. `main.ts`, the tests and
 * the benchmarks all start servers through `createServer`.
 */
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import compression from 'compression';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { buildApp } from './app.js';
import type { RedisSentinels, Secrets } from '../platform/config.js';
import { connectRedis, REDIS_WAIT_MS, waitForRedis } from './redis.js';
import { type DashboardDeps, dashboardRouter, ExplorerAccess } from '../dashboard/index.js';
import { type Database, openDatabase } from '../platform/db.js';
import type { ReadKind } from '../api/costs.js';
import { openReadPools } from '../api/read-pools.js';
import { HeavyReads } from '../quota/heavy-reads.js';
import { contract } from '../../contract/router.js';
import { QuotaAlerts } from '../mail/quota-alerts.js';
import { Admission } from '../quota/admission.js';
import { usageNamespaceOf } from '../quota/usage-keys.js';
import { createApiHandler } from '../api/handler.js';
import { ChangeFeed, type ChangeFeedOptions } from '../platform/change-feed.js';
import { nodeServer } from '../http/node-server.js';
import { isSecure } from '../http/secure.js';
import { DataCache } from '../platform/data-cache.js';
import { KeyCache } from '../api/key-cache.js';
import { apiAdmission, apiIdentity, apiQuotaAsItStands, apiStillAllowed } from '../api/chain.js';
import { EXPORT_LIMITS, type ExportLimits } from '../api/endpoints/export.js';
import { CursorCodec } from '../api/listings/cursor.js';
import type { Logger } from '../platform/logger.js';
import { AccountMail } from '../mail/account-mail.js';
import { type Mailer, UnsentMailer } from '../mail/mailer.js';
import { marketFiguresAsOf, refreshMarketFigures } from '../ingest/market-refresh.js';
import { Metrics } from '../platform/metrics.js';
import { Readiness } from '../platform/readiness.js';
import { ReplicaSet } from '../platform/replicas.js';
import { metricsServer } from '../ops/routes.js';
import { apiHandlers } from '../api/endpoints/index.js';
import { type PushOptions, pushFeatures } from './push.js';
import { readerOf } from '../api/reader.js';
import { Drain } from '../http/drain.js';
import { BackgroundWork } from '../platform/background-work.js';
import { FailureLog } from '../platform/failure-log.js';
import { type ValuationFit, valuationModels } from './valuation-models.js';

export interface ServerOptions {
  databaseUrl: string;
  /** PostgreSQL connections of this instance's main pool, and of its pool of cheap API reads (each). */
  dbPoolMax?: number;
  /** Heavy reads at once on this instance: the connections of their own pool (default 2; api/costs.ts). */
  dbHeavyPoolMax?: number;
  /** Read replicas: the API's reads go to one in use, else to `databaseUrl` (platform/replicas.ts). */
  readReplicas?: { urls: string[]; maxLagSeconds?: number; checkIntervalMs?: number };
  redisUrl?: string;
  /** Redis through Sentinel: its primary, whichever it is (REDIS_URL then gives the database number and password). */
  redisSentinels?: RedisSentinels;
  logger: Logger;
  secrets: Secrets;
  trustProxy?: string;
  publicUrl?: string;
  /** Demo mode only: the demo Starter key, filled in on /docs so "Try it out" answers at once. */
  docsDemoKey?: string;
  metrics?: { token?: string; port?: number; host?: string };
  /** How long in-flight calls get to finish on shutdown (default 25 s). */
  shutdownGraceMs?: number;
  /** Rebuild market figures this often (0 or absent: never, besides after data loads). */
  marketRefreshMinutes?: number;
  /**
   * Production: the server never migrates; until the database holds this version's
   * migrations it answers 503 and `/readyz` says why. Demo and tests migrate first.
   */
  checkMigrations?: boolean;
  /** Where account e-mails go: SMTP, the demo's mail folder, or a test's own server (default: nowhere, each one logged as unsent). */
  mailer?: Mailer;
  /** Send the 80 % and 100 % quota e-mails after counted calls (default: yes). */
  quotaAlerts?: boolean;
  /** Dashboard settings tests may change (limits, clock, Secure cookies...). */
  dashboard?: Partial<Omit<DashboardDeps, 'prisma' | 'pool' | 'logger' | 'redis' | 'mail' | 'formSecrets' | 'webhooks'>>;
  /** The change feed's heartbeat, and the URL its LISTEN connection takes (default: `databaseUrl`). */
  changeFeed?: Partial<Omit<ChangeFeedOptions, 'logger'>>;
  /** Statement timeouts of the API's reads, by kind (defaults: api/costs.ts; tests shorten them). */
  statementTimeouts?: Partial<Record<ReadKind, number>>;
  /** Export limits (defaults: EXPORT_LIMITS). */
  exports?: Partial<ExportLimits>;
  now?: () => Date;
  /** How a valuation model is fitted (default: `fitModel`); tests hold it back to see the warming-up answers. */
  valuationFit?: ValuationFit;
  /** Webhooks: the delivery worker's settings, loopback receivers (tests, demo). */
  webhooks?: PushOptions;
}

export interface MboaServer {
  app: Express;
  http: Server;
  db: Database;
  redis: Redis | undefined;
  readiness: Readiness;
  /** The quota e-mails, when sent. */
  quotaAlerts: QuotaAlerts | undefined;
  /** Resolves once the valuation models are fitted (again where the market figures changed); tests and benchmarks await it. */
  fitValuations(): Promise<void>;
  /** Moves the usage counted in Redis to PostgreSQL now (it happens every second anyway). */
  flushUsage(): Promise<void>;
  /** Rate limit and quota of this instance. */
  admission: Admission;
  /** Where GET /metrics is served when it has a port of its own (set once listening). */
  metricsUrl: string | undefined;
  /** Listens; resolves with the base URL (`http://127.0.0.1:3000`). */
  listen(port: number, host: string): Promise<string>;
  /**
   * Drains (see drain.ts), then closes Redis and the pool, last. Resolves with the number
   * of calls cut by the grace period. Safe to call twice.
   */
  close(): Promise<{ cut: number }>;
}

/** How often an instance waiting for its migrations looks again. */
const SCHEMA_POLL_MS = 5_000;

export async function createServer(options: ServerOptions): Promise<MboaServer> {
  const { logger } = options;
  const mailer = options.mailer ?? new UnsentMailer('this server has no mailer');
  const db = openDatabase(options.databaseUrl, { max: options.dbPoolMax ?? 10 });
  const redis = connectRedis(options.redisUrl, options.redisSentinels);
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis unavailable'));

  // Links in e-mails point at the public address, or (tests) at this server once it listens.
  let listeningAt = 'http://localhost';
  const mail = new AccountMail({ mailer, dashboardUrl: () => `${options.publicUrl ?? listeningAt}/dashboard`, logger });
  const push = pushFeatures(options.webhooks, db.pool, mail, logger);
  const quotaAlerts = options.quotaAlerts === false ? undefined : new QuotaAlerts({ pool: db.pool, mail, logger });

  const background = new BackgroundWork();
  const failures = new FailureLog({ pool: db.pool, logger });
  const drain = new Drain();
  const feed = new ChangeFeed({ databaseUrl: options.databaseUrl, ...options.changeFeed, logger });
  const metrics = new Metrics(db.pool, feed);
  // Checked once now, then every few seconds: the first reads already go to a replica in use.
  const replicas = options.readReplicas?.urls.length ? await ReplicaSet.start({ ...options.readReplicas, logger }) : undefined;
  // Fitted when the server listens and after each market refresh, never on a request.
  const models = valuationModels(db.pool, feed, logger, options.valuationFit);
  const [checkMigrations, valuationModel] = [options.checkMigrations ?? false, () => models.live.state()];
  const readiness = new Readiness({ pool: db.pool, redis, logger, checkMigrations, feed, valuationModel, replicas });
  const admission = new Admission({
    pool: db.pool,
    redis,
    usageNamespace: usageNamespaceOf(options.databaseUrl),
    logger,
    background,
    onCounted: quotaAlerts ? (accountId, month, used, limit) => void quotaAlerts.noteQuotaLevel(accountId, month, used, limit) : undefined,
  });
  metrics.watch({
    ready: async () => !drain.isDraining && (await readiness.report()).ready,
    quotaFallback: () => redis !== undefined && admission.mode === 'postgres',
    flushAgeSeconds: () => admission.flushAgeSeconds(),
  });
  const metricsToken = options.metrics?.port === undefined ? options.metrics?.token : undefined;

  const compress = compression({ threshold: 1024 });
  const compressStream = compression({
    // NDJSON is text, though no registry of compressible types says so.
    filter: (req, res) => compression.filter(req, res) || /ndjson/.test(String(res.getHeader('Content-Type'))),
    threshold: 0,
    level: 1,
    brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
  }) as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  const app = buildApp({
    logger,
    admission,
    metrics,
    readiness,
    drain,
    metricsToken,
    publicUrl: options.publicUrl,
    docsDemoKey: options.docsDemoKey,
    trustProxy: options.trustProxy,
    compress,
    dashboard: dashboardRouter({
      prisma: db.prisma,
      pool: db.pool,
      logger,
      redis,
      mail,
      background,
      formSecrets: options.secrets.dashboard,
      webhooks: push.dashboard,
      ...options.dashboard,
    }),
  });
  const heavySlots = options.dbHeavyPoolMax ?? 2;
  const reads = openReadPools(options.databaseUrl, {
    cheapMax: options.dbPoolMax,
    heavyMax: heavySlots,
    timeouts: options.statementTimeouts,
    replicas,
  });
  if (replicas) metrics.replicas(replicas, reads.counts);
  const dataCache = new DataCache<unknown>(feed);
  const explorer = new ExplorerAccess(db.prisma, redis, options.dashboard); // the market explorer's calls: uncounted, limited per session
  const keys = new KeyCache(db.pool, feed, undefined, replicas && reads.cheap); // keys read on the replicas while the primary is lost
  const chainDeps = { pool: db.pool, keys, admission, background, logger, explorer, now: options.now };
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const api = createApiHandler({
    contract,
    handlers: apiHandlers({
      pool: reads.exports,
      admission,
      stillAllowed: apiStillAllowed(chainDeps),
      limits: { ...EXPORT_LIMITS, ...options.exports },
      logger,
      push,
    }),
    readers: {
      live: readerOf({
        data: { pool: reads.cheap, schema: 'public' },
        cursors: new CursorCodec(options.secrets.cursor),
        cache: dataCache,
        valuations: models.live,
      }),
      // The sample never changes between loads: no cache needed, and its cursors are its own
      // (signed apart, so a test key's cursor is refused on the live data and the reverse).
      sample: readerOf({
        data: { pool: reads.cheap, schema: 'sample' },
        cursors: new CursorCodec(options.secrets.cursor.map((s) => `sample:${s}`)),
        valuations: models.sample,
      }),
    },
    heavyPool: reads.heavy,
    heavyReads: new HeavyReads(heavySlots),
    statementTimeouts: reads.timeouts,
    identify: apiIdentity(chainDeps),
    admit: apiAdmission(chainDeps),
    showQuota: apiQuotaAsItStands(chainDeps),
    admission,
    failures,
    drain,
    readiness,
    logger,
    metrics,
    compress: compress as (req: IncomingMessage, res: ServerResponse, next: () => void) => void,
    compressStream,
    isSecure: (req) => isSecure(req, trust),
    passThrough: new Set(['/api/v1/openapi.json']),
  });

  const http = nodeServer((req, res) => api(req, res), app, logger);
  const extraServers: Server[] = [];
  if (options.metrics?.port !== undefined) extraServers.push(metricsServer(metrics));

  let refresher: NodeJS.Timeout | undefined;
  const minutes = options.marketRefreshMinutes ?? 0;
  const refreshIfStale = async () => {
    if (!(await readiness.refreshSchema())) return;
    const asOf = await marketFiguresAsOf(db.pool);
    // The refit is heard from the change feed too: a second call while fitting costs one stamp check.
    if (!asOf || Date.now() - asOf.getTime() > Math.max(minutes, 1) * 60_000) await refreshMarketFigures(db.pool).then(models.refit);
  };

  let schemaPoller: NodeJS.Timeout | undefined;
  let closing: Promise<{ cut: number }> | undefined;
  const server: MboaServer = {
    quotaAlerts,
    admission,
    metricsUrl: undefined,
    fitValuations: () => models.settled(),
    flushUsage: async () => {
      // Answered calls may still be on their way to being counted, or in an open lease.
      await drain.written();
      await admission.flushAll();
    },
    app,
    http,
    db,
    redis,
    readiness,
    async listen(port, host) {
      if (redis && redis.status !== 'ready') await waitForRedis(redis, REDIS_WAIT_MS);
      await feed.start();
      admission.start();
      failures.start();
      if (!(await readiness.refreshSchema())) {
        // Production before its deploy step: look again until the migrations are there.
        schemaPoller = setInterval(() => {
          void readiness.refreshSchema().then((ok) => {
            if (!ok) return;
            clearInterval(schemaPoller);
            models.refit();
            if (minutes > 0) refreshIfStale().catch((err: Error) => logger.error({ err: err.message }, 'market refresh failed'));
          });
        }, SCHEMA_POLL_MS);
        schemaPoller.unref();
      } else {
        // In the background: the first valuations answer 503 valuations_warming_up until it is done.
        models.refit();
      }
      if (minutes > 0) {
        await refreshIfStale().catch((err: Error) => logger.error({ err: err.message }, 'market refresh failed'));
        refresher = setInterval(() => {
          refreshIfStale().catch((err: Error) => logger.error({ err: err.message }, 'market refresh failed'));
        }, minutes * 60_000);
        refresher.unref();
      }
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => resolve());
      });
      for (const extra of extraServers) {
        const metricsHost = options.metrics!.host ?? '127.0.0.1';
        await new Promise<void>((resolve, reject) => {
          extra.once('error', reject);
          extra.listen(options.metrics!.port, metricsHost, () => resolve());
        });
        server.metricsUrl = `http://${metricsHost}:${(extra.address() as AddressInfo).port}`;
      }
      const address = http.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
      listeningAt = `http://${shownHost}:${address.port}`;
      push.start();
      return listeningAt;
    },
    close() {
      closing ??= (async () => {
        clearInterval(refresher);
        clearInterval(schemaPoller);
        const result = http.listening ? await drain.drain(http, options.shutdownGraceMs ?? 25_000) : { cut: 0 };
        for (const extra of extraServers) extra.close();
        await push.stop();
        // Cut answers free their quota slots from their 'close' events: let those run.
        await new Promise((resolve) => setImmediate(resolve));
        await background.settled();
        await admission.stop();
        await failures.stop();
        await feed.stop();
        replicas?.stop();
        redis?.disconnect();
        mailer.close();
        await reads.end();
        await db.close();
        return result;
      })();
      return closing;
    },
  };
  return server;
}
