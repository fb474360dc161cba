/**
 * The API server with the dashboard mounted, over the seeded test database, and a small
 * browser-like HTTP client (cookie jar, CSRF tokens read from the forms) for its pages.
 */
import type { PlanName } from '../../contract/plans.js';
import type { LoginLimits } from '../../server/dashboard/login-limiter.js';
import type { Database } from '../../server/db.js';
import { startTestServer } from '../helpers/server.js';
import { randomId } from '../../server/ids.js';

export interface DashboardServer {
  baseUrl: string;
  db: Database;
  client(): Client;
  close(): Promise<void>;
}

export async function startDashboardServer(
  options: { redis?: boolean; loginLimits?: LoginLimits; now?: () => Date; secureCookies?: boolean } = {},
): Promise<DashboardServer> {
  const { redis, ...dashboard } = options;
  const server = await startTestServer({ redis, dashboard });
  return {
    baseUrl: server.baseUrl,
    db: server.db,
    client: () => new Client(server.baseUrl),
    close: () => server.close(),
  };
}

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  /** Redirect target, for 3xx answers. */
  location: string | null;
  setCookies: string[];
}

/** A cookie-keeping client that submits forms the way a browser does. */
export class Client {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(method: 'GET' | 'POST', path: string, form?: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        'accept-language': 'en',
        ...headers,
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: res.status, headers: res.headers, text: await res.text(), location: res.headers.get('location'), setCookies };
  }

  get(path: string, headers?: Record<string, string>): Promise<Page> {
    return this.request('GET', path, undefined, headers);
  }

  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<Page> {
    return this.request('POST', path, form, headers);
  }

  /** GET `pagePath`, take its CSRF token, POST the form to `action`. */
  async submit(pagePath: string, action: string, fields: Record<string, string>, headers?: Record<string, string>): Promise<Page> {
    const page = await this.get(pagePath, headers);
    return this.post(action, { _csrf: csrfOf(page.text), ...fields }, headers);
  }
}

export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]*)"/.exec(html);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1];
}

/** The key shown once after sign-up, creation or rotation. */
export function revealedKey(html: string): string {
  const m = /data-testid="new-key">(mboa_live_[0-9A-Za-z]{32})</.exec(html);
  if (!m) throw new Error('no key shown on the page');
  return m[1];
}

/** The visible text of a page, tags removed and entities decoded (enough for assertions). */
export function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/[\s\u00a0\u202f]+/g, ' ');
}

export const uniqueEmail = (tag = 'dash') => `${randomId(tag)}@test.mboa.cm`;
export const PASSWORD = 'correct horse battery';

/** Signs up through the form; the client is then logged in. */
export async function signUp(
  t: DashboardServer,
  client: Client,
  o: { plan?: PlanName; email?: string; password?: string; company?: string } = {},
): Promise<{ email: string; password: string; key: string; accountId: string; page: Page }> {
  const email = o.email ?? uniqueEmail();
  const password = o.password ?? PASSWORD;
  const page = await client.submit('/dashboard/signup', '/dashboard/signup', {
    company: o.company ?? 'Banque Test SA',
    email,
    password,
    plan: o.plan ?? 'starter',
  });
  if (page.status !== 201) throw new Error(`sign-up answered ${page.status}: ${textOf(page.text).slice(0, 400)}`);
  const account = await t.db.prisma.account.findUniqueOrThrow({ where: { email } });
  return { email, password, key: revealedKey(page.text), accountId: account.id, page };
}

export async function apiGet(baseUrl: string, path: string, key: string) {
  const res = await fetch(`${baseUrl}${path}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as any };
}
