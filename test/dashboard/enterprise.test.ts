/**
 * Enterprise is sold by annual contract: customers cannot choose it in the dashboard, they
 * ask sales; only an operator moves an account to or from it, with its end date and limits;
 * a customer cannot leave it alone before that date.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changePlan } from '../../server/accounts/plan-changes.js';
import { admin } from '../helpers/admin.js';
import { apiGet, type Client, csrfOf, type DashboardServer, signUp, startDashboardServer, textOf, uniqueEmail } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

function switchTo(client: Client, plan: string) {
  return client.submit('/dashboard/plans', '/dashboard/plans', { plan });
}

async function accountRow(id: string) {
  return t.db.prisma.account.findUniqueOrThrow({ where: { id }, include: { planChanges: true } });
}

describe('customers cannot choose Enterprise', () => {
  it('refuses a dashboard POST that switches to Enterprise (403), changing nothing', async () => {
    for (const plan of ['starter', 'pro'] as const) {
      const client = t.client();
      const { accountId } = await signUp(t, client, { plan });
      const res = await switchTo(client, 'enterprise');
      expect(res.status).toBe(403);
      expect(textOf(res.text)).toContain('Enterprise is sold by annual contract, so it cannot be chosen here: contact sales');
      expect(res.text).toContain('href="/dashboard/contact-sales"');
      const row = await accountRow(accountId);
      expect(row.plan).toBe(plan);
      expect(row.planChanges).toHaveLength(1);
    }
  });

  it('refuses Enterprise at sign-up (422) and offers it only through sales', async () => {
    const form = await t.client().get('/dashboard/signup?plan=enterprise');
    expect(form.text).not.toMatch(/value="enterprise"/);
    expect(form.text).not.toMatch(/<input type="radio"[^>]+checked/);
    expect(form.text).toMatch(/data-plan="enterprise">[\s\S]*?href="\/dashboard\/contact-sales"/);

    const client = t.client();
    const email = uniqueEmail();
    const res = await client.submit('/dashboard/signup', '/dashboard/signup', {
      company: 'Banque Contrat SA',
      email,
      password: 'correct horse battery',
      plan: 'enterprise',
    });
    expect(res.status).toBe(422);
    expect(textOf(res.text)).toContain('Enterprise is sold by annual contract');
    expect(await t.db.prisma.account.findUnique({ where: { email } })).toBeNull();
  });

  it('holds the rule in the account service too, whatever calls it', async () => {
    const { accountId } = await signUp(t, t.client(), { plan: 'pro' });
    await expect(changePlan(t.db.prisma, accountId, 'enterprise')).rejects.toMatchObject({ code: 'contract_required' });
    await expect(changePlan(t.db.prisma, accountId, 'enterprise', new Date(), { by: 'customer' })).rejects.toMatchObject({
      code: 'contract_required',
    });
    expect((await accountRow(accountId)).plan).toBe('pro');
  });
});

describe('contact sales', () => {
  it('records a visitor’s request, which the operator lists with the CLI and marks handled', async () => {
    const company = `Assurances ${uniqueEmail('co').slice(0, 12)}`;
    const client = t.client();
    const res = await client.submit('/dashboard/contact-sales', '/dashboard/contact-sales', {
      company,
      contactName: 'Awa Ndongo',
      email: 'Awa.Ndongo@assur.cm',
      phone: '+237 6 99 00 11 22',
      message: 'Valuation data for 3 cities,\nabout 1 million calls a month.',
    });
    expect(res.status).toBe(201);
    expect(textOf(res.text)).toContain('Our sales team will answer you at awa.ndongo@assur.cm within one business day.');

    const listed = await admin(['sales', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const request = listed.json.requests.find((r: { company: string }) => r.company === company);
    expect(request).toMatchObject({
      contact_name: 'Awa Ndongo',
      email: 'awa.ndongo@assur.cm',
      phone: '+237 6 99 00 11 22',
      message: 'Valuation data for 3 cities,\nabout 1 million calls a month.',
      account_id: null,
      handled_at: null,
    });
    const human = await admin(['sales', 'list']);
    expect(human.stdout).toContain(`${company} — Awa Ndongo <awa.ndongo@assur.cm> +237 6 99 00 11 22`);

    const done = await admin(['sales', 'done', '--id', request.id, '--json']);
    expect(done.code, done.stderr).toBe(0);
    expect(done.json.request.handled_at).not.toBeNull();
    const open = await admin(['sales', 'list', '--json']);
    expect(open.json.requests.some((r: { id: string }) => r.id === request.id)).toBe(false);
    const all = await admin(['sales', 'list', '--all', '--json']);
    expect(all.json.requests.some((r: { id: string }) => r.id === request.id)).toBe(true);
  }, 120_000); // five runs of the CLI, each a process of its own: seconds each on a loaded machine

  it('prints what requesters typed escaped in `sales list`: no line, control character or direction override of theirs', async () => {
    const tag = uniqueEmail('fake').slice(0, 16);
    const client = t.client();
    const fake = `sal_${tag}  2026-01-01 00:00 UTC  open     Fake Bank — Boss <boss@bank.cm>`;
    const res = await client.submit('/dashboard/contact-sales', '/dashboard/contact-sales', {
      company: `Lines ${tag}\u2028${fake}`,
      contactName: 'Awa\u202eamodnN',
      email: 'awa@assur.cm',
      message: `Hello\r\n${fake}\n\nPay at https://evil.example`,
    });
    expect(res.status).toBe(201);
    // A row written before the form refused control characters (or by another tool) is escaped too.
    await t.db.prisma.salesRequest.create({
      data: { id: `sal_${tag}x`, company: `Esc ${tag}\u001b[2J\u0007`, contactName: 'X\rY', email: 'e@x.cm', message: 'a\u0001b\\n' },
    });
    const human = await admin(['sales', 'list']);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.split('\n').filter((l) => l.includes(tag));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of human.stdout.split('\n').filter(Boolean))
      expect(line).toMatch(/^(sal_\S+ {2}\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}| {4}message: )/);
    // eslint-disable-next-line no-control-regex
    expect(human.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u2028\u202e]/);
    expect(human.stdout).toContain(`Lines ${tag}\\u{2028}sal_${tag}`);
    expect(human.stdout).toContain('Awa\\u{202e}amodnN');
    expect(human.stdout).toContain(`    message: Hello\\n${fake}\\n\\nPay at https://evil.example`);
    expect(human.stdout).toContain(`Esc ${tag}\\u{001b}[2J\\u{0007} — X\\rY`);
    expect(human.stdout).toContain('    message: a\\u{0001}b\\\\n');
    await t.db.prisma.salesRequest.updateMany({ where: { company: { contains: tag } }, data: { handledAt: new Date() } });
  });

  it('links a logged-in customer’s request to the account, prefilled from it', async () => {
    const client = t.client();
    const { accountId, email } = await signUp(t, client, { plan: 'pro', company: 'Fintech Wouri SARL' });
    const form = await client.get('/dashboard/contact-sales');
    expect(form.text).toContain('value="Fintech Wouri SARL"');
    expect(form.text).toContain(`value="${email}"`);
    const res = await client.post('/dashboard/contact-sales', {
      _csrf: csrfOf(form.text),
      company: 'Fintech Wouri SARL',
      contactName: 'Paul Biya Jr',
      email,
      message: 'Moving to Enterprise for the bulk export.',
    });
    expect(res.status).toBe(201);
    const rows = await t.db.prisma.salesRequest.findMany({ where: { accountId } });
    expect(rows.map((r) => r.message)).toEqual(['Moving to Enterprise for the bulk export.']);
  });

  it('lists every problem of a bad request at once, and refuses a form without its token', async () => {
    const client = t.client();
    const bad = await client.submit('/dashboard/contact-sales', '/dashboard/contact-sales', {
      company: '',
      contactName: '',
      email: 'nope',
      phone: 'call me',
      message: 'x'.repeat(2001),
    });
    expect(bad.status).toBe(422);
    const text = textOf(bad.text);
    for (const message of [
      'Enter your company name',
      'Enter your name',
      'Enter a valid e-mail address',
      'Enter a phone number',
      'Tell us your needs in 1 to 2,000 characters.',
    ]) {
      expect(text).toContain(message);
    }
    const before = await t.db.prisma.salesRequest.count();
    const forged = await t.client().post('/dashboard/contact-sales', { company: 'X', contactName: 'Y', email: 'x@y.cm', message: 'z' });
    expect(forged.status).toBe(403);
    expect(await t.db.prisma.salesRequest.count()).toBe(before);
  });

  it('limits requests per client IP', async () => {
    const limited = await startDashboardServer();
    try {
      const send = () =>
        limited.client().submit('/dashboard/contact-sales', '/dashboard/contact-sales', {
          company: 'Spam SARL',
          contactName: 'Bot',
          email: 'bot@spam.example',
          message: 'Buy now',
        });
      for (let i = 0; i < 5; i++) expect((await send()).status).toBe(201);
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(textOf(refused.text)).toContain('Too many requests from your network.');
    } finally {
      await limited.close();
    }
  });
});

describe('the operator moves accounts to and from Enterprise', () => {
  it('sets the contract’s end date and limits; the customer cannot leave before it, and can after', async () => {
    const client = t.client();
    const { email, key, accountId } = await signUp(t, client, { plan: 'starter' });

    const missing = await admin(['plans', 'set', '--email', email, '--plan', 'enterprise']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--contract-end YYYY-MM-DD is required with --plan enterprise');

    const end = day(200);
    const set = await admin([
      'plans',
      'set',
      '--email',
      email,
      '--plan',
      'enterprise',
      '--contract-end',
      end,
      '--monthly-quota',
      '2000000',
      '--rate-limit',
      '1200',
      '--json',
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.json.account).toMatchObject({
      plan: 'enterprise',
      contract_end: end,
      monthly_quota: 2_000_000,
      rate_limit_per_minute: 1200,
    });
    const ping = await apiGet(t.baseUrl, '/api/v1/ping', key);
    expect(ping.body.meta.quota).toMatchObject({ plan: 'enterprise', limit: 2_000_000 });

    // The dashboard says until when, and offers no switch.
    const page = await client.get('/dashboard/plans');
    expect(textOf(page.text)).toMatch(/Your Enterprise contract runs until \d+ \w+ \d{4} included/);
    expect(page.text).not.toContain('name="plan"');
    const refused = await switchTo(client, 'starter');
    expect(refused.status).toBe(403);
    expect(textOf(refused.text)).toContain('Your Enterprise contract is still running');
    expect((await accountRow(accountId)).plan).toBe('enterprise');

    // Renewal by the operator: a new end date, limits kept.
    const renewed = await admin(['plans', 'set', '--email', email, '--plan', 'enterprise', '--contract-end', day(400), '--json']);
    expect(renewed.json.account).toMatchObject({ contract_end: day(400), monthly_quota: 2_000_000, rate_limit_per_minute: 1200 });
    expect((await accountRow(accountId)).planChanges.map((c) => c.plan)).toEqual(['starter', 'enterprise']);

    // Once the contract's last day is over, the customer may leave alone; its limits go with it.
    const yesterday = new Date(`${day(-1)}T00:00:00Z`);
    await t.db.prisma.account.update({ where: { id: accountId }, data: { contractEnd: yesterday } });
    const ended = await client.get('/dashboard/plans');
    expect(textOf(ended.text)).toMatch(/Your Enterprise contract ended on \d+ \w+ \d{4}: switch to Starter or Pro yourself/);
    expect(ended.text).toContain('name="plan" value="pro"');
    expect(ended.text).not.toContain('name="plan" value="enterprise"');
    expect((await switchTo(client, 'pro')).status).toBe(303);
    const after = await accountRow(accountId);
    expect(after).toMatchObject({ plan: 'pro', contractEnd: null, monthlyQuotaOverride: null, rateLimitOverride: null });
    expect((await apiGet(t.baseUrl, '/api/v1/ping', key)).body.meta.quota).toMatchObject({ plan: 'pro', limit: 100_000 });
  });

  it('the last day of the contract is still under contract', async () => {
    const { accountId } = await signUp(t, t.client(), { plan: 'pro' });
    const today = new Date(`${day(0)}T00:00:00Z`);
    await changePlan(t.db.prisma, accountId, 'enterprise', new Date(), { by: 'operator', contract: { contractEnd: today } });
    await expect(changePlan(t.db.prisma, accountId, 'pro')).rejects.toMatchObject({ code: 'contract_in_force' });
    const tomorrow = new Date(today.getTime() + 86_400_000);
    await expect(changePlan(t.db.prisma, accountId, 'pro', tomorrow)).resolves.toMatchObject({ plan: 'pro' });
  });

  it('moves an account off Enterprise before the end date, clearing the contract', async () => {
    const { email, accountId } = await signUp(t, t.client(), { plan: 'pro' });
    expect(
      (await admin(['plans', 'set', '--email', email, '--plan', 'enterprise', '--contract-end', day(30), '--monthly-quota', '500000']))
        .code,
    ).toBe(0);
    const down = await admin(['plans', 'set', '--email', email, '--plan', 'pro', '--json']);
    expect(down.code, down.stderr).toBe(0);
    expect(down.json.account).toMatchObject({ plan: 'pro', contract_end: null, monthly_quota: 100_000 });
    expect((await accountRow(accountId)).monthlyQuotaOverride).toBeNull();
  });

  it.each([
    [['--plan', 'pro', '--monthly-quota', '5000'], /go with --plan enterprise only/],
    [['--plan', 'starter', '--contract-end', '2030-01-01'], /go with --plan enterprise only/],
    [['--plan', 'enterprise', '--contract-end', '2020-01-01'], /--contract-end 2020-01-01 is already past/],
    [['--plan', 'enterprise', '--contract-end', '2030-02-30'], /--contract-end must be a date written YYYY-MM-DD/],
    [['--plan', 'enterprise', '--contract-end', 'next year'], /--contract-end must be a date written YYYY-MM-DD/],
  ] as Array<[string[], RegExp]>)('refuses bad contract terms: %j', async (args, message) => {
    const res = await admin(['plans', 'set', '--email', 'nobody@test.mboa.cm', ...args]);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(message);
  });
});
