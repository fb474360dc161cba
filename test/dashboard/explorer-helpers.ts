/**
 * The market explorer's tests: a server whose explorer limit a test may set, an account
 * logged in to the dashboard (a cookie-keeping client), the page's config as its script
 * reads it, and the API called the way the page calls it (`X-Mboa-Explorer`).
 */
import type { PlanName } from '../../contract/plans.js';
import { createAccount } from '../../server/accounts/accounts.js';
import { createKey } from '../../server/accounts/keys.js';
import { hashPassword } from '../../server/accounts/passwords.js';
import type { Limit } from '../../server/dashboard/attempt-limiter.js';
import type { ExplorerConfig } from '../../server/dashboard/explorer-config.js';
import { randomId } from '../../server/platform/ids.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { Client, PASSWORD } from './helpers.js';

export async function startExplorerServer(options: { explorerLimit?: Limit; redis?: boolean } = {}): Promise<TestServer> {
  return startTestServer({
    redis: options.redis,
    dashboard: { limitPrefix: randomId('mboa-test'), explorerLimit: options.explorerLimit },
  });
}

export interface ExplorerUser {
  accountId: string;
  email: string;
  /** Its first live key, in full (what a customer's code sends). */
  key: string;
  client: Client;
}

/** An account of `plan` (confirmed, with a password and a live key), logged in to the dashboard. */
export async function explorerUser(t: TestServer, plan: PlanName): Promise<ExplorerUser> {
  const email = `${randomId('explorer')}@test.mboa.cm`;
  const created = await createAccount(t.db.prisma, {
    email,
    plan,
    passwordHash: await hashPassword(PASSWORD),
    contractEnd: plan === 'enterprise' ? new Date(Date.now() + 365 * 86_400_000) : undefined,
  });
  const client = await logIn(t, email);
  return { accountId: created.account.id, email, key: created.key, client };
}

export async function logIn(t: TestServer, email: string): Promise<Client> {
  const client = new Client(t.baseUrl);
  const res = await client.submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD });
  if (res.status !== 303) throw new Error(`log-in answered ${res.status}`);
  return client;
}

/** A test key of the account, in full, with its id. */
export async function testKeyOf(t: TestServer, accountId: string): Promise<{ id: string; key: string }> {
  const made = await createKey(t.db.prisma, accountId, 'Sandbox', new Date(), { kind: 'test' });
  return { id: made.keyInfo.id, key: made.key };
}

/** The config the market page hands its script. */
export function configOf(html: string): ExplorerConfig {
  const m = /<script type="application\/json" id="explorer-config">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no explorer config on the page');
  return JSON.parse(m[1]) as ExplorerConfig;
}

export async function explorerPage(
  user: ExplorerUser,
  query = '',
): Promise<{ status: number; html: string; headers: Headers; config: ExplorerConfig }> {
  const page = await user.client.get(`/dashboard/market${query}`);
  return { status: page.status, html: page.text, headers: page.headers, config: configOf(page.text) };
}

/** A GET of `/api/v1` as the page makes it: the credential instead of a key. */
export async function explorerGet(baseUrl: string, path: string, credential: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${baseUrl}${path}`, { headers: { 'X-Mboa-Explorer': credential, ...headers } });
  const text = await res.text();
  let body: any = text;
  if ((res.headers.get('content-type') ?? '').includes('json')) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}
