/**
 * A real server over HTTP on a loopback port, over the seeded test database, with fresh
 * accounts per call (unique e-mails), so tests never share a quota or a rate limit.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Redis } from 'ioredis';
import type { PlanName } from '../../contract/plans.js';
import { createAccount } from '../../server/accounts/service.js';
import { buildApp } from '../../server/app.js';
import { type DashboardDeps, dashboardRouter } from '../../server/dashboard/index.js';
import { type Database, openDatabase } from '../../server/db.js';
import { randomId } from '../../server/ids.js';
import { AccountRateLimiter } from '../../server/http/rate-limit.js';
import { createLogger } from '../../server/logger.js';

export interface TestServer {
  baseUrl: string;
  keys: Record<PlanName, string>;
  db: Database;
  /** A new account with its first key. */
  account(plan: PlanName, overrides?: { monthlyQuota?: number; rateLimit?: number }): Promise<{ id: string; email: string; key: string }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Share rate limits (API and dashboard log-in) through REDIS_URL, when it is set. */
  redis?: boolean;
  /** Dashboard settings tests may change (log-in limits, clock, Secure cookies). */
  dashboard?: Pick<DashboardDeps, 'loginLimits' | 'now' | 'secureCookies'>;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run through vitest (test/global-setup.ts)');
  const db = openDatabase(url, { max: 5 });
  const redis = options.redis && process.env.REDIS_URL ? new Redis(process.env.REDIS_URL) : undefined;
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const app = buildApp({
    pool: db.pool,
    logger,
    rateLimiter: new AccountRateLimiter(redis),
    cursorSecret: 'test-cursor-secret-0123456789',
    mounts: [{ path: '/dashboard', router: dashboardRouter({ prisma: db.prisma, pool: db.pool, logger, redis, ...options.dashboard }) }],
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const account: TestServer['account'] = async (plan, overrides = {}) => {
    const email = `${randomId('t')}@test.mboa.cm`;
    const created = await createAccount(db.prisma, {
      email,
      plan,
      monthlyQuotaOverride: overrides.monthlyQuota,
      rateLimitOverride: overrides.rateLimit,
    });
    return { id: created.account.id, email, key: created.key };
  };
  const keys = {
    starter: (await account('starter')).key,
    pro: (await account('pro')).key,
    enterprise: (await account('enterprise')).key,
  };

  return {
    baseUrl,
    keys,
    db,
    account,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      redis?.disconnect();
      await db.close();
    },
  };
}

/** GET with a key, returning status, headers and parsed body. */
export async function get(baseUrl: string, path: string, key?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}${path}`, { headers: { ...(key ? { 'X-API-Key': key } : {}), ...headers } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text };
}
