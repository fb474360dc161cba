/**
 * Closing an account from the dashboard: keys revoked at once, log-in refused afterwards,
 * only what invoices require kept (and the page says so), the month charged to that day.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyStatements } from '../../server/accounts/billing.js';
import { createKey } from '../../server/accounts/keys.js';
import { admin } from '../helpers/admin.js';
import { apiGet, csrfOf, type DashboardServer, PASSWORD, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

describe('closing an account', () => {
  it('states what is kept and for how long, in both languages', async () => {
    const client = t.client();
    await signUp(t, client);
    const page = textOf((await client.get('/dashboard/account')).text);
    expect(page).toContain('Closing is immediate and final: every API key is revoked at once, and logging in is no longer possible.');
    expect(page).toContain(
      'We keep your invoices and what they state (company, e-mail, plans and amounts) for 10 years, as accounting law (OHADA) requires',
    );
    const fr = textOf((await client.get('/dashboard/account', { 'accept-language': 'fr' })).text);
    expect(fr).toContain('Nous conservons vos factures et ce qu’elles mentionnent (entreprise, e-mail, offres et montants) pendant 10 ans');
  });

  it('asks for the password, then revokes every key, ends the session and refuses log-in', async () => {
    const client = t.client();
    const { email, key, accountId } = await signUp(t, client, { plan: 'pro' });
    const second = (await createKey(t.db.prisma, accountId, 'Batch')).key;
    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);
    await t.flushUsage();
    expect(await t.db.prisma.dailyUsage.count({ where: { accountId } })).toBeGreaterThan(0);

    const wrong = await client.submit('/dashboard/account', '/dashboard/account/close', { closePassword: 'not the password' });
    expect(wrong.status).toBe(422);
    expect(textOf(wrong.text)).toContain('Wrong password: the account is not closed.');
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).status).toBe(200);

    const closed = await client.submit('/dashboard/account', '/dashboard/account/close', { closePassword: PASSWORD });
    expect(closed.status).toBe(200);
    expect(textOf(closed.text)).toContain(
      `Every API key was revoked and you are logged out. We keep your invoices for 10 years, as the law requires; everything else is deleted. A confirmation was sent to ${email}.`,
    );
    expect(closed.setCookies.find((c) => c.startsWith('mboa_session='))).toMatch(/Max-Age=0/);

    for (const k of [key, second]) {
      const res = await apiGet(t.baseUrl, '/api/v1/ping', k);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('invalid_api_key');
    }
    expect((await client.get('/dashboard/')).status).toBe(303);
    const login = await t.client().submit('/dashboard/login', '/dashboard/login', { email, password: PASSWORD });
    expect(login.status).toBe(422);
    expect(textOf(login.text)).toContain('Wrong e-mail or password,');

    // Kept: the account row (for its invoices) and its plan history; the rest is gone.
    const row = await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(row).toMatchObject({ email, passwordHash: null });
    expect(row.closedAt).not.toBeNull();
    expect(await t.db.prisma.planChange.count({ where: { accountId } })).toBe(1);
    for (const count of [
      t.db.prisma.dashboardSession.count({ where: { accountId } }),
      t.db.prisma.dailyUsage.count({ where: { accountId } }),
      t.db.prisma.monthlyUsage.count({ where: { accountId } }),
      t.db.prisma.emailToken.count({ where: { accountId } }),
      t.db.prisma.apiKey.count({ where: { accountId, revokedAt: null } }),
    ]) {
      expect(await count).toBe(0);
    }
    const mail = await t.mailbox.waitFor(email, /Your Mboa account is closed/);
    expect(mail.text).toContain('We keep your invoices and what they state (company, address, plans and amounts) for 10 years');

    // Nothing reopens it by the back door.
    const confirmations = () => t.mailbox.to(email).filter((m) => /Confirm your e-mail address/.test(m.subject ?? '')).length;
    const confirmationsBefore = confirmations();
    const signup = await t
      .client()
      .submit('/dashboard/signup', '/dashboard/signup', { company: 'Again', email, password: PASSWORD, plan: 'starter' });
    // Answered as any sign-up (nothing tells a closed address from a free one); nothing is
    // opened, and the address is told by mail.
    expect(signup.status).toBe(201);
    expect(textOf(signup.text)).toContain(`One more step: confirm your address with the link we sent to ${email}.`);
    const attempt = await t.mailbox.waitFor(email, /A sign-up with your Mboa address/);
    expect(attempt.text).toContain('whose account was closed. No account was opened');
    // Nor in a variant of the address: each is refused as no address at all.
    for (const variant of [
      `${email},`,
      `${email};`,
      `${email},,`,
      `${email}.`,
      `${email}>`,
      `"x"${email}`,
      `n<${email}>`,
      `${email.toUpperCase()} `,
    ]) {
      const again = await t
        .client()
        .submit('/dashboard/signup', '/dashboard/signup', { company: 'Again', email: variant, password: PASSWORD, plan: 'starter' });
      if (variant.trim() === email.toUpperCase()) expect(again.status, variant).toBe(201);
      else expect([again.status, textOf(again.text).includes('Enter a valid e-mail address')], variant).toEqual([422, true]);
    }
    const rows = await t.db.pool.query('SELECT email, closed_at FROM accounts WHERE email LIKE $1', [`%${email.split('@')[0]}%`]);
    expect(rows.rows).toHaveLength(1);
    expect(rows.rows[0].closed_at).not.toBeNull();
    expect(confirmations()).toBe(confirmationsBefore);
    const byOperator = await admin(['keys', 'create', '--email', email, '--json']);
    expect(byOperator.code).toBe(1);
    expect(byOperator.json).toMatchObject({ error: 'account_closed' });
    const reset = await t.client().submit('/dashboard/password/forgot', '/dashboard/password/forgot', { email });
    expect(reset.status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(t.mailbox.to(email).filter((m) => /password/i.test(m.subject ?? ''))).toHaveLength(0);
  });

  it('refuses to close an Enterprise account under contract from the dashboard', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'enterprise' });
    const page = await client.get('/dashboard/account');
    expect(textOf(page.text)).toContain('An Enterprise account under contract is closed through your account manager');
    expect(page.text).not.toContain('action="/dashboard/account/close"');
    const forced = await client.post('/dashboard/account/close', { _csrf: csrfOf(page.text), closePassword: PASSWORD });
    expect(forced.status).toBe(403);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).closedAt).toBeNull();
  });

  it('refuses a closure without the session’s CSRF token', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client);
    expect((await client.post('/dashboard/account/close', { closePassword: PASSWORD })).status).toBe(403);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).closedAt).toBeNull();
  });
});

describe('billing a closed account', () => {
  it('charges the closing month up to the closing day, included, and nothing after', () => {
    const history = [{ plan: 'pro' as const, changedAt: new Date('2026-03-01T00:00:00Z') }];
    const closedAt = new Date('2026-04-10T15:00:00Z');
    const statements = monthlyStatements(history, new Date('2026-06-02T00:00:00Z'), closedAt);
    expect(statements.map((s) => s.month)).toEqual(['2026-04', '2026-03']);
    expect(statements[0].lines).toEqual([
      { plan: 'pro', from: '2026-04-01', to: '2026-04-10', days: 10, monthlyPriceXaf: 250_000, amountXaf: 83_333 },
    ]);
    expect(statements[1].totalXaf).toBe(250_000);
  });
});
