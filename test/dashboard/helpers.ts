/**
 * The API server with the dashboard mounted, over the seeded test database, and a small
 * browser-like HTTP client (cookie jar, CSRF tokens read from the forms) for its pages.
 */
import type { PlanName } from '../../contract/plans.js';
import { changePlan } from '../../server/accounts/plan-changes.js';
import type { LoginLimits } from '../../server/dashboard/login-limiter.js';
import type { SignupLimits } from '../../server/dashboard/signup-limiter.js';
import type { Database } from '../../server/platform/db.js';
import type { PushOptions } from '../../server/start/push.js';
import { SmtpMailer } from '../../server/mail/mailer.js';
import { linksIn, type Mailbox, startMailbox } from '../helpers/mailbox.js';
import { startTestServer } from '../helpers/server.js';
import { randomId } from '../../server/platform/ids.js';

export interface DashboardServer {
  baseUrl: string;
  db: Database;
  /** The SMTP server the dashboard's e-mails go to, and what it received. */
  mailbox: Mailbox;
  client(): Client;
  /** Writes the usage counted so far to PostgreSQL (the API writes it in the background). */
  flushUsage(): Promise<void>;
  close(): Promise<void>;
}

/** Tests open many accounts from one address: sign-up limits out of the way unless a test sets them. */
const OPEN_SIGNUPS: SignupLimits = {
  perIp: { points: 100_000, windowSeconds: 60 },
  perDomain: { points: 100_000, windowSeconds: 60 },
  perWebmailDomain: { points: 100_000, windowSeconds: 60 },
};

export async function startDashboardServer(
  options: {
    redis?: boolean;
    loginLimits?: LoginLimits;
    signupLimits?: SignupLimits;
    /** Servers given the same prefix share their Redis counters; by default each has its own. */
    limitPrefix?: string;
    now?: () => Date;
    secureCookies?: boolean;
    /** Reach the database another way (e.g. through a proxy a test can cut). */
    databaseUrl?: string;
    /** Send the 80 % / 100 % quota e-mails after counted calls. */
    quotaAlerts?: boolean;
    /** The webhook worker's settings (loopback receivers, polling). */
    webhooks?: PushOptions;
  } = {},
): Promise<DashboardServer> {
  const { redis, databaseUrl, quotaAlerts, webhooks, ...dashboard } = options;
  const mailbox = await startMailbox();
  const server = await startTestServer({
    redis,
    databaseUrl,
    quotaAlerts,
    mailer: new SmtpMailer(mailbox.url, 'Mboa <no-reply@mboa.cm>'),
    dashboard: { signupLimits: OPEN_SIGNUPS, limitPrefix: randomId('mboa-test'), ...dashboard },
    server: webhooks ? { webhooks } : undefined,
  });
  return {
    baseUrl: server.baseUrl,
    db: server.db,
    mailbox,
    client: () => new Client(server.baseUrl),
    flushUsage: () => server.server.flushUsage(),
    async close() {
      await server.close();
      await mailbox.close();
    },
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
  const m = /data-testid="new-key">(mboa_(?:live|test)_[0-9A-Za-z]{32})</.exec(html);
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

/**
 * Signs up through the form, then (unless `verify: false`) confirms the address with the
 * link the confirmation e-mail carries, as the customer would; the client is logged in.
 * Enterprise is sold by contract, not at sign-up: such an account signs up on Pro and is
 * then moved to Enterprise by an operator, with a year's contract.
 */
export async function signUp(
  t: DashboardServer,
  client: Client,
  o: { plan?: PlanName; email?: string; password?: string; company?: string; verify?: boolean } = {},
): Promise<{ email: string; password: string; key: string; accountId: string; page: Page }> {
  const email = o.email ?? uniqueEmail();
  const password = o.password ?? PASSWORD;
  const page = await client.submit('/dashboard/signup', '/dashboard/signup', {
    company: o.company ?? 'Banque Test SA',
    email,
    password,
    plan: o.plan === 'enterprise' ? 'pro' : (o.plan ?? 'starter'),
  });
  if (page.status !== 201) throw new Error(`sign-up answered ${page.status}: ${textOf(page.text).slice(0, 400)}`);
  const account = await t.db.prisma.account.findUniqueOrThrow({ where: { email } });
  if (o.plan === 'enterprise') {
    const contractEnd = new Date(Date.now() + 365 * 86_400_000);
    await changePlan(t.db.prisma, account.id, 'enterprise', new Date(), { by: 'operator', contract: { contractEnd } });
  }
  if (o.verify !== false) await confirmAddress(t, client, email);
  return { email, password, key: revealedKey(page.text), accountId: account.id, page };
}

/** Opens the confirmation link of the latest confirmation e-mail to `email`. */
export async function confirmAddress(t: DashboardServer, client: Client, email: string): Promise<Page> {
  const subject = /Confirm your e-mail address|Confirmez votre adresse/;
  await t.mailbox.waitFor(email, subject);
  const mail = t.mailbox
    .to(email)
    .filter((m) => subject.test(m.subject ?? ''))
    .at(-1)!;
  const link = linksIn(mail).find((l) => l.includes('/dashboard/verify?token='));
  if (!link) throw new Error(`no confirmation link in: ${mail.text}`);
  const page = await client.get(new URL(link).pathname + new URL(link).search);
  if (page.status !== 200) throw new Error(`confirmation answered ${page.status}: ${textOf(page.text).slice(0, 300)}`);
  return page;
}

export async function apiGet(baseUrl: string, path: string, key: string) {
  const res = await fetch(`${baseUrl}${path}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as any };
}
