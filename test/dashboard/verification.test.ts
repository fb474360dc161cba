/**
 * Verified sign-up: a new account's keys work on the API only once its address is
 * confirmed by the e-mailed link (48 hours, once); new links on request, limited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admin } from '../helpers/admin.js';
import { linksIn } from '../helpers/mailbox.js';
import { SESSION_COOKIE, startSession } from '../../server/dashboard/session.js';
import {
  apiGet,
  type Client,
  confirmAddress,
  csrfOf,
  type DashboardServer,
  PASSWORD,
  signUp,
  startDashboardServer,
  textOf,
} from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const SUBJECT = /Confirm your e-mail address for Mboa|Confirmez votre adresse e-mail pour Mboa/;

function pathOf(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}

async function latestLink(email: string): Promise<string> {
  await t.mailbox.waitFor(email, SUBJECT);
  const mails = t.mailbox.to(email).filter((m) => SUBJECT.test(m.subject ?? ''));
  return linksIn(mails.at(-1)!).find((l) => l.includes('/verify?token='))!;
}

async function resend(client: Client) {
  return client.submit('/dashboard/', '/dashboard/verify/resend', {});
}

/** A session of an account not yet confirmed, as sign-ups before confirmation opened one. */
async function openedBeforeConfirmation(client: Client, accountId: string): Promise<void> {
  const session = await startSession(t.db.prisma, accountId);
  client.cookies.set(SESSION_COOKIE, session.token);
}

async function logIn(client: Client, email: string, password = PASSWORD) {
  return client.submit('/dashboard/login', '/dashboard/login', { email, password });
}

describe('sign-up, then confirmation by e-mail', () => {
  it('refuses the key until the link in the e-mail is opened, then accepts it', async () => {
    const client = t.client();
    // A company name is the requester's text: it never goes into a mail to an unconfirmed address.
    const company = 'Pay your fee at https://evil.example/pay';
    const { email, key, accountId, page } = await signUp(t, client, { plan: 'pro', verify: false, company });
    expect(textOf(page.text)).toContain(`One more step: confirm your address with the link we sent to ${email}.`);

    const refused = await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'email_unverified', title: 'E-mail address not confirmed' });
    expect(refused.body.detail).toContain('open the link sent to it at sign-up (logging in to the dashboard mails a new one)');
    // No session before the address is confirmed: the dashboard asks to log in.
    const before = await client.get('/dashboard/');
    expect(before.status).toBe(303);
    expect(before.location).toContain('/dashboard/login');

    const mail = await t.mailbox.waitFor(email, SUBJECT);
    expect(mail.subject).toBe('Confirm your e-mail address for Mboa');
    expect(mail.text).toContain('Someone, probably you, opened a Mboa account with this address.');
    for (const part of [mail.subject ?? '', mail.text ?? '', String(mail.html)]) expect(part).not.toMatch(/evil\.example|Pay your fee/);
    expect(mail.text).toContain('This link works once, for 48 hours.');
    const link = linksIn(mail).find((l) => l.includes('/dashboard/verify?token='))!;
    expect(link.startsWith(`${t.baseUrl}/dashboard/verify?token=`)).toBe(true);
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));

    const confirmed = await client.get(pathOf(link));
    expect(confirmed.status).toBe(200);
    expect(textOf(confirmed.text)).toContain('Thank you: your address is confirmed and your API keys work now.');
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).emailVerifiedAt).not.toBeNull();
    expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key)).status).toBe(200);
    // The link opened the account's session in this browser.
    const home = await client.get('/dashboard/');
    expect(home.status).toBe(200);
    expect(textOf(home.text)).toContain('Calls this month');
    expect(textOf(home.text)).not.toContain('is not confirmed yet');

    // The link is spent: a second click changes nothing, and tells the confirmed customer so
    // (and opens no session: only the link's first use does).
    const other = t.client();
    const again = await other.get(pathOf(link));
    expect(again.status).toBe(200);
    expect(textOf(again.text)).toContain('This address was already confirmed: your API keys work.');
    expect(textOf(again.text)).not.toContain('not valid');
    expect((await other.get('/dashboard/')).status).toBe(303);
  });

  it('writes the e-mail in the language of the sign-up', async () => {
    const client = t.client();
    await client.get('/dashboard/lang/fr');
    const { email } = await signUp(t, client, { verify: false, company: 'Crédit Foncier' });
    const mail = await t.mailbox.waitFor(email, SUBJECT);
    expect(mail.subject).toBe('Confirmez votre adresse e-mail pour Mboa');
    expect(mail.text).toContain('Quelqu’un, probablement vous, a ouvert un compte Mboa avec cette adresse.');
    expect(mail.text).not.toContain('Crédit Foncier');
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { email } })).language).toBe('fr');
  });

  it('refuses an expired link (48 hours), and a forged one', async () => {
    const client = t.client();
    const { email, accountId, key } = await signUp(t, client, { verify: false });
    const link = await latestLink(email);
    await t.db.prisma.emailToken.updateMany({ where: { accountId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await client.get(pathOf(link));
    expect(expired.status).toBe(410);
    expect(textOf(expired.text)).toContain('This confirmation link has expired (links work for 48 hours).');
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).body.code).toBe('email_unverified');
    for (const token of ['', 'x', 'A'.repeat(43), '<script>']) {
      const forged = await client.get(`/dashboard/verify?token=${encodeURIComponent(token)}`);
      expect(forged.status).toBe(404);
    }
  });

  it('refuses a log-in before confirmation as a wrong password, and mails a new link (at most 3 an hour)', async () => {
    const client = t.client();
    const { email, key } = await signUp(t, client, { verify: false });
    const first = await latestLink(email);
    const wrong = await logIn(t.client(), email, 'not the password at all');
    for (let i = 0; i < 3; i++) {
      const res = await logIn(client, email);
      expect(res.status).toBe(422);
      // Word for word the refusal of a wrong password: a sign-up with a taken address learns nothing here.
      expect(textOf(res.text)).toBe(textOf(wrong.text).replaceAll('not the password at all', ''));
    }
    // Three new links; a fourth asked for within the hour (here by signing up again) is not sent.
    const again = await t.client().submit('/dashboard/signup', '/dashboard/signup', {
      company: 'Again SA',
      email,
      password: PASSWORD,
      plan: 'starter',
    });
    expect(again.status).toBe(201);
    const links = () => t.mailbox.to(email).filter((m) => SUBJECT.test(m.subject ?? '')).length;
    for (let waited = 0; links() < 4 && waited < 10_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(email).filter((m) => SUBJECT.test(m.subject ?? ''))).toHaveLength(4);
    expect((await client.get(pathOf(first))).status).toBe(404); // replaced
    expect((await client.get(pathOf(await latestLink(email)))).status).toBe(200);
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(200);
    expect((await client.get('/dashboard/')).status).toBe(200);
    // Confirmed: the log-in works.
    expect((await logIn(t.client(), email)).status).toBe(303);
  });

  it('sends a new link from the home page of a session opened before confirmation, at most 3 an hour', async () => {
    const client = t.client();
    const { email, key, accountId } = await signUp(t, client, { verify: false });
    const first = await latestLink(email);
    await openedBeforeConfirmation(client, accountId);
    expect(textOf((await client.get('/dashboard/')).text)).toContain(
      `Your address ${email} is not confirmed yet: the API refuses your keys until it is.`,
    );
    for (let i = 0; i < 3; i++) {
      const res = await resend(client);
      expect(res.status).toBe(303);
      expect(textOf((await client.get('/dashboard/')).text)).toContain(`A new confirmation link was sent to ${email}.`);
    }
    const limited = await resend(client);
    expect(limited.status).toBe(429);
    expect(textOf(limited.text)).toContain('Several links were sent already. Try again in');
    expect(t.mailbox.to(email).filter((m) => SUBJECT.test(m.subject ?? ''))).toHaveLength(4);

    expect((await client.get(pathOf(first))).status).toBe(404); // replaced
    expect((await client.get(pathOf(await latestLink(email)))).status).toBe(200);
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(200);
    // Confirmed: asking again says so and sends nothing.
    const done = await resend(client);
    expect(done.status).toBe(303);
    expect(textOf((await client.get('/dashboard/')).text)).toContain('Your address is already confirmed.');
    expect(t.mailbox.to(email).filter((m) => SUBJECT.test(m.subject ?? ''))).toHaveLength(4);
  });

  it('refuses a resend without the session’s CSRF token', async () => {
    const client = t.client();
    const { email, accountId } = await signUp(t, client, { verify: false });
    await latestLink(email);
    await openedBeforeConfirmation(client, accountId);
    expect((await client.post('/dashboard/verify/resend', {})).status).toBe(403);
    expect((await client.post('/dashboard/verify/resend', { _csrf: csrfOf((await t.client().get('/dashboard/login')).text) })).status).toBe(
      403,
    );
  });

  it('mails no customer-typed text (a key’s name) to an address not yet confirmed', async () => {
    const client = t.client();
    const { email, accountId } = await signUp(t, client, { verify: false });
    await latestLink(email);
    await openedBeforeConfirmation(client, accountId);
    const name = 'Pay at https://evil.example';
    expect((await client.submit('/dashboard/keys', '/dashboard/keys', { name, kind: 'test' })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 300));
    const mails = () => t.mailbox.to(email).filter((m) => /New API key/.test(m.subject ?? ''));
    expect(mails()).toHaveLength(0);
    for (const m of t.mailbox.to(email)) expect(`${m.subject} ${m.text}`).not.toContain('evil.example');
    // Once the address is confirmed, key mails go out as ever.
    await confirmAddress(t, client, email);
    expect((await client.submit('/dashboard/keys', '/dashboard/keys', { name: 'Second test key', kind: 'test' })).status).toBe(201);
    expect((await t.mailbox.waitFor(email, /New API key/)).subject).toContain('Second test key');
    expect(mails()).toHaveLength(1);
  });

  it('confirms through the helper every suite uses (the link from the mail)', async () => {
    const client = t.client();
    const { email, key } = await signUp(t, client, { verify: false });
    await confirmAddress(t, client, email);
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(200);
  });
});

describe('accounts that need no confirmation', () => {
  it('confirms accounts made by an operator at creation', async () => {
    const email = `${Date.now()}-ops@test.mboa.cm`;
    const res = await admin(['accounts', 'create', '--email', email, '--plan', 'starter', '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.account.email_verified).toBe(true);
    expect((await apiGet(t.baseUrl, '/api/v1/ping', res.json.key)).status).toBe(200);
  });
});
