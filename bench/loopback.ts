/**
 * What the benchmarks against the compiled server share: the PostgreSQL and Redis they
 * are pointed at (loopback only: a benchmark never loads a server elsewhere) and the
 * production environment the server starts with.
 */
export function loopbackServices(hint: string): { databaseUrl: string; redisUrl: string } {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl || !redisUrl) {
    console.error(`set DATABASE_URL (${hint}) and REDIS_URL`);
    process.exit(2);
  }
  for (const u of [databaseUrl, redisUrl]) {
    if (!['127.0.0.1', 'localhost', '::1'].includes(new URL(u).hostname)) {
      console.error(`refusing a non-loopback server: ${new URL(u).hostname}`);
      process.exit(2);
    }
  }
  return { databaseUrl, redisUrl };
}

/** A production start of `dist/server/start/main.js` on `port` (nothing is mailed during a run). */
export function productionEnv(o: { databaseUrl: string; redisUrl: string; port: number }): Record<string, string> {
  return {
    DATABASE_URL: o.databaseUrl,
    REDIS_URL: o.redisUrl,
    PORT: String(o.port),
    HOST: '127.0.0.1',
    MARKET_REFRESH_MINUTES: '0',
    MBOA_CURSOR_SECRET: 'bench-cursor-secret-0123456789-abcdefgh',
    MBOA_DASHBOARD_SECRET: 'bench-dashboard-secret-0123456789-abcd',
    MBOA_PUBLIC_URL: 'http://127.0.0.1',
    SMTP_URL: 'smtp://127.0.0.1:2525',
  };
}
