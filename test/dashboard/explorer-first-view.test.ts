/**
 * The market explorer's first view in Chromium: a city's map is coloured from one
 * `/market/stats?group_by=neighborhood` call (it was one call per quarter, 91 for Douala),
 * and each quarter's figure on the page is the market table's for that quarter.
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestServer } from '../helpers/server.js';
import { describeWhen } from '../helpers/requires.js';
import { PASSWORD } from './helpers.js';
import { explorerUser, startExplorerServer } from './explorer-helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let t: TestServer;
let browser: Browser;

beforeAll(async () => {
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

describeWhen(existsSync(CHROMIUM), `Chromium (${CHROMIUM})`)('the explorer’s first view', () => {
  it('colours Douala from one stats call, each quarter’s figure the market table’s', async () => {
    const user = await explorerUser(t, 'pro');
    const context = await browser.newContext({ baseURL: t.baseUrl, locale: 'en-GB' });
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('request', (r) => r.url().includes('/api/v1/') && calls.push(new URL(r.url()).pathname + new URL(r.url()).search));
    await page.goto('/dashboard/lang/en?next=/login');
    await page.fill('#email', user.email);
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForURL((u) => !u.pathname.endsWith('/login')), page.click('main button[type="submit"]')]);

    await page.goto('/dashboard/market?city=Douala&purpose=rent');
    await page.waitForFunction(() => document.getElementById('explorer-map')?.dataset.state === 'ready', null, { timeout: 60_000 });
    expect(calls).toEqual(['/api/v1/market/stats?city=Douala&purpose=rent&group_by=neighborhood']);

    const shown = await page.$$eval('#neighborhoods-table tbody tr', (rows) =>
      rows.map((r) => ({
        neighborhood: r.getAttribute('data-neighborhood')!,
        state: r.getAttribute('data-state')!,
        value: r.querySelector('td')!.getAttribute('data-value'),
      })),
    );
    expect(shown.length).toBeGreaterThanOrEqual(90);
    expect(shown.filter((s) => s.state === 'ok').length).toBeGreaterThan(3);
    // Each quarter against the market table, read here: its median when at least 5 listings, else no figure.
    const { rows } = await t.db.pool.query<{ neighborhood: string; median_price: string }>(
      `SELECT neighborhood, median_price FROM market_stats
       WHERE city = 'Douala' AND purpose = 'rent' AND type IS NULL AND bedrooms IS NULL AND neighborhood IS NOT NULL AND volume >= 5`,
    );
    const medians = new Map(rows.map((r) => [r.neighborhood, String(Number(r.median_price))]));
    expect(
      shown
        .filter((s) => s.state === 'ok')
        .map((s) => s.neighborhood)
        .sort(),
    ).toEqual([...medians.keys()].sort());
    for (const s of shown) {
      if (medians.has(s.neighborhood)) expect(s.value, s.neighborhood).toBe(medians.get(s.neighborhood));
      else expect(s, s.neighborhood).toMatchObject({ state: 'thin', value: '' });
    }
    await context.close();
  });
});
