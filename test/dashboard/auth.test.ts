/**
 * Sign-up, log-in, log-out, sessions and CSRF, over real HTTP against the real database.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  uniqueEmail,
} from './helpers.js';
import { itWhen } from '../helpers/requires.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

function cookieLine(page: { setCookies: string[] }, name: string): string | undefined {
  return page.setCookies.find((c) => c.startsWith(`${name}=`));
}

async function signupForm(client: Client) {
  const page = await client.get('/dashboard/signup');
  return csrfOf(page.text);
}

describe('sign-up', () => {
  it('opens the account on the chosen plan, logs in, and shows the first key once', async () => {
    const client = t.client();
    const { email, key, accountId, page } = await signUp(t, client, { plan: 'pro', company: 'Société Générale Cameroun', verify: false });
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(textOf(page.text)).toContain('Your account is open on the Pro plan');
    // No session until the address is confirmed: its link opens the account in this browser.
    expect(cookieLine(page, 'mboa_session')).toBeUndefined();
    const confirmed = await confirmAddress(t, client, email);

    const account = await t.db.prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      include: { planChanges: true, apiKeys: true },
    });
    expect(account).toMatchObject({ email, companyName: 'Société Générale Cameroun', plan: 'pro' });
    expect(account.passwordHash).toMatch(/^\$scrypt\$/);
    expect(account.planChanges.map((c) => c.plan)).toEqual(['pro']);
    expect(account.apiKeys).toHaveLength(1);
    expect(account.apiKeys[0].name).toBe('Main key');

    // The session cookie: httpOnly, SameSite=Lax, scoped to the dashboard; only its hash is stored.
    const line = cookieLine(confirmed, 'mboa_session')!;
    expect(line).toMatch(/HttpOnly/);
    expect(line).toMatch(/SameSite=Lax/);
    expect(line).toMatch(/Path=\/dashboard/);
    expect(line).toMatch(/Max-Age=604800/);
    expect(line).not.toMatch(/Secure/); // plain http here
    const token = client.cookies.get('mboa_session')!;
    const sessions = await t.db.prisma.dashboardSession.findMany({ where: { accountId } });
    expect(sessions.map((s) => s.id)).toEqual([createHash('sha256').update(token).digest('hex')]);
    expect(sessions[0].expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    // The key works at once, and is never shown again.
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(200);
    const keys = await client.get('/dashboard/keys');
    expect(keys.text).toContain(key.slice(0, 16));
    expect(keys.text).not.toContain(key);
  });

  it('marks cookies Secure when told the site is served over https', async () => {
    const secure = await startDashboardServer({ secureCookies: true });
    try {
      const page = await secure.client().get('/dashboard/signup');
      expect(cookieLine(page, 'mboa_form')).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it('refuses a weak password, saying the rule, with the form refilled but not the password', async () => {
    const client = t.client();
    const email = uniqueEmail();
    const page = await client.post('/dashboard/signup', {
      _csrf: await signupForm(client),
      company: 'Proptech & Co <SARL>',
      email,
      password: 'short1',
      plan: 'pro',
    });
    expect(page.status).toBe(422);
    expect(textOf(page.text)).toContain('This password is too short: use at least 10 characters.');
    expect(page.text).toContain(`value="${email}"`);
    expect(page.text).toContain('value="Proptech &amp; Co &lt;SARL&gt;"');
    expect(page.text).toMatch(/<input[^>]+value="pro" checked/);
    expect(page.text).not.toContain('short1');
    expect(await t.db.prisma.account.findUnique({ where: { email } })).toBeNull();
  });

  it('refuses a password equal to the e-mail address', async () => {
    const client = t.client();
    const email = uniqueEmail();
    const page = await client.post('/dashboard/signup', {
      _csrf: await signupForm(client),
      company: 'X',
      email,
      password: email,
      plan: 'starter',
    });
    expect(page.status).toBe(422);
    expect(textOf(page.text)).toContain('The password must not be your e-mail address.');
  });

  it('lists every problem of an empty form at once', async () => {
    const client = t.client();
    const page = await client.post('/dashboard/signup', {
      _csrf: await signupForm(client),
      company: ' ',
      email: 'not-an-email',
      password: '',
    });
    expect(page.status).toBe(422);
    const text = textOf(page.text);
    expect(text).toContain('Enter your company name');
    expect(text).toContain('Enter a valid e-mail address');
    expect(text).toContain('use at least 10 characters');
    expect(text).toContain('Choose Starter or Pro.');
  });

  it('answers a taken address (whatever its case) as a free one, opens nothing, and tells its owner by mail', async () => {
    const first = await signUp(t, t.client());
    const fresh = uniqueEmail();
    const attempt = async (email: string) => {
      const client = t.client();
      const page = await client.post('/dashboard/signup', {
        _csrf: await signupForm(client),
        company: 'Pay at https://evil.example',
        email,
        password: PASSWORD,
        plan: 'starter',
      });
      // What differs by nature: the address typed, the key, the tokens.
      const shape = page.text
        .replaceAll(email.toLowerCase(), 'EMAIL')
        .replace(/mboa_live_[0-9A-Za-z]{32}/g, 'KEY')
        .replace(/value="[A-Za-z0-9_-]{43}"/g, 'value="TOKEN"');
      const cookies = page.setCookies.map((c) => c.replace(/=[^;]*/, '=VALUE')).sort();
      const headers = [...(page.headers as unknown as Map<string, string>).keys()]
        .filter((h) => !['date', 'content-length', 'etag', 'x-request-id'].includes(h))
        .sort();
      // The page after it: no session in either case (an account opens with its link).
      const next = await client.get('/dashboard/');
      return {
        status: page.status,
        shape,
        cookies,
        headers,
        next: [next.status, next.headers.get('location')],
        key: /data-testid="new-key">([^<]+)</.exec(page.text)?.[1],
      };
    };
    const taken = await attempt(first.email.toUpperCase());
    const free = await attempt(fresh);
    expect(taken.status).toBe(201);
    expect(taken.shape).toBe(free.shape);
    expect(taken.cookies).toEqual(free.cookies);
    expect(taken.headers).toEqual(free.headers);
    expect(taken.next).toEqual(free.next);
    expect(free.next[0]).toBe(303);
    expect(free.next[1]).toContain('/dashboard/login');
    expect(textOf(taken.shape)).toContain('One more step: confirm your address with the link we sent to EMAIL.');

    // The owner hears of it (with no text the requester chose); no second account, no
    // confirmation link, and the key shown exists nowhere.
    const mail = await t.mailbox.waitFor(first.email, /A sign-up with your Mboa address/);
    expect(mail.text).toContain('Someone tried to open a new Mboa account with this address, which already has one.');
    expect(`${mail.subject} ${mail.text} ${String(mail.html)}`).not.toContain('evil.example');
    expect(await t.db.prisma.account.count({ where: { email: first.email } })).toBe(1);
    expect(t.mailbox.to(first.email).filter((m) => /Confirm your e-mail address/.test(m.subject ?? ''))).toHaveLength(1);
    await t.mailbox.waitFor(fresh, /Confirm your e-mail address/);
    expect(await t.db.prisma.apiKey.count({ where: { prefix: taken.key!.slice(0, 16) } })).toBe(0);

    // Neither does the key: the API answers both as a new account's key waiting for its
    // address, with the same status, code, headers and body (ids and instants aside).
    const answerOf = async (key: string, path: string) => {
      const res = await fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': key } });
      const body = (await res.json()) as { meta: { request_id: string } };
      const headers: string[] = [];
      res.headers.forEach((v, h) => {
        if (!['date', 'x-request-id'].includes(h)) headers.push(`${h}: ${h === 'content-length' ? 'N' : v}`);
      });
      headers.sort();
      return { status: res.status, headers, body: JSON.stringify({ ...body, meta: { ...body.meta, request_id: 'ID' } }) };
    };
    for (const path of ['/api/v1/ping', '/api/v1/listings?limit=1']) {
      const [a, b] = [await answerOf(taken.key!, path), await answerOf(free.key!, path)];
      expect(a.status).toBe(403);
      expect(a.body).toContain('"code":"email_unverified"');
      expect(a).toEqual(b);
    }
  });

  it('answers a sign-up no sooner than its floor, taken address or free', async () => {
    const { email } = await signUp(t, t.client());
    const timed = async (address: string) => {
      const client = t.client();
      const form = { _csrf: await signupForm(client), company: 'Timing SA', email: address, password: PASSWORD, plan: 'starter' };
      const started = performance.now();
      const page = await client.post('/dashboard/signup', form);
      expect(page.status).toBe(201);
      return performance.now() - started;
    };
    // The account's rows are written for a free address only: the floor (400 ms from the
    // password's arrival) covers them, so neither answer comes sooner.
    for (const ms of [await timed(email), await timed(uniqueEmail()), await timed(email), await timed(uniqueEmail())]) {
      expect(ms).toBeGreaterThanOrEqual(400);
    }
  });

  it('opens one account per mailbox: variants of a taken address are refused', async () => {
    const { email } = await signUp(t, t.client());
    const variants = [`${email},`, `${email};`, `${email}>`, `${email}.`, `"x"${email}`, `n<${email}>`, `${email},,`];
    for (const variant of variants) {
      const client = t.client();
      const page = await client.post('/dashboard/signup', {
        _csrf: await signupForm(client),
        company: 'Variant',
        email: variant,
        password: PASSWORD,
        plan: 'starter',
      });
      expect(page.status, variant).toBe(422);
      expect(textOf(page.text), variant).toContain('Enter a valid e-mail address');
    }
    const rows = await t.db.pool.query('SELECT email FROM accounts WHERE position($1 in email) > 0', [email.split('@')[0]]);
    expect(rows.rows).toEqual([{ email }]);
  });

  it('refuses a sign-up without its CSRF cookie or token (403), then accepts the refreshed form', async () => {
    const client = t.client();
    const fields = { company: 'CSRF SA', email: uniqueEmail(), password: PASSWORD, plan: 'starter' };
    const noToken = await client.post('/dashboard/signup', fields);
    expect(noToken.status).toBe(403);
    expect(textOf(noToken.text)).toContain('This form had expired, so nothing was done.');
    const wrong = await client.post('/dashboard/signup', { ...fields, _csrf: 'forged' });
    expect(wrong.status).toBe(403);
    // A token without its signed cookie (another browser's) is refused too.
    const stranger = t.client();
    const stolen = csrfOf((await stranger.get('/dashboard/signup')).text);
    const fresh = t.client();
    expect((await fresh.post('/dashboard/signup', { ...fields, _csrf: stolen })).status).toBe(403);
    expect(await t.db.prisma.account.findUnique({ where: { email: fields.email } })).toBeNull();
    // The 403 page carries a fresh form: submitting it works.
    const retry = await client.post('/dashboard/signup', { ...fields, _csrf: csrfOf(wrong.text) });
    expect(retry.status).toBe(201);
  });
});

describe('log-in and log-out', () => {
  it('logs in with the right password and goes where it was asked', async () => {
    const { email } = await signUp(t, t.client());
    const client = t.client();
    const protectedPage = await client.get('/dashboard/keys');
    expect(protectedPage.status).toBe(303);
    expect(protectedPage.location).toBe('/dashboard/login?next=%2Fkeys');
    const form = await client.get(protectedPage.location!);
    expect(textOf(form.text)).toContain('Log in to continue.');
    const res = await client.post('/dashboard/login', {
      _csrf: csrfOf(form.text),
      email: ` ${email.toUpperCase()} `,
      password: PASSWORD,
      next: '/keys',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/keys');
    expect(cookieLine(res, 'mboa_session')).toMatch(/HttpOnly; SameSite=Lax/);
    expect((await client.get('/dashboard/keys')).status).toBe(200);
  });

  it('never redirects outside the dashboard after log-in', async () => {
    const { email } = await signUp(t, t.client());
    for (const next of ['//evil.example', 'https://evil.example', '/\\evil.example', '/keys/../../x//y']) {
      const client = t.client();
      const res = await client.submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD, next });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/dashboard/');
    }
  });

  it('gives the same answer for a wrong password and an unknown e-mail, without saying which', async () => {
    const { email } = await signUp(t, t.client());
    const wrongPassword = await t.client().submit('/dashboard/login', '/dashboard/login', { email, password: 'wrong password!' });
    const unknownEmail = await t.client().submit('/dashboard/login', '/dashboard/login', { email: uniqueEmail(), password: PASSWORD });
    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.status).toBe(422);
      expect(textOf(res.text)).toContain('Wrong e-mail or password, or an address not confirmed yet. Check both and try again;');
      expect(res.text).not.toContain('wrong password!');
      expect(cookieLine(res, 'mboa_session')).toBeUndefined();
    }
    expect(wrongPassword.text).toContain(`value="${email}"`);
  });

  it('refuses a log-in form without a valid CSRF token (403)', async () => {
    const { email } = await signUp(t, t.client());
    const client = t.client();
    await client.get('/dashboard/login');
    const res = await client.post('/dashboard/login', { _csrf: 'wrong', email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(cookieLine(res, 'mboa_session')).toBeUndefined();
  });

  it('logs out: the session row is deleted and the old cookie no longer opens anything', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client);
    const token = client.cookies.get('mboa_session')!;
    expect((await client.post('/dashboard/logout', {})).status).toBe(403); // no CSRF token: still logged in
    expect((await client.get('/dashboard/')).status).toBe(200);

    const res = await client.submit('/dashboard/', '/dashboard/logout', {});
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/login');
    expect(cookieLine(res, 'mboa_session')).toMatch(/Max-Age=0/);
    expect(await t.db.prisma.dashboardSession.count({ where: { accountId } })).toBe(0);
    expect(textOf((await client.get('/dashboard/login')).text)).toContain('You are logged out.');

    const replay = await t.client().get('/dashboard/', { cookie: `mboa_session=${token}` });
    expect(replay.status).toBe(303);
    expect(replay.location).toMatch(/^\/dashboard\/login/);
  });

  it('ends a session at its expiry', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client);
    await t.db.prisma.dashboardSession.updateMany({ where: { accountId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await client.get('/dashboard/');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/login');
  });
});

describe('log-in attempts are rate limited', () => {
  it('per e-mail: after 3 failures even the right password waits, with a clear message and Retry-After', async () => {
    const limited = await startDashboardServer({ loginLimits: { perEmail: 3, perIp: 1000, windowSeconds: 120 } });
    try {
      const { email } = await signUp(limited, limited.client());
      const client = limited.client();
      for (let i = 0; i < 3; i++) {
        expect((await client.submit('/dashboard/login', '/dashboard/login', { email, password: `guess number ${i}` })).status).toBe(422);
      }
      const blocked = await client.submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(60);
      expect(textOf(blocked.text)).toContain('Too many failed log-in attempts. For your security, try again in 2 min.');
      expect(cookieLine(blocked, 'mboa_session')).toBeUndefined();
      // Another address from the same place is not affected.
      const other = await signUp(limited, limited.client());
      expect(
        (await limited.client().submit('/dashboard/login', '/dashboard/login', { email: other.email, password: PASSWORD })).status,
      ).toBe(303);
    } finally {
      await limited.close();
    }
  });

  it('per IP: many addresses tried from one place are stopped too', async () => {
    const limited = await startDashboardServer({ loginLimits: { perEmail: 1000, perIp: 4, windowSeconds: 60 } });
    try {
      const client = limited.client();
      for (let i = 0; i < 4; i++) {
        expect((await client.submit('/dashboard/login', '/dashboard/login', { email: uniqueEmail(), password: PASSWORD })).status).toBe(
          422,
        );
      }
      const blocked = await client.submit('/dashboard/login', '/dashboard/login', { email: uniqueEmail(), password: PASSWORD });
      expect(blocked.status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('a success clears the e-mail’s count', async () => {
    const limited = await startDashboardServer({ loginLimits: { perEmail: 3, perIp: 1000, windowSeconds: 60 } });
    try {
      const { email } = await signUp(limited, limited.client());
      const client = limited.client();
      for (const password of ['nope nope 1', 'nope nope 2', PASSWORD, 'nope nope 3', 'nope nope 4']) {
        await client.submit('/dashboard/login', '/dashboard/login', { email, password });
        client.cookies.delete('mboa_session');
      }
      expect((await client.submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD })).status).toBe(303);
    } finally {
      await limited.close();
    }
  });

  itWhen(Boolean(process.env.REDIS_URL), 'Redis (REDIS_URL)')('is shared by every server instance through Redis', async () => {
    const limits = { perEmail: 2, perIp: 100_000, windowSeconds: 60 };
    const limitPrefix = uniqueEmail('shared');
    const a = await startDashboardServer({ redis: true, loginLimits: limits, limitPrefix });
    const b = await startDashboardServer({ redis: true, loginLimits: limits, limitPrefix });
    try {
      const { email } = await signUp(a, a.client());
      expect((await a.client().submit('/dashboard/login', '/dashboard/login', { email, password: 'wrong one 1' })).status).toBe(422);
      expect((await b.client().submit('/dashboard/login', '/dashboard/login', { email, password: 'wrong one 2' })).status).toBe(422);
      expect((await a.client().submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD })).status).toBe(429);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
