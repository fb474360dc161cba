/**
 * The dashboard in a real browser (Debian's Chromium, driven by playwright-core), the way
 * a customer meets it: sign up on Starter, confirm the address from the e-mail, call the
 * API with the first key, watch usage go up, be refused a second key, upgrade to Pro,
 * create a second key, read the usage chart, revoke a key and see the API refuse it.
 * Screenshots of every page, desktop and phone, go to test-artifacts/dashboard/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { linksIn } from '../helpers/mailbox.js';
import { apiGet, type DashboardServer, PASSWORD, startDashboardServer, uniqueEmail } from './helpers.js';
import { describeWhen } from '../helpers/requires.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'dashboard');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let t: DashboardServer;
let browser: Browser;
let desktop: BrowserContext;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  t = await startDashboardServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  desktop = await browser.newContext({ viewport: DESKTOP, locale: 'en-GB', baseURL: t.baseUrl });
  await desktop.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.baseUrl });
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function shot(page: Page, name: string) {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** Revoke, rotate and plan switches ask for confirmation: accept it, as a customer would. */
function acceptDialogs(page: Page) {
  page.on('dialog', (dialog) => void dialog.accept());
}

describeWhen(existsSync(CHROMIUM), `Chromium (${CHROMIUM})`)('dashboard in Chromium', () => {
  it('takes a customer from sign-up to a first call, an upgrade, analytics and a revocation', async () => {
    const page = await desktop.newPage();
    acceptDialogs(page);
    const email = uniqueEmail('browser');

    // Sign up on Starter.
    const startedAt = Date.now();
    await page.goto('/dashboard/signup');
    await page.fill('#company', 'Afriland Proptech SARL');
    await page.fill('#email', email);
    await page.fill('#password', PASSWORD);
    await page.click('label.plan[data-plan="starter"]');
    await shot(page, '01-signup-desktop');
    await page.click('button[type="submit"]');
    await page.waitForSelector('[data-testid="new-key"]');
    await shot(page, '02-welcome-first-key-desktop');

    // The key is shown once; the copy button puts it on the clipboard.
    const firstKey = (await page.textContent('[data-testid="new-key"]'))!.trim();
    expect(firstKey).toMatch(/^mboa_live_[0-9A-Za-z]{32}$/);
    await page.click('button[data-copy="new-key"]');
    await expect.poll(() => page.textContent('button[data-copy="new-key"]')).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(firstKey);

    // The key waits for the address: the API says what to do.
    expect((await apiGet(t.baseUrl, '/api/v1/listings?city=Douala&limit=5', firstKey)).body.code).toBe('email_unverified');
    expect(await page.textContent('[data-testid="verify-pending"]')).toContain(`confirm your address with the link we sent to ${email}`);

    // The confirmation e-mail arrives; its link, opened in the browser, turns the key on.
    const mail = await t.mailbox.waitFor(email, /Confirm your e-mail address for Mboa/);
    await page.goto(linksIn(mail).find((l) => l.includes('/dashboard/verify?token='))!);
    await page.waitForSelector('[data-testid="verified"]');
    await shot(page, '02b-address-confirmed-desktop');

    // First successful API call: well within two minutes of starting the sign-up.
    const first = await apiGet(t.baseUrl, '/api/v1/listings?city=Douala&limit=5', firstKey);
    const timeToFirstCall = Date.now() - startedAt;
    expect(first.status).toBe(200);
    expect(timeToFirstCall).toBeLessThan(120_000);
    console.info(`time from sign-up to first successful API call: ${(timeToFirstCall / 1000).toFixed(1)} s`);

    // Usage goes up on the home page.
    expect((await apiGet(t.baseUrl, '/api/v1/market/stats?city=Douala', firstKey)).status).toBe(200);
    await page.goto('/dashboard/');
    await expect.poll(() => page.getAttribute('[data-testid="usage-used"]', 'data-used')).toBe('2');
    expect(await page.textContent('[data-testid="usage-used"]')).toContain('2 of 10,000 calls used');
    expect(await page.textContent('[data-testid="usage-remaining"]')).toBe('9,998');
    await expect.poll(() => page.isVisible('[data-testid="upgrade-invite"]')).toBe(true);
    await shot(page, '03-home-starter-desktop');

    // Starter allows one key: a second is refused, with the reason.
    await page.click('nav.sections >> text=API keys');
    await page.fill('#name', 'Data team notebook');
    await page.click('form.inline-form button[type="submit"]');
    const refusal = await page.textContent('#form-errors');
    expect(refusal).toContain('Your Starter plan allows 1 active key and you have 1');
    await shot(page, '04-keys-refused-desktop');

    // Upgrade to Pro, with immediate effect.
    await page.click('nav.sections >> text=Plans');
    await page.click('section.plan[data-plan="pro"] button[type="submit"]');
    await page.waitForSelector('.notice-success');
    expect(await page.textContent('.notice-success')).toContain('You are now on the Pro plan');
    expect(await page.textContent('section.plan.selected .plan-name')).toContain('Pro');
    await shot(page, '05-plans-pro-desktop');

    // A second key, now allowed.
    await page.click('nav.sections >> text=API keys');
    await page.fill('#name', 'Data team notebook');
    await page.click('form.inline-form button[type="submit"]');
    await page.waitForSelector('[data-testid="new-key"]');
    const secondKey = (await page.textContent('[data-testid="new-key"]'))!.trim();
    expect(secondKey).not.toBe(firstKey);
    await shot(page, '06-keys-second-created-desktop');
    for (const path of ['/api/v1/market/trends?city=Douala', '/api/v1/listings?limit=2', '/api/v1/listings?limit=3']) {
      expect((await apiGet(t.baseUrl, path, secondKey)).status).toBe(200);
    }
    await t.flushUsage(); // counted a moment after each answer

    // The usage chart and the breakdowns (Pro's analytics).
    await page.click('nav.sections >> text=Usage');
    await page.waitForSelector('svg.chart-wide');
    expect(await page.getAttribute('[data-testid="usage-total"]', 'data-used')).toBe('5');
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.getAttribute(`svg.chart-wide g.day[data-day="${today}"]`, 'data-calls')).toBe('5');
    await page.hover(`svg.chart-wide g.day[data-day="${today}"] rect.hit`);
    await expect.poll(() => page.textContent('#calls-per-day-readout')).toMatch(/: 5 calls$/);
    const byEndpoint = await page.textContent('[data-testid="by-endpoint"]');
    expect(byEndpoint).toContain('market/trends');
    const byKey = await page.textContent('[data-testid="by-key"]');
    expect(byKey).toContain('Main key');
    expect(byKey).toContain('Data team notebook');
    await shot(page, '07-usage-chart-desktop');

    await page.click('nav.sections >> text=Billing');
    await page.waitForSelector('section.statement');
    await shot(page, '08-billing-desktop');

    await page.click('nav.sections >> text=Account');
    await page.waitForSelector('[data-testid="retention"]');
    await shot(page, '08b-account-desktop');

    // Revoke the first key: the API refuses it at once.
    await page.click('nav.sections >> text=API keys');
    await page.click(`tr[data-prefix="${firstKey.slice(0, 16)}"] button.btn-danger`);
    await page.waitForSelector('.notice-success');
    expect(await page.textContent('.notice-success')).toContain(`Key ${firstKey.slice(0, 16)}… revoked`);
    const refused = await apiGet(t.baseUrl, '/api/v1/listings?limit=1', firstKey);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_api_key');
    expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=1', secondKey)).status).toBe(200);
    await shot(page, '09-keys-revoked-desktop');

    // French, remembered from page to page.
    await page.click('.lang a[lang="fr"]');
    await page.waitForSelector('html[lang="fr"]');
    expect(await page.textContent('h1')).toBe('Clés d’API');
    await page.click('nav.sections >> text=Accueil');
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.textContent('[data-testid="usage-used"]')).toMatch(/6 appels utilisés sur 100\s000/);
    await shot(page, '10-home-pro-fr-desktop');
    await page.click('nav.sections >> text=Consommation');
    await shot(page, '11-usage-fr-desktop');
    await page.close();
  });

  it('fits a phone screen, page by page', async () => {
    const phone = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
      locale: 'fr-FR',
      baseURL: t.baseUrl,
      storageState: await desktop.storageState(),
    });
    const page = await phone.newPage();
    for (const [path, name] of [
      ['/dashboard/', 'home'],
      ['/dashboard/keys', 'keys'],
      ['/dashboard/plans', 'plans'],
      ['/dashboard/usage', 'usage'],
      ['/dashboard/billing', 'billing'],
      ['/dashboard/account', 'account'],
      ['/dashboard/contact-sales', 'contact-sales'],
    ] as const) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${path} overflows`).toBe(true);
      await shot(page, `20-${name}-phone`);
    }
    await page.goto('/dashboard/usage');
    expect(await page.isVisible('svg.chart-narrow')).toBe(true);
    expect(await page.isVisible('svg.chart-wide')).toBe(false);
    await page.tap('svg.chart-narrow g.day[data-calls="6"] rect.hit');
    await expect.poll(() => page.textContent('#calls-per-day-readout')).toMatch(/6 appels$/);

    const visitor = await browser.newContext({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
      locale: 'en-GB',
      baseURL: t.baseUrl,
    });
    const signup = await visitor.newPage();
    await signup.goto('/dashboard/signup');
    expect(await signup.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await shot(signup, '21-signup-phone');
    await signup.goto('/dashboard/login');
    await shot(signup, '22-login-phone');
    for (const [path, name] of [
      ['/dashboard/password/forgot', '22b-forgot-phone'],
      ['/dashboard/contact-sales', '22c-contact-sales-phone'],
      ['/dashboard/plans', '22d-plans-visitor-phone'],
    ] as const) {
      await signup.goto(path);
      expect(await signup.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${path} overflows`).toBe(true);
      await shot(signup, name);
    }
    await signup.goto('/dashboard/no-such-page');
    await shot(signup, '23-not-found-phone');
    await visitor.close();
    await phone.close();
  });
});
