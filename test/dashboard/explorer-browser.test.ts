/**
 * The market explorer in a real browser (Debian's Chromium, driven by playwright-core), as
 * a customer meets it: log in, choose a city, see every quarter that has enough data
 * coloured (checked against the market tables, read here in SQL), choose a quarter, read
 * its history table against the API's own answer fetched here with the account's key,
 * download the CSV and compare it with the API's CSV, value a property. A Starter account
 * is told history is not in its plan; nothing the page does is charged; no request leaves
 * the server and the CSP is never violated. Screenshots, desktop and phone, French and
 * English, go to docs/screenshots/ (the README shows them).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { get, storedUsage } from '../helpers/server.js';
import { describeWhen } from '../helpers/requires.js';
import { PASSWORD } from './helpers.js';
import { explorerUser, startExplorerServer } from './explorer-helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = join(process.cwd(), 'docs', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  t = await startExplorerServer();
  if (!existsSync(CHROMIUM)) return;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A browser context logged in as `email`, in `lang`, that records what must never happen. */
async function session(email: string, o: { lang?: 'en' | 'fr'; viewport?: typeof DESKTOP; phone?: boolean } = {}) {
  const context = await browser.newContext({
    viewport: o.viewport ?? DESKTOP,
    locale: o.lang === 'fr' ? 'fr-FR' : 'en-GB',
    baseURL: t.baseUrl,
    acceptDownloads: true,
    isMobile: o.phone,
    hasTouch: o.phone,
  });
  const problems: string[] = [];
  // Nothing but this server: no tiles, no CDN.
  await context.route(
    (url) => url.origin !== new URL(t.baseUrl).origin,
    (route) => {
      problems.push(`outside request: ${route.request().url()}`);
      void route.abort();
    },
  );
  const page = await context.newPage();
  // The browser logs every refused call; a plan's 403 is the page's expected answer, said on it.
  page.on('console', (m) => m.type() === 'error' && !/status of 403/.test(m.text()) && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`/dashboard/lang/${o.lang ?? 'en'}?next=/login`);
  await page.fill('#email', email);
  await page.fill('#password', PASSWORD);
  await Promise.all([page.waitForURL((u) => !u.pathname.endsWith('/login')), page.click('main button[type="submit"]')]);
  return { context, page, problems };
}

async function mapReady(page: Page, city: string): Promise<void> {
  await page.waitForFunction(
    (c) => {
      const map = document.getElementById('explorer-map');
      return map?.dataset.city === c && (map.dataset.state === 'ready' || map.dataset.state === 'refused');
    },
    city,
    { timeout: 60_000 },
  );
}

/** Clicks a quarter where a pointer picks it: its centroid, always inside its shape. */
async function clickNeighborhood(page: Page, name: string): Promise<void> {
  const cell = page.locator(`#explorer-map path.cell[data-neighborhood="${name}"]`);
  await cell.scrollIntoViewIfNeeded();
  const at = await cell.evaluate((p: SVGPathElement) => {
    const svg = p.ownerSVGElement!;
    const point = svg.createSVGPoint();
    point.x = Number(p.dataset.x);
    point.y = Number(p.dataset.y);
    const screen = point.matrixTransform(svg.getScreenCTM()!);
    return { x: screen.x, y: screen.y };
  });
  await page.mouse.click(at.x, at.y);
  await page.waitForFunction((q) => {
    const panel = document.getElementById('neighborhood-panel');
    return panel?.dataset.neighborhood === q && panel.dataset.state === 'ready';
  }, name);
}

/** The viewport, its top at `selector` (kept small: the README shows them). */
async function shot(page: Page, name: string, selector?: string): Promise<void> {
  if (selector) await page.locator(selector).evaluate((e) => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 8));
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/** Quarters of a city whose rents rest on enough listings, and their medians: from the market table itself. */
async function neighborhoodsWithData(city: string): Promise<Map<string, number>> {
  const { rows } = await t.db.pool.query<{ neighborhood: string; median_price: string }>(
    `SELECT neighborhood, median_price FROM market_stats
     WHERE city = $1 AND purpose = 'rent' AND type IS NULL AND bedrooms IS NULL AND neighborhood IS NOT NULL AND volume >= 5`,
    [city],
  );
  return new Map(rows.map((r) => [r.neighborhood, Number(r.median_price)]));
}

describeWhen(existsSync(CHROMIUM), `Chromium (${CHROMIUM})`)('the market explorer in Chromium', () => {
  it('colours every quarter with data, opens a quarter whose history and CSV equal the API’s, and charges nothing', async () => {
    const user = await explorerUser(t, 'pro');
    const { context, page, problems } = await session(user.email);
    const usageBefore = await storedUsage(t, user.accountId);

    const started = Date.now();
    await page.goto('/dashboard/market');
    await mapReady(page, 'Douala');
    console.info(`explorer: first view of Douala in this test's browser ${Date.now() - started} ms (not a benchmark: see README)`);

    // Choose a city: the map is drawn again for it, every quarter with data coloured, the others hatched.
    await page.selectOption('#f-city', 'Yaoundé');
    await mapReady(page, 'Yaoundé');
    expect(new URL(page.url()).searchParams.get('city')).toBe('Yaoundé');
    const expected = await neighborhoodsWithData('Yaoundé');
    expect(expected.size).toBeGreaterThan(0);
    const coloured = await page.$$eval('#explorer-map path.cell:not(.no-data)', (cells) =>
      cells.map((c) => c.getAttribute('data-neighborhood')!),
    );
    expect(new Set(coloured)).toEqual(new Set(expected.keys()));
    expect(await page.$$eval('#explorer-map path.cell', (cells) => cells.length)).toBeGreaterThanOrEqual(90);
    // The table under the map says each figure, as the API computed it.
    const figures = await page.$$eval('#neighborhoods-table tbody tr[data-state="ok"]', (rows) =>
      rows.map((r) => [r.getAttribute('data-neighborhood')!, Number(r.querySelector('td')!.getAttribute('data-value'))] as const),
    );
    expect(new Map(figures)).toEqual(expected);
    expect(await page.textContent('#map-legend')).toMatch(/XAF/);
    expect(await page.textContent('[data-testid="map-note"]')).toMatch(/Voronoi/);

    // Choose a quarter on the map: its figures, its history, its CSV, the calls behind them.
    const [neighborhood] = [...expected.entries()].sort((a, b) => a[0].localeCompare(b[0]))[0];
    await clickNeighborhood(page, neighborhood);
    const stats = await get(
      t.baseUrl,
      `/api/v1/market/stats?city=Yaound%C3%A9&neighborhood=${encodeURIComponent(neighborhood)}&purpose=rent`,
      user.key,
    );
    const row = stats.body.data[0];
    expect(await page.textContent('[data-testid="stat-median"]')).toBe(`${row.median_price.toLocaleString('en-GB')}\u00a0XAF`);
    expect(await page.textContent('[data-testid="stat-sample"]')).toBe(row.sample_size.toLocaleString('en-GB'));

    const historyPath = `/api/v1/market/history?city=Yaound%C3%A9&neighborhood=${encodeURIComponent(neighborhood)}&purpose=rent&months=36`;
    const history = await get(t.baseUrl, historyPath, user.key);
    expect(history.body.data).toHaveLength(36);
    const table = await page.$$eval('#history-table tbody tr', (rows) =>
      rows.map((r) => ({
        month: r.getAttribute('data-month'),
        ...Object.fromEntries(
          Array.from(r.querySelectorAll('td')).map((td) => [td.getAttribute('data-field'), td.getAttribute('data-value')]),
        ),
      })),
    );
    const n = (v: number | null) => (v === null ? '' : String(v));
    expect(table).toEqual(
      history.body.data.map((p: any) => ({
        month: p.month,
        sample_size: n(p.sample_size),
        new_listings: n(p.new_listings),
        removed: n(p.removed_listings.sold + p.removed_listings.rented + p.removed_listings.withdrawn),
        p25_price: n(p.p25_price),
        median_price: n(p.median_price),
        p75_price: n(p.p75_price),
        median_price_per_m2: n(p.median_price_per_m2),
        median_price_change_pct: n(p.median_price_change_pct),
      })),
    );
    // Months under the floor have no figure, and say so.
    const absent = history.body.data.filter((p: any) => p.median_price === null).length;
    expect(await page.$$eval('#history-table tbody tr.is-absent', (rows) => rows.length)).toBe(absent);
    expect(await page.textContent('#history-status')).toContain(`in this series: ${absent}`);
    expect(await page.$$eval('#history-chart canvas', (c) => c.length)).toBe(1);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#history-csv')]);
    expect(download.suggestedFilename()).toMatch(/^mboa-history-yaounde-.+-rent\.csv$/);
    const csv = readFileSync((await download.path())!, 'utf8');
    const apiCsv = await get(t.baseUrl, historyPath, user.key, { Accept: 'text/csv' });
    expect(csv).toBe(apiCsv.text);
    expect(csv.split('\r\n')).toHaveLength(38); // header, 36 months, the final line end

    const curl = (await page.textContent('#call-curl'))!;
    expect(curl).toContain(`X-API-Key: ${user.key.slice(0, 14)}`);
    expect(curl).toContain(`${t.baseUrl}${historyPath}`);
    expect(await page.textContent('#call-sdk')).toContain("mboa.market.history({ city: 'Yaoundé'");
    // The quarter's listings with a point of their own are drawn on the zoomed map.
    expect(await page.getAttribute('#explorer-map svg', 'class')).toContain('is-zoomed');

    // A preview of a valuation (Pro): the sample's answer, marked, with its comparables on the map.
    await page.selectOption('#v-neighborhood', neighborhood);
    await page.click('#valuation-form button[type="submit"]');
    await page.waitForFunction(() => document.getElementById('valuation-result')?.dataset.state === 'ready');
    expect(await page.getAttribute('#valuation-result', 'data-dataset')).toBe('sample');
    expect(await page.isVisible('[data-testid="valuation-sample"]')).toBe(true);

    // Not one of the page's calls was charged; the test's own three were (stats, history, its CSV).
    expect(await storedUsage(t, user.accountId)).toBe(usageBefore + 3);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);

  it('shows Starter that history is not in its plan, and values a property for Enterprise', async () => {
    const starter = await explorerUser(t, 'starter');
    const s = await session(starter.email);
    await s.page.goto('/dashboard/market?city=Douala');
    await mapReady(s.page, 'Douala');
    const [neighborhood] = [...(await neighborhoodsWithData('Douala')).keys()].sort();
    await clickNeighborhood(s.page, neighborhood);
    expect(await s.page.getAttribute('#history-status', 'data-refused')).toBe('plan_forbidden');
    expect(await s.page.textContent('#history-status')).toContain('History is not in your plan.');
    expect(await s.page.isHidden('#history-body')).toBe(true);
    // Colour by the 12-month change: the API's refusal, said once.
    await s.page.selectOption('#f-colour', 'change');
    await s.page.waitForFunction(() => document.getElementById('explorer-map')?.dataset.refused === 'plan_forbidden');
    expect(await s.page.textContent('#map-status')).toContain('not included in the Starter plan');
    expect(s.problems).toEqual([]);
    await s.context.close();

    const enterprise = await explorerUser(t, 'enterprise');
    const e = await session(enterprise.email);
    await e.page.goto('/dashboard/market?city=Douala');
    await mapReady(e.page, 'Douala');
    await e.page.selectOption('#v-neighborhood', neighborhood);
    await e.page.fill('#v-surface', '90');
    await e.page.click('#valuation-form button[type="submit"]');
    await e.page.waitForFunction(() => ['ready', 'refused'].includes(document.getElementById('valuation-result')?.dataset.state ?? ''));
    const query = `city=Douala&neighborhood=${encodeURIComponent(neighborhood)}&type=apartment&purpose=rent&surface=90&bedrooms=2`;
    const answer = await get(t.baseUrl, `/api/v1/valuations?${query}`, enterprise.key);
    expect(answer.status).toBe(200);
    expect(await e.page.getAttribute('#valuation-result', 'data-dataset')).toBe('live');
    expect(Number(await e.page.getAttribute('[data-testid="valuation-estimate"]', 'data-price'))).toBe(answer.body.data.estimate.price);
    expect(await e.page.$$eval('[data-testid="comparables"] tbody tr', (rows) => rows.length)).toBe(answer.body.data.comparables.length);
    const located = answer.body.data.comparables.filter((c: any) => c.location).length;
    expect(await e.page.$$eval('#explorer-map circle.pt-comparable', (c) => c.length)).toBe(located);
    await shot(e.page, 'explorer-valuation-desktop-en', '#valuation-result');
    expect(e.problems).toEqual([]);
    await e.context.close();
  }, 180_000);

  it('takes the screenshots the README shows: desktop and phone, English and French', async () => {
    const user = await explorerUser(t, 'pro');
    const [neighborhood] = [...(await neighborhoodsWithData('Douala')).entries()].sort((a, b) => b[1] - a[1])[0];
    for (const lang of ['en', 'fr'] as const) {
      for (const [device, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const s = await session(user.email, { lang, viewport, phone: device === 'phone' });
        await s.page.goto('/dashboard/market?city=Douala');
        await mapReady(s.page, 'Douala');
        expect(await s.page.getAttribute('html', 'lang')).toBe(lang);
        await shot(s.page, `explorer-map-${device}-${lang}`, device === 'phone' ? '.map-card' : '#explorer-filters');
        await clickNeighborhood(s.page, neighborhood);
        if ((device === 'desktop') === (lang === 'en')) await shot(s.page, `explorer-history-${device}-${lang}`, '#history-panel');
        expect(s.problems).toEqual([]);
        await s.context.close();
      }
    }
  }, 300_000);
});
