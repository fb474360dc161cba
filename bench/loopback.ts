/**
 * What the benchmarks share: the PostgreSQL and Redis they are pointed at (loopback only:
 * a benchmark never loads a server elsewhere), the production environment the compiled
 * server starts with, and an in-process server with an Enterprise key for the latency runs.
 */
import { createAccount } from '../server/accounts/accounts.js';
import { randomId } from '../server/platform/ids.js';
import { createLogger } from '../server/platform/logger.js';
import { createServer, type MboaServer } from '../server/start/create-server.js';

const SECRETS = { cursor: 'bench-cursor-secret-0123456789-abcdefgh', dashboard: 'bench-dashboard-secret-0123456789-abcd' };

function loopbackOnly(url: string): string {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    console.error(`refusing a non-loopback server: ${host}`);
    process.exit(2);
  }
  return url;
}

/** DATABASE_URL, on loopback; `hint` says what the database must hold. */
export function loopbackDatabase(hint: string): string {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    console.error(`set DATABASE_URL (${hint})`);
    process.exit(2);
  }
  return loopbackOnly(databaseUrl);
}

/** DATABASE_URL and REDIS_URL, both on loopback. */
export function loopbackServices(hint: string): { databaseUrl: string; redisUrl: string } {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    console.error(`set DATABASE_URL (${hint}) and REDIS_URL`);
    process.exit(2);
  }
  return { databaseUrl: loopbackDatabase(hint), redisUrl: loopbackOnly(redisUrl) };
}

/** A production start of `dist/server/start/main.js` on `port` (nothing is mailed during a run). */
export function productionEnv(o: { databaseUrl: string; redisUrl: string; port: number }): Record<string, string> {
  return {
    DATABASE_URL: o.databaseUrl,
    REDIS_URL: o.redisUrl,
    PORT: String(o.port),
    HOST: '127.0.0.1',
    MARKET_REFRESH_MINUTES: '0',
    MBOA_CURSOR_SECRET: SECRETS.cursor,
    MBOA_DASHBOARD_SECRET: SECRETS.dashboard,
    MBOA_PUBLIC_URL: 'http://127.0.0.1',
    SMTP_URL: 'smtp://127.0.0.1:2525',
  };
}

/** A server in this process over `databaseUrl` (no Redis), listening on a loopback port, and a new Enterprise key. */
export async function benchServer(databaseUrl: string): Promise<{ server: MboaServer; base: string; key: string }> {
  const server = await createServer({
    databaseUrl,
    logger: createLogger('silent'),
    secrets: { cursor: [SECRETS.cursor], dashboard: [SECRETS.dashboard] },
  });
  const base = await server.listen(0, '127.0.0.1');
  const { key } = await createAccount(server.db.prisma, { email: `${randomId('bench')}@bench.mboa.cm`, plan: 'enterprise' });
  return { server, base, key };
}
