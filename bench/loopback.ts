/**
 * What the benchmarks share: the PostgreSQL and Redis they are pointed at (loopback only:
 * a benchmark never loads a server elsewhere), the production environment the compiled
 * server starts with, an in-process server with an Enterprise key for the latency runs,
 * and the child servers of the side-by-side runs (started from the repository, waited for).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
export async function benchServer(databaseUrl: string, redisUrl?: string): Promise<{ server: MboaServer; base: string; key: string }> {
  const server = await createServer({
    databaseUrl,
    ...(redisUrl ? { redisUrl: loopbackOnly(redisUrl) } : {}),
    logger: createLogger('silent'),
    secrets: { cursor: [SECRETS.cursor], dashboard: [SECRETS.dashboard] },
  });
  const base = await server.listen(0, '127.0.0.1');
  const { key } = await createAccount(server.db.prisma, { email: `${randomId('bench')}@bench.mboa.cm`, plan: 'enterprise' });
  return { server, base, key };
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A server of a side-by-side run, started from the repository root; its stderr is shown. */
export function startChild(command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d) => process.stderr.write(d));
  return child;
}

/** Resolves once `url` answers 2xx (polled every 100 ms, 30 s at most). */
export async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} never answered`);
}
