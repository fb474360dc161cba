/**
 * Passwords: reset by an e-mailed single-use link (an hour), without ever telling whether
 * an address has an account; change from the dashboard with the current password. Either
 * way every other session ends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linksIn } from '../helpers/mailbox.js';
import { type Client, csrfOf, type DashboardServer, PASSWORD, signUp, startDashboardServer, textOf, uniqueEmail } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const RESET = /Reset your Mboa password|Réinitialisez votre mot de passe Mboa/;
const NEW_PASSWORD = 'a brand new passphrase';

function pathOf(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}

async function askReset(client: Client, email: string) {
  return client.submit('/dashboard/password/forgot', '/dashboard/password/forgot', { email });
}

async function resetLink(email: string): Promise<string> {
  await t.mailbox.waitFor(email, RESET);
  const mail = t.mailbox
    .to(email)
    .filter((m) => RESET.test(m.subject ?? ''))
    .at(-1)!;
  return linksIn(mail).find((l) => l.includes('/dashboard/password/reset?token='))!;
}

async function logIn(email: string, password: string) {
  return t.client().submit('/dashboard/login', '/dashboard/login', { email, password });
}

describe('reset by e-mail', () => {
  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const { email } = await signUp(t, t.client());
    const unknown = uniqueEmail('nobody');
    const [known, stranger] = [await askReset(t.client(), email), await askReset(t.client(), unknown)];
    for (const [res, address] of [
      [known, email],
      [stranger, unknown],
    ] as const) {
      expect(res.status).toBe(200);
      expect(textOf(res.text)).toContain(`If an account exists for ${address}, a link to choose a new password is on its way.`);
    }
    expect(known.text.replace(email, 'X')).toBe(
      stranger.text.replace(unknown, 'X').replace(/name="_csrf" value="[^"]*"/, known.text.match(/name="_csrf" value="[^"]*"/)![0]),
    );
    const mail = await t.mailbox.waitFor(email, RESET);
    expect(mail.text).toContain('This link works once, for 60 minutes.');
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(unknown)).toHaveLength(0);
  });

  it('looks the address up after the answer: the answer waits for no account, known or not', async () => {
    const { email } = await signUp(t, t.client());
    const unknown = uniqueEmail('nobody');
    // While the accounts table is locked, nothing that reads it can answer.
    const holder = await t.db.pool.connect();
    let locked = true;
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE');
      const answers = await Promise.all(
        [email, unknown].map(async (address) => {
          const started = performance.now();
          const res = await Promise.race([askReset(t.client(), address), new Promise<null>((r) => setTimeout(() => r(null), 5_000))]);
          return { status: res?.status ?? 'waited', ms: performance.now() - started };
        }),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      await holder.query('ROLLBACK');
      locked = false;
    } finally {
      if (locked) await holder.query('ROLLBACK');
      holder.release();
    }
    // Once the table is free again, the known address gets its link.
    expect((await t.mailbox.waitFor(email, RESET)).text).toContain('This link works once');
  });

  it('sets a new password from the link, ends every session, and the link works once', async () => {
    const first = t.client();
    const { email, accountId } = await signUp(t, first);
    const second = t.client();
    expect((await second.submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD })).status).toBe(303);
    expect(await t.db.prisma.dashboardSession.count({ where: { accountId } })).toBe(2);

    const browser = t.client();
    await askReset(browser, email);
    const link = await resetLink(email);
    const form = await browser.get(pathOf(link));
    expect(form.status).toBe(200);
    expect(textOf(form.text)).toContain(`For the account of ${email}. Every session of this account will be logged out.`);
    expect(form.headers.get('cache-control')).toBe('no-store');

    const token = new URL(link).searchParams.get('token')!;
    const weak = await browser.post('/dashboard/password/reset', { _csrf: csrfOf(form.text), token, password: 'short' });
    expect(weak.status).toBe(422);
    expect(textOf(weak.text)).toContain('This password is too short: use at least 10 characters.');

    const done = await browser.post('/dashboard/password/reset', { _csrf: csrfOf(weak.text), token, password: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/dashboard/');
    expect(textOf((await browser.get('/dashboard/')).text)).toContain(
      'Your new password is saved, and every other session was logged out.',
    );
    // The two sessions opened before are gone; only the one the reset opened remains.
    for (const old of [first, second]) expect((await old.get('/dashboard/keys')).status).toBe(303);
    expect(await t.db.prisma.dashboardSession.count({ where: { accountId } })).toBe(1);

    expect((await logIn(email, PASSWORD)).status).toBe(422);
    expect((await logIn(email, NEW_PASSWORD)).status).toBe(303);
    await t.mailbox.waitFor(email, /Your Mboa password was changed/);

    const reused = await t.client().get(pathOf(link));
    expect(reused.status).toBe(404);
    expect(textOf(reused.text)).toContain('This link is not valid or was already used. Ask for a new one.');
    const other = t.client();
    const otherForm = csrfOf((await other.get('/dashboard/password/forgot')).text);
    const replayed = await other.post('/dashboard/password/reset', { _csrf: otherForm, token, password: 'another good password' });
    expect(replayed.status).toBe(404);
    expect((await logIn(email, NEW_PASSWORD)).status).toBe(303);
  });

  it('refuses an expired link (one hour) and confirms the address when the link works', async () => {
    const client = t.client();
    const { email, accountId } = await signUp(t, client, { verify: false });
    await askReset(t.client(), email);
    const link = await resetLink(email);
    await t.db.prisma.emailToken.updateMany({
      where: { accountId, purpose: 'reset_password' },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await t.client().get(pathOf(link));
    expect(expired.status).toBe(410);
    expect(textOf(expired.text)).toContain('This link has expired (reset links work for one hour). Ask for a new one.');

    await askReset(t.client(), email);
    await new Promise((r) => setTimeout(r, 200));
    const fresh = await resetLink(email);
    expect(fresh).not.toBe(link);
    const browser = t.client();
    const form = await browser.get(pathOf(fresh));
    const done = await browser.post('/dashboard/password/reset', {
      _csrf: csrfOf(form.text),
      token: new URL(fresh).searchParams.get('token')!,
      password: NEW_PASSWORD,
    });
    expect(done.status).toBe(303);
    // Only the owner of the mailbox could open the link: the address counts as confirmed.
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).emailVerifiedAt).not.toBeNull();
  });

  it('limits requests per address (3 an hour), still without telling whether it exists', async () => {
    const limited = await startDashboardServer();
    try {
      const { email } = await signUp(limited, limited.client());
      for (let i = 0; i < 3; i++)
        expect((await limited.client().submit('/dashboard/password/forgot', '/dashboard/password/forgot', { email })).status).toBe(200);
      const refused = await limited.client().submit('/dashboard/password/forgot', '/dashboard/password/forgot', { email });
      expect(refused.status).toBe(429);
      expect(textOf(refused.text)).toContain('Too many requests. Try again in');
      const stranger = uniqueEmail('nobody');
      for (let i = 0; i < 3; i++)
        await limited.client().submit('/dashboard/password/forgot', '/dashboard/password/forgot', { email: stranger });
      expect((await limited.client().submit('/dashboard/password/forgot', '/dashboard/password/forgot', { email: stranger })).status).toBe(
        429,
      );
    } finally {
      await limited.close();
    }
  });

  it('refuses a request without its form token', async () => {
    const res = await t.client().post('/dashboard/password/forgot', { email: 'someone@bank.cm' });
    expect(res.status).toBe(403);
  });
});

describe('change from the dashboard', () => {
  it('needs the current password, ends every other session and keeps this one', async () => {
    const client = t.client();
    const { email, accountId } = await signUp(t, client);
    const elsewhere = t.client();
    await elsewhere.submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD });

    const wrong = await client.submit('/dashboard/account', '/dashboard/account/password', {
      current: 'not my password',
      next: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(422);
    expect(textOf(wrong.text)).toContain('The current password is wrong.');
    const weak = await client.submit('/dashboard/account', '/dashboard/account/password', { current: PASSWORD, next: email });
    expect(weak.status).toBe(422);
    expect(textOf(weak.text)).toContain('The password must not be your e-mail address.');
    expect((await elsewhere.get('/dashboard/keys')).status).toBe(200);

    const changed = await client.submit('/dashboard/account', '/dashboard/account/password', { current: PASSWORD, next: NEW_PASSWORD });
    expect(changed.status).toBe(303);
    expect(textOf((await client.get('/dashboard/account')).text)).toContain(
      'Your password is changed, and every other session was logged out.',
    );
    expect((await elsewhere.get('/dashboard/keys')).status).toBe(303);
    expect(await t.db.prisma.dashboardSession.count({ where: { accountId } })).toBe(1);
    expect((await logIn(email, NEW_PASSWORD)).status).toBe(303);
    const mail = await t.mailbox.waitFor(email, /Your Mboa password was changed/);
    expect(mail.text).toContain('every other session was logged out');
  });

  it('retires every reset link asked for before the change: none undoes it or ends this session', async () => {
    const client = t.client();
    const { email, accountId } = await signUp(t, client);
    expect((await askReset(t.client(), email)).status).toBe(200);
    const before = await resetLink(email);
    const changed = await client.submit('/dashboard/account', '/dashboard/account/password', { current: PASSWORD, next: NEW_PASSWORD });
    expect(changed.status).toBe(303);

    const stranger = t.client();
    expect((await stranger.get(pathOf(before))).status).toBe(404);
    const form = await stranger.get('/dashboard/password/forgot');
    const used = await stranger.post('/dashboard/password/reset', {
      _csrf: csrfOf(form.text),
      token: new URL(before).searchParams.get('token')!,
      password: 'the attacker passphrase',
    });
    expect(used.status).toBe(404);
    expect((await client.get('/dashboard/keys')).status).toBe(200);
    expect(await t.db.prisma.dashboardSession.count({ where: { accountId } })).toBe(1);
    expect((await logIn(email, NEW_PASSWORD)).status).toBe(303);
    // A link asked for after the change works as ever.
    expect((await askReset(t.client(), email)).status).toBe(200);
    await expect.poll(async () => (await resetLink(email)) !== before).toBe(true);
    expect((await t.client().get(pathOf(await resetLink(email)))).status).toBe(200);
  });

  it('refuses a change without the session’s CSRF token', async () => {
    const client = t.client();
    const { email } = await signUp(t, client);
    expect((await client.post('/dashboard/account/password', { current: PASSWORD, next: NEW_PASSWORD })).status).toBe(403);
    expect((await logIn(email, PASSWORD)).status).toBe(303);
  });
});
