/**
 * What every page shares: French and English everywhere, the language remembered, HTML
 * escaped, security headers, assets, and a page (never a stack trace) for anything wrong.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MessageKey, messageKeys, t as translate } from '../../server/dashboard/i18n.js';
import { isLang } from '../../server/platform/lang.js';
import { apiGet, type DashboardServer, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
beforeAll(async () => {
  t = await startDashboardServer();
});
afterAll(() => t.close());

const PAGES = [
  '/dashboard/',
  '/dashboard/keys',
  '/dashboard/usage',
  '/dashboard/plans',
  '/dashboard/billing',
  '/dashboard/account',
  '/dashboard/contact-sales',
];
const PUBLIC_PAGES = [
  '/dashboard/signup',
  '/dashboard/login',
  '/dashboard/plans',
  '/dashboard/nowhere',
  '/dashboard/password/forgot',
  '/dashboard/contact-sales',
];

describe('two languages', () => {
  it('has every message in French and English, with the same parameters', () => {
    const sample = {
      ...Object.fromEntries(
        [
          'company',
          'name',
          'id',
          'plan',
          'prefix',
          'date',
          'day',
          'month',
          'from',
          'to',
          'amount',
          'price',
          'email',
          'number',
          // The market explorer's.
          'key',
          'city',
          'neighborhood',
          'value',
          'low',
          'high',
          'confidence',
          // The webhooks page's.
          'url',
          'reason',
        ].map((k) => [k, k.toUpperCase()]),
      ),
      ...Object.fromEntries(
        [
          'n',
          'used',
          'active',
          'max',
          'excess',
          'min',
          'minutes',
          'quota',
          'rate',
          'pct',
          'limit',
          'seconds',
          'years',
          'answered',
          'failed',
          // The market explorer's.
          'points',
          'total',
          'shown',
          'returned',
          'months',
          'absent',
          'level',
          // The plans page's saved searches and webhook endpoints.
          'searches',
          'endpoints',
          // The webhooks page's and the usage page's deliveries.
          'count',
          'cap',
        ].map((k) => [k, 2]),
      ),
    };
    for (const key of messageKeys()) {
      const fr = translate('fr', key, sample);
      const en = translate('en', key, sample);
      expect(fr.trim(), key).not.toBe('');
      expect(en.trim(), key).not.toBe('');
      expect(fr, `${key} left a {parameter}`).not.toMatch(/\{\w+\}/);
      const params = (lang: 'fr' | 'en') => [...translate(lang, key).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(params('fr'), key).toEqual(params('en'));
    }
  });

  it('chooses French or English from the browser, French by default', async () => {
    const lang = async (header?: string) =>
      /<html lang="(\w+)">/.exec(
        (await t.client().get('/dashboard/login', header === undefined ? { 'accept-language': '' } : { 'accept-language': header })).text,
      )?.[1];
    expect(await lang()).toBe('fr');
    expect(await lang('en-US,en;q=0.9')).toBe('en');
    expect(await lang('fr-CM')).toBe('fr');
    expect(await lang('de-DE, en;q=0.5, fr;q=0.8')).toBe('fr');
    expect(await lang('de-DE')).toBe('fr');
  });

  it('switches language and remembers it in a cookie, staying on the same page', async () => {
    const client = t.client();
    const res = await client.get('/dashboard/lang/fr?next=%2Fplans', { 'accept-language': 'en' });
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard/plans');
    expect(res.setCookies.find((c) => c.startsWith('mboa_lang=fr'))).toMatch(/Max-Age=31536000; HttpOnly|HttpOnly.*Max-Age=31536000/);
    const page = await client.get('/dashboard/plans', { 'accept-language': 'en' });
    expect(page.text).toContain('<html lang="fr">');
    expect(textOf(page.text)).toContain('Offres');
    expect(page.text).toContain('href="/dashboard/lang/en?next=%2Fplans"');
    // Only pages of the dashboard, only our two languages.
    expect((await client.get('/dashboard/lang/en?next=//evil.example')).location).toBe('/dashboard/');
    expect((await client.get('/dashboard/lang/en?next=https://evil.example')).location).toBe('/dashboard/');
    const german = await t.client().get('/dashboard/lang/de?next=/plans');
    expect(german.location).toBe('/dashboard/plans');
    expect(german.setCookies.some((c) => c.startsWith('mboa_lang'))).toBe(false);
  });

  it('shows no English on French pages and no French on English pages', async () => {
    // Static messages long enough to be unambiguous, that differ between the two languages.
    const only = (lang: 'fr' | 'en') =>
      messageKeys()
        .map((k: MessageKey) => [translate(lang, k), translate(lang === 'fr' ? 'en' : 'fr', k)])
        .filter(([mine, other]) => mine !== other && !/\{\w+\}/.test(mine) && mine.length >= 12)
        .map(([mine]) => textOf(mine));

    const client = t.client();
    const { key } = await signUp(t, client, { plan: 'pro', company: 'Bilingue SA' });
    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);
    for (const lang of ['fr', 'en'] as const) {
      await client.get(`/dashboard/lang/${lang}`);
      const foreign = only(lang === 'fr' ? 'en' : 'fr');
      for (const path of PAGES) {
        const text = textOf((await client.get(path)).text);
        for (const phrase of foreign) expect(text, `${lang} page ${path} shows "${phrase}"`).not.toContain(phrase);
      }
    }
    for (const lang of ['fr', 'en'] as const) {
      const visitor = t.client();
      await visitor.get(`/dashboard/lang/${lang}`);
      const foreign = only(lang === 'fr' ? 'en' : 'fr');
      for (const path of PUBLIC_PAGES) {
        const text = textOf((await visitor.get(path)).text);
        for (const phrase of foreign) expect(text, `${lang} page ${path} shows "${phrase}"`).not.toContain(phrase);
      }
    }
    expect(isLang('fr') && isLang('en') && !isLang('de')).toBe(true);
  });
});

describe('every page', () => {
  it('is HTML for phones, with security headers, and private pages send visitors to log in', async () => {
    const client = t.client();
    await signUp(t, client, { plan: 'pro' });
    for (const path of [...PAGES, '/dashboard/signup', '/dashboard/login']) {
      const page = await (path.startsWith('/dashboard/signup') || path.startsWith('/dashboard/login') ? t.client() : client).get(path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.text).not.toMatch(/<script>|style="/); // nothing inline: the CSP allows none
    }
    for (const path of ['/dashboard/', '/dashboard/keys', '/dashboard/usage', '/dashboard/billing', '/dashboard/account', '/dashboard']) {
      const res = await t.client().get(path);
      expect(res.status, path).toBe(303);
      expect(res.location).toMatch(/^\/dashboard\/login/);
    }
  });

  it('answers an unknown address with a 404 page', async () => {
    const visitor = await t.client().get('/dashboard/nowhere', { 'accept-language': 'fr' });
    expect(visitor.status).toBe(404);
    expect(textOf(visitor.text)).toContain('Page introuvable');
    const client = t.client();
    await signUp(t, client);
    for (const path of ['/dashboard/keys/abc', '/dashboard/assets/nope.css', '/dashboard/usage/2026']) {
      const page = await client.get(path);
      expect(page.status, path).toBe(404);
      expect(textOf(page.text)).toContain('Page not found');
    }
    expect((await client.post('/dashboard/nowhere', { a: 'b' })).status).toBe(404);
  });

  it('serves its one stylesheet and one script, cached by version', async () => {
    const page = await t.client().get('/dashboard/login');
    const css = /href="(\/dashboard\/assets\/dashboard\.css\?v=\w+)"/.exec(page.text)![1];
    const js = /src="(\/dashboard\/assets\/dashboard\.js\?v=\w+)"/.exec(page.text)![1];
    const cssRes = await fetch(`${t.baseUrl}${css}`);
    expect(cssRes.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(cssRes.headers.get('cache-control')).toContain('immutable');
    expect((await cssRes.text()).length).toBeLessThan(20_000);
    const jsRes = await fetch(`${t.baseUrl}${js}`);
    expect(jsRes.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await jsRes.text()).length).toBeLessThan(4_000);
  });

  it('escapes what customers type', async () => {
    const client = t.client();
    await signUp(t, client, { company: '<script>alert("x")</script> & Fils' });
    const home = await client.get('/dashboard/');
    expect(home.text).not.toContain('<script>alert');
    expect(home.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Fils');
  });

  it('answers an oversized form with a page, not an error dump', async () => {
    const client = t.client();
    await client.get('/dashboard/signup');
    const res = await client.post('/dashboard/signup', { company: 'x'.repeat(40_000) });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(textOf(res.text)).toContain('The request could not be read');
  });

  it('answers 503 with a page and no stack trace when its connection pool is closed', async () => {
    const broken = await startDashboardServer();
    const client = broken.client();
    await signUp(broken, client);
    await broken.db.pool.end();
    const res = await client.get('/dashboard/keys');
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).not.toMatch(/at .+\.(ts|js):\d+/);
    expect(res.text).not.toMatch(/SELECT|prisma/i);
    expect(textOf(res.text)).toContain('Service temporarily unavailable');
    await broken.close().catch(() => {});
  });
});
