/**
 * A real server over HTTP on a loopback port, over the seeded test database, with fresh
 * accounts per call (unique e-mails), so tests never share a quota or a rate limit.
 */
import { afterAll, beforeAll } from 'vitest';
import type { PlanName } from '../../contract/plans.js';
import type { QuotaAlerts } from '../../server/mail/quota-alerts.js';
import { createAccount } from '../../server/accounts/accounts.js';
import type { Database } from '../../server/platform/db.js';
import { randomId } from '../../server/platform/ids.js';
import { createLogger } from '../../server/platform/logger.js';
import type { Mailer } from '../../server/mail/mailer.js';
import { createServer, type MboaServer, type ServerOptions } from '../../server/start/create-server.js';
import { WINDOW_MS } from '../../server/quota/store.js';

/** Secrets of the test servers: the same on every instance, as in production. */
export const TEST_SECRETS = { cursor: ['test-cursor-secret-0123456789-abcdefgh'], dashboard: ['test-dashboard-secret-0123456789-abcd'] };

export interface TestServer {
  baseUrl: string;
  keys: Record<PlanName, string>;
  db: Database;
  server: MboaServer;
  /** The quota e-mails, when asked for (`quotaAlerts: true`). */
  quotaAlerts?: QuotaAlerts;
  /** A new account with its first key. */
  account(plan: PlanName, overrides?: { monthlyQuota?: number; rateLimit?: number }): Promise<{ id: string; email: string; key: string }>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Another way to the test database (e.g. through a proxy a test can cut); DATABASE_URL by default. */
  databaseUrl?: string;
  /** Share rate limits, quota counts and dashboard limits through REDIS_URL, when it is set. */
  redis?: boolean;
  /** Dashboard settings tests may change (limits, clock, Secure cookies...). */
  dashboard?: ServerOptions['dashboard'];
  /** Where account e-mails go (a test SMTP server); dropped when absent. */
  mailer?: Mailer;
  /** Send the 80 % / 100 % quota e-mails after counted calls. */
  quotaAlerts?: boolean;
  /** Wait for the valuation models' first fit before answering (default: yes; the server fits them in the background). */
  awaitValuations?: boolean;
  /** Any other server option (secrets, metrics, grace period...). */
  server?: Partial<ServerOptions>;
}

/** For suites that send no e-mail they check: messages are dropped. */
const DROP_MAIL: Mailer = { send: async () => {}, close() {} };

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const url = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: run through vitest (test/global-setup.ts)');
  const server = await createServer({
    databaseUrl: url,
    dbPoolMax: 5,
    redisUrl: options.redis ? process.env.REDIS_URL : undefined,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', { sync: true }),
    secrets: TEST_SECRETS,
    shutdownGraceMs: 2_000,
    mailer: options.mailer ?? DROP_MAIL,
    quotaAlerts: options.quotaAlerts ?? false,
    dashboard: options.dashboard,
    ...options.server,
  });
  const baseUrl = await server.listen(0, '127.0.0.1');
  if (options.awaitValuations !== false) await server.fitValuations();
  const db = server.db;

  const account: TestServer['account'] = async (plan, overrides = {}) => {
    // A test of a small per-minute limit makes its calls within one window.
    if (overrides.rateLimit !== undefined) await freshRateWindow();
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
    server,
    quotaAlerts: server.quotaAlerts,
    account,
    async close() {
      await server.close();
    },
  };
}

export interface ServerWithAccount extends TestServer {
  /** The file's own account, of the plan asked for. */
  caller: { id: string; email: string; key: string };
  /** Its key. */
  key: string;
}

/**
 * The setup most API test files share: a test server started before the file's tests
 * (beforeAll) with a fresh account of `plan`, and closed after them. Call it at the top of
 * the file; the object it returns answers once the server has started. The file's own
 * afterAll hooks run before the close (hooks after tests run last-registered first).
 */
export function serverWithAccount(plan: PlanName, options: TestServerOptions = {}): ServerWithAccount {
  let server: TestServer | undefined;
  let caller: ServerWithAccount['caller'] | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
    caller = await server.account(plan);
  });
  afterAll(() => server?.close());
  const started = () => {
    if (!server || !caller) throw new Error('the test server starts in beforeAll: use it in a test or a hook');
    return { server, caller };
  };
  return {
    get baseUrl() {
      return started().server.baseUrl;
    },
    get keys() {
      return started().server.keys;
    },
    get db() {
      return started().server.db;
    },
    get server() {
      return started().server.server;
    },
    get quotaAlerts() {
      return started().server.quotaAlerts;
    },
    account: (accountPlan, overrides) => started().server.account(accountPlan, overrides),
    close: () => started().server.close(),
    get caller() {
      return started().caller;
    },
    get key() {
      return started().caller.key;
    },
  };
}

/** The month's count as stored in PostgreSQL, after the server moved what Redis holds there. */
export async function storedUsage(t: TestServer, accountId: string): Promise<number> {
  await t.server.flushUsage();
  const { monthlyUsage } = await import('../../server/accounts/usage.js');
  return (await monthlyUsage(t.db.prisma, accountId)).used;
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

/**
 * The per-minute limit counts calls in fixed windows (each UTC minute). A test that makes
 * a few calls against a small limit and expects the last refused must not straddle two
 * windows: when less than `neededMs` remain of the current one, wait for the next.
 */
export async function freshRateWindow(neededMs = 15_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
