/** Configuration, parsed once at boot from the environment. Nothing else reads process.env. */
import { resolve } from 'node:path';
import { z } from 'zod';

const ZConfig = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional()
    .describe('PostgreSQL to use; the embedded one (PGlite in MBOA_DATA_DIR) when absent'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional()
    .describe('Shares the per-minute rate limit between server instances; in-process when absent'),
  MBOA_DATA_DIR: z.string().default('.mboa-data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Listings generated on the first start of an empty database. */
  MBOA_SEED_LISTINGS: z.coerce.number().int().min(0).default(5000),
  /** How often the server rebuilds the market tables, in minutes (0: never). */
  MARKET_REFRESH_MINUTES: z.coerce.number().min(0).default(60),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  MBOA_CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Signs the dashboard's sign-up and log-in form tokens; shared by every instance. */
  MBOA_DASHBOARD_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Express `trust proxy` (e.g. 1 behind one reverse proxy): real client IPs and https. */
  TRUST_PROXY: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  dataDir: string;
  logLevel: z.infer<typeof ZConfig>['LOG_LEVEL'];
  seedListings: number;
  marketRefreshMinutes: number;
  dbPoolMax: number;
  cursorSecret: string | undefined;
  dashboardSecret: string | undefined;
  trustProxy: string | undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZConfig.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    redisUrl: c.REDIS_URL,
    dataDir: resolve(c.MBOA_DATA_DIR),
    logLevel: c.LOG_LEVEL,
    seedListings: c.MBOA_SEED_LISTINGS,
    marketRefreshMinutes: c.MARKET_REFRESH_MINUTES,
    dbPoolMax: c.DB_POOL_MAX,
    cursorSecret: c.MBOA_CURSOR_SECRET,
    dashboardSecret: c.MBOA_DASHBOARD_SECRET,
    trustProxy: c.TRUST_PROXY,
  };
}
