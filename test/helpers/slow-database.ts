/**
 * What the shutdown tests share: a scratch database with seeded listings and one Enterprise
 * account, reached through a latency proxy so calls last long enough to be caught in
 * flight; the compiled server started over it as production runs it; and the account's
 * charged calls, read straight from the database.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { applyMigrations } from '../../prisma/schema-engine/migrations.js';
import { createAccount } from '../../server/accounts/accounts.js';
import { seedListings } from '../../server/generate/seed.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { openDatabase } from '../../server/platform/db.js';
import { randomId } from '../../server/platform/ids.js';
import { createScratchDatabase } from './databases.js';
import { type LatencyProxy, startLatencyProxy } from './latency-proxy.js';
import { ROOT, run } from './processes.js';

export interface SlowDatabase {
  /** The proxy's address: what the server under test connects to. */
  url: string;
  key: string;
  accountId: string;
  /** Calls charged to the account so far this month. */
  usage(): Promise<number>;
  close(): Promise<void>;
}

export async function slowDatabase(o: { name: string; seed: number; latencyMs: number; monthlyQuota: number }): Promise<SlowDatabase> {
  const scratch = await createScratchDatabase(o.name);
  let proxy: LatencyProxy | undefined;
  try {
    await applyMigrations(scratch.url);
    const db = openDatabase(scratch.url, { max: 2 });
    let created: Awaited<ReturnType<typeof createAccount>>;
    try {
      await seedListings(db.pool, { listings: 600, seed: o.seed });
      await refreshMarketFigures(db.pool);
      created = await createAccount(db.prisma, {
        email: `${randomId('t')}@test.mboa.cm`,
        plan: 'enterprise',
        monthlyQuotaOverride: o.monthlyQuota,
        rateLimitOverride: 1_000_000,
      });
    } finally {
      await db.close();
    }
    proxy = await startLatencyProxy(scratch.url, o.latencyMs);
    const p = proxy;
    return {
      url: p.url,
      key: created.key,
      accountId: created.account.id,
      usage: () => usageOf(scratch.url, created.account.id),
      async close() {
        await p.close();
        await scratch.drop();
      },
    };
  } catch (err) {
    await proxy?.close();
    await scratch.drop();
    throw err;
  }
}

const secret = () => randomBytes(32).toString('base64');

/** The compiled server under plain node, production environment, without Redis. */
export function compiledServer(databaseUrl: string, graceSeconds: number) {
  return run(process.execPath, ['dist/server/start/main.js'], {
    DATABASE_URL: databaseUrl,
    MBOA_CURSOR_SECRET: secret(),
    MBOA_DASHBOARD_SECRET: secret(),
    MBOA_PUBLIC_URL: 'https://api.mboa.test',
    SMTP_URL: 'smtp://127.0.0.1:2525',
    MBOA_DATA_DIR: `${ROOT}/test-artifacts/never-written`,
    REDIS_URL: undefined,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    SHUTDOWN_GRACE_SECONDS: String(graceSeconds),
  });
}

/** Where a compiled server says it listens. */
export async function listeningAt(server: ReturnType<typeof compiledServer>): Promise<string> {
  return (await server.waitFor(/Mboa API on (http:\/\/127\.0\.0\.1:\d+)/))[1];
}

async function usageOf(url: string, accountId: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ used: number }>(
      'SELECT coalesce(sum(used), 0)::int AS used FROM monthly_usage WHERE account_id = $1',
      [accountId],
    );
    return rows[0].used;
  } finally {
    await c.end();
  }
}
