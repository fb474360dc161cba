/**
 * Configuration, parsed once at boot from the environment. Nothing else reads process.env.
 *
 * Two modes, told apart by DATABASE_URL alone:
 * - demo (no DATABASE_URL): the embedded PostgreSQL in MBOA_DATA_DIR, migrated and seeded
 *   at start, demo accounts, secrets generated once and kept in the data folder;
 * - production (DATABASE_URL set): nothing seeded or created, migrations are a deploy step,
 *   and the secrets must come from the environment.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The folder of Mboa's package.json, above this module (from the sources or from dist/):
 * the demo's data folder is there by default, wherever the server or the CLI is started
 * from, so that both act on the same embedded database. The working directory when there
 * is no such folder (never in this repository).
 */
function projectRoot(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'mboa') return dir;
  }
  return process.cwd();
}

/** Shortest secret accepted in production: 32 characters (e.g. 24 random bytes in base64). */
export const SECRET_MIN_LENGTH = 32;
export const SECRET_HINT = `openssl rand -base64 32`;

const secret = z.string().min(SECRET_MIN_LENGTH, `must be at least ${SECRET_MIN_LENGTH} characters (make one with: ${SECRET_HINT})`);

const ZConfig = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional()
    .describe('PostgreSQL to use (production mode); the embedded one (demo mode) when absent'),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/[^,\s]+(,postgres(ql)?:\/\/[^,\s]+)*$/, 'must be one postgresql:// URL or several, comma-separated')
    .optional()
    .describe("Read replicas (production mode): the API's reads go there, every write to DATABASE_URL"),
  /** A replica further behind its primary than this is skipped, its reads sent elsewhere. */
  REPLICA_MAX_LAG_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  /** How often each replica's state and lag are checked. */
  REPLICA_CHECK_SECONDS: z.coerce.number().min(0.1).max(300).default(2),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional()
    .describe('Shares the per-minute rate limit and the quota count between server instances'),
  REDIS_SENTINELS: z
    .string()
    .regex(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, 'must be host:port[,host:port…] (the Sentinels)')
    .optional()
    .describe('Redis through Sentinel: the current primary of REDIS_SENTINEL_NAME, found and followed by asking these'),
  REDIS_SENTINEL_NAME: z.string().min(1).default('mboa'),
  /** The demo's data folder; `.mboa-data` in the project's folder when absent. */
  MBOA_DATA_DIR: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Listings generated on the first start of an empty embedded database (demo mode only). */
  MBOA_SEED_LISTINGS: z.coerce.number().int().min(0).default(5000),
  /** How often the server rebuilds the market tables, in minutes (0: never). */
  MARKET_REFRESH_MINUTES: z.coerce.number().min(0).default(60),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  /** Heavy reads at once per instance: the connections of their own pool (api/costs.ts). */
  DB_HEAVY_POOL_MAX: z.coerce.number().int().min(2).max(50).default(2),
  MBOA_CURSOR_SECRET: secret.optional(),
  /** The value before the last rotation, still accepted so cursors already handed out keep working. */
  MBOA_CURSOR_SECRET_PREVIOUS: secret.optional(),
  /** Signs the dashboard's sign-up and log-in form tokens; shared by every instance. */
  MBOA_DASHBOARD_SECRET: secret.optional(),
  MBOA_DASHBOARD_SECRET_PREVIOUS: secret.optional(),
  /** Express `trust proxy` (e.g. 1 behind one reverse proxy): real client IPs and https. */
  TRUST_PROXY: z.string().optional(),
  /** Public origin of the service (e.g. https://api.mboa.cm): OpenAPI `servers`, links in e-mails. */
  MBOA_PUBLIC_URL: z.string().url().optional(),
  /** Bearer token that opens GET /metrics on the main port. */
  MBOA_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Serves GET /metrics, without a token, on this port of METRICS_HOST instead (a private network). */
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** Seconds in-flight requests get to finish after SIGTERM before the process exits anyway. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(25),
  /** Outgoing mail: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://…:465. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  /** The sender of every e-mail. */
  MBOA_MAIL_FROM: z.string().min(3).default('Mboa <no-reply@mboa.cm>'),
  /** `1`: webhook endpoints on loopback addresses, over http too (tests, rigs; demo mode always allows them). */
  MBOA_WEBHOOKS_ALLOW_LOOPBACK: z.enum(['0', '1'], { message: 'must be 0 or 1' }).default('0'),
});

export type Mode = 'demo' | 'production';

export interface Secrets {
  /** Signing values, the current one first; later ones are only accepted (rotation). */
  cursor: string[];
  dashboard: string[];
}

export interface Config {
  mode: Mode;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** The read replicas' URLs (none: every read goes to `databaseUrl`); production mode only. */
  readReplicas: { urls: string[]; maxLagSeconds: number; checkIntervalMs: number };
  redisUrl: string | undefined;
  /** Sentinels to ask for the Redis primary (REDIS_URL then gives only the database number and password). */
  redisSentinels: RedisSentinels | undefined;
  dataDir: string;
  logLevel: z.infer<typeof ZConfig>['LOG_LEVEL'];
  seedListings: number;
  marketRefreshMinutes: number;
  dbPoolMax: number;
  dbHeavyPoolMax: number;
  /** From the environment; in demo mode the data folder provides any that are missing (start/demo.ts). */
  secrets: Partial<Secrets>;
  trustProxy: string | undefined;
  publicUrl: string | undefined;
  metrics: { token: string | undefined; port: number | undefined; host: string };
  shutdownGraceMs: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Webhook endpoints on loopback addresses allowed (demo mode, or MBOA_WEBHOOKS_ALLOW_LOOPBACK=1). */
  webhooksAllowLoopback: boolean;
}

export interface RedisSentinels {
  sentinels: Array<{ host: string; port: number }>;
  /** The name the Sentinels monitor the primary under. */
  name: string;
}

export class ConfigError extends Error {}

/**
 * `secrets: 'optional'` is for the operator CLI, which signs nothing: it must run on a
 * production host without the server's secrets in its environment.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: { secrets?: 'required' | 'optional' } = {}): Config {
  // Empty variables count as unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  const mode: Mode = c.DATABASE_URL ? 'production' : 'demo';
  return {
    mode,
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    readReplicas: {
      urls: mode === 'production' && c.DATABASE_READ_URL ? c.DATABASE_READ_URL.split(',') : [],
      maxLagSeconds: c.REPLICA_MAX_LAG_SECONDS,
      checkIntervalMs: c.REPLICA_CHECK_SECONDS * 1000,
    },
    redisUrl: c.REDIS_URL,
    redisSentinels: c.REDIS_SENTINELS
      ? {
          sentinels: c.REDIS_SENTINELS.split(',').map((s) => {
            const i = s.lastIndexOf(':');
            return { host: s.slice(0, i), port: Number(s.slice(i + 1)) };
          }),
          name: c.REDIS_SENTINEL_NAME,
        }
      : undefined,
    dataDir: c.MBOA_DATA_DIR ? resolve(c.MBOA_DATA_DIR) : join(projectRoot(), '.mboa-data'),
    logLevel: c.LOG_LEVEL,
    seedListings: c.MBOA_SEED_LISTINGS,
    marketRefreshMinutes: c.MARKET_REFRESH_MINUTES,
    dbPoolMax: c.DB_POOL_MAX,
    dbHeavyPoolMax: c.DB_HEAVY_POOL_MAX,
    secrets: secretsFromEnv(c, options.secrets === 'optional' ? 'demo' : mode),
    trustProxy: c.TRUST_PROXY,
    publicUrl: c.MBOA_PUBLIC_URL,
    metrics: { token: c.MBOA_METRICS_TOKEN, port: c.METRICS_PORT, host: c.METRICS_HOST },
    shutdownGraceMs: c.SHUTDOWN_GRACE_SECONDS * 1000,
    smtpUrl: c.SMTP_URL,
    mailFrom: c.MBOA_MAIL_FROM,
    webhooksAllowLoopback: mode === 'demo' || c.MBOA_WEBHOOKS_ALLOW_LOOPBACK === '1',
  };
}

/**
 * Production never falls back to a secret of its own: a missing one stops the start,
 * naming every missing variable and how to make a value. Demo mode may leave them unset.
 */
function secretsFromEnv(c: z.infer<typeof ZConfig>, strictness: Mode): Partial<Secrets> {
  const withPrevious = (current: string | undefined, previous: string | undefined) =>
    current ? [current, ...(previous ? [previous] : [])] : undefined;
  const secrets: Partial<Secrets> = {
    cursor: withPrevious(c.MBOA_CURSOR_SECRET, c.MBOA_CURSOR_SECRET_PREVIOUS),
    dashboard: withPrevious(c.MBOA_DASHBOARD_SECRET, c.MBOA_DASHBOARD_SECRET_PREVIOUS),
  };
  const missing = (['MBOA_CURSOR_SECRET', 'MBOA_DASHBOARD_SECRET'] as const).filter((name) => !c[name]);
  if (missing.length === 0 || strictness === 'demo') return secrets;
  throw new ConfigError(
    missing
      .map(
        (name) =>
          `${name} is not set: production needs it (${SECRET_MIN_LENGTH}+ characters, the same on every instance; make one with: ${SECRET_HINT})`,
      )
      .join('\n'),
  );
}
