/**
 * Plans: the specification's table rendered from contract/plans.ts; changing plan with
 * immediate effect and the month's usage kept; a downgrade refused while too many keys
 * are active, naming them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_NAMES, PLANS } from '../../contract/plans.js';
import { apiGet, type Client, csrfOf, type DashboardServer, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

function switchTo(client: Client, plan: string) {
  return client.submit('/dashboard/plans', '/dashboard/plans', { plan });
}

/** The text of one plan's card on a page. */
function card(html: string, plan: string): string {
  const start = html.indexOf(`data-plan="${plan}"`);
  const end = html.indexOf('</section>', start);
  return textOf(html.slice(start, end));
}

describe('the plans table', () => {
  it('shows the three plans as the specification states them, to visitors too', async () => {
    const page = await t.client().get('/dashboard/plans');
    expect(page.status).toBe(200);
    expect(card(page.text, 'starter')).toContain(
      'Price per month 50,000 FCFA Monthly quota (calls) 10,000 Rate limit 30 per minute API keys 1 Endpoints ping , listings , listings/{id} , market/stats Support e-mail Usage analytics — Not included',
    );
    expect(card(page.text, 'pro')).toContain(
      'Price per month 250,000 FCFA Monthly quota (calls) 100,000 Rate limit 300 per minute API keys 5 Endpoints ping , listings , listings/{id} , market/stats , market/trends , market/history , saved-searches , webhook-endpoints Support priority, response under 24 h Usage analytics ✓ Included Saved searches and webhooks up to 25 saved searches, 3 webhook endpoints',
    );
    expect(card(page.text, 'starter')).toContain('Saved searches and webhooks — Not included');
    expect(card(page.text, 'enterprise')).toContain('Saved searches and webhooks up to 1,000 saved searches, 20 webhook endpoints');
    expect(card(page.text, 'enterprise')).toContain(
      'Price per month 1,000,000 FCFA Monthly quota (calls) unlimited Rate limit unlimited API keys unlimited Endpoints all of /api/v1/*, custom endpoints on request Support dedicated, response under 4 h; 99.9% SLA with on-call; annual contract',
    );
    for (const plan of ['starter', 'pro']) expect(page.text).toContain(`href="/dashboard/signup?plan=${plan}"`);
    // Enterprise is sold by contract: its card asks sales, it never signs up or switches.
    expect(page.text).not.toContain('href="/dashboard/signup?plan=enterprise"');
    expect(card(page.text, 'enterprise')).toContain('Contact sales');
    expect(page.text).toMatch(/data-plan="enterprise">[\s\S]*?href="\/dashboard\/contact-sales"/);
  });

  it('follows contract/plans.ts, in French too', async () => {
    const page = await t.client().get('/dashboard/plans', { 'accept-language': 'fr-CM,fr;q=0.9' });
    expect(page.text).toContain('<html lang="fr">');
    for (const plan of PLAN_NAMES) {
      const price = new Intl.NumberFormat('fr-FR').format(PLANS[plan].priceXafPerMonth).replace(/\s/g, ' ');
      expect(card(page.text, plan)).toContain(`Prix par mois ${price} FCFA`);
    }
    expect(card(page.text, 'pro')).toContain('Limite de débit 300 par minute');
    expect(card(page.text, 'pro')).toContain('Support prioritaire, réponse sous 24 h');
    expect(card(page.text, 'enterprise')).toContain('tout /api/v1/*, endpoints sur mesure à la demande');
  });

  it('preselects the plan a visitor chose', async () => {
    const page = await t.client().get('/dashboard/signup?plan=pro');
    expect(page.text).toMatch(/<input type="radio" name="plan" value="pro" checked/);
  });
});

describe('changing plan', () => {
  it('upgrades at once, keeping the month’s count, and records the change', async () => {
    const client = t.client();
    const { key, accountId } = await signUp(t, client, { plan: 'starter' });
    for (let i = 0; i < 3; i++) expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key)).status).toBe(200);
    expect((await apiGet(t.baseUrl, '/api/v1/market/trends', key)).status).toBe(403);

    const res = await switchTo(client, 'pro');
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/plans');
    const page = await client.get('/dashboard/plans');
    expect(textOf(page.text)).toContain(
      'You are now on the Pro plan. Quota and rate limit changed at once; the 3 calls used this month are kept.',
    );
    expect(card(page.text, 'pro')).toContain('Your current plan');

    const changes = await t.db.prisma.planChange.findMany({ where: { accountId }, orderBy: { changedAt: 'asc' } });
    expect(changes.map((c) => c.plan)).toEqual(['starter', 'pro']);
    const trends = await apiGet(t.baseUrl, '/api/v1/market/trends', key);
    expect(trends.status).toBe(200);
    expect(trends.body.meta.quota).toMatchObject({ plan: 'pro', used: 4, limit: 100_000, remaining: 99_996 });
  });

  it('downgrades when the keys fit', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    expect((await switchTo(client, 'starter')).status).toBe(303);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe('starter');
  });

  it('refuses a downgrade that would leave too many active keys, naming them, and lets the customer revoke from there', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    for (const name of ['Batch job', 'Notebook']) await client.submit('/dashboard/keys', '/dashboard/keys', { name });
    const keys = await t.db.prisma.apiKey.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } });

    const refused = await switchTo(client, 'starter');
    expect(refused.status).toBe(409);
    const text = textOf(refused.text);
    expect(text).toContain('The Starter plan allows 1 active key and you have 3. Revoke 2 of these keys first, then switch:');
    for (const k of keys) {
      expect(refused.text).toContain(`${k.prefix}…`);
      expect(refused.text).toContain(`action="/dashboard/keys/${k.id}/revoke"`);
    }
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe('pro');

    // Revoke two from the refusal's own forms: back to the plans page each time.
    for (const k of keys.slice(1)) {
      const res = await client.post(`/dashboard/keys/${k.id}/revoke`, { _csrf: csrfOf(refused.text), back: '/plans' });
      expect(res.status).toBe(303);
      expect(res.location).toBe('/dashboard/plans');
    }
    expect((await switchTo(client, 'starter')).status).toBe(303);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe('starter');
  });

  it('answers an unknown plan with 422 and the same plan with a notice', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    const unknown = await switchTo(client, 'platinum');
    expect(unknown.status).toBe(422);
    expect(textOf(unknown.text)).toContain('Choose Starter or Pro.');
    const same = await switchTo(client, 'pro');
    expect(same.status).toBe(303);
    expect(textOf((await client.get('/dashboard/plans')).text)).toContain('You are already on the Pro plan.');
    expect(await t.db.prisma.planChange.count({ where: { accountId } })).toBe(1);
  });

  it('refuses a plan change without the session’s CSRF token (403)', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'starter' });
    expect((await client.post('/dashboard/plans', { plan: 'enterprise' })).status).toBe(403);
    expect((await client.post('/dashboard/plans', { plan: 'enterprise', _csrf: 'x'.repeat(43) })).status).toBe(403);
    // Another session's token is not this session's.
    const other = t.client();
    await signUp(t, other, { plan: 'starter' });
    const foreign = csrfOf((await other.get('/dashboard/plans')).text);
    expect((await client.post('/dashboard/plans', { plan: 'enterprise', _csrf: foreign })).status).toBe(403);
    expect((await t.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).plan).toBe('starter');
  });
});

describe('CSRF on every form of a session', () => {
  it('refuses key creation, revocation and rotation without the token (403), changing nothing', async () => {
    const client = t.client();
    const { accountId } = await signUp(t, client, { plan: 'pro' });
    const key = await t.db.prisma.apiKey.findFirstOrThrow({ where: { accountId } });
    for (const [path, form] of [
      ['/dashboard/keys', { name: 'Sneaky' }],
      [`/dashboard/keys/${key.id}/revoke`, {}],
      [`/dashboard/keys/${key.id}/rotate`, {}],
      ['/dashboard/logout', {}],
    ] as const) {
      const missing = await client.post(path, form);
      expect(missing.status, path).toBe(403);
      expect(textOf(missing.text)).toContain('This form has expired or did not come from this page, so nothing was done.');
      expect((await client.post(path, { ...form, _csrf: 'wrong' })).status, path).toBe(403);
    }
    expect(await t.db.prisma.apiKey.findMany({ where: { accountId } })).toEqual([key]);
    expect((await client.get('/dashboard/')).status).toBe(200);
  });
});
