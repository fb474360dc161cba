// Measures the market explorer in Chromium against a running server (the demo by default):
// the first view of a city (from the page's request until every quarter's figure is on
// the map) and the weight of what the page loads, as transferred (compressed).
//
//   npm start                                   # the demo, in another terminal
//   node scripts/measure-explorer.mjs           # http://localhost:3000, demo-pro, Douala
//   node scripts/measure-explorer.mjs --base http://localhost:3104 --city Yaoundé --runs 5
//
// Logs in with the demo password (`.mboa-data/demo-login.json`, or MBOA_DATA_DIR's), or
// with --email and --password. Prints one line per run and the median; a cold run first
// (nothing cached), then warm ones (the browser keeps the assets, as a returning visitor).
/* global document */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://localhost:3000' },
    email: { type: 'string', default: 'demo-pro@mboa.cm' },
    password: { type: 'string' },
    city: { type: 'string', default: 'Douala' },
    runs: { type: 'string', default: '3' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
const dataDir = process.env.MBOA_DATA_DIR ?? join(process.cwd(), '.mboa-data');
const password = values.password ?? JSON.parse(readFileSync(join(dataDir, 'demo-login.json'), 'utf8')).password;

const browser = await chromium.launch({
  executablePath: values.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: values.base });
  const page = await context.newPage();
  await page.goto('/dashboard/login');
  await page.fill('#email', values.email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('/login')), page.click('button[type="submit"]')]);

  const url = `/dashboard/market?city=${encodeURIComponent(values.city)}&purpose=rent`;
  const times = [];
  for (let run = 0; run < Number(values.runs); run++) {
    await page.goto(url);
    await page.waitForFunction(() => ['ready', 'refused'].includes(document.getElementById('explorer-map')?.dataset.state ?? ''), null, {
      timeout: 30_000,
    });
    const m = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const resources = performance.getEntriesByType('resource');
      const assets = resources.filter((r) => r.name.includes('/assets/'));
      const api = resources.filter((r) => r.name.includes('/api/v1/'));
      return {
        firstViewMs: performance.now() - nav.startTime,
        ready: document.getElementById('explorer-map').dataset.state,
        coloured: Number(document.getElementById('explorer-map').dataset.coloured),
        quarters: document.querySelectorAll('#explorer-map path.cell').length,
        pageBytes: nav.encodedBodySize,
        assetBytes: assets.reduce((n, r) => n + r.encodedBodySize, 0),
        assetsFromCache: assets.filter((r) => r.transferSize === 0).length,
        assets: assets.map((r) => `${new URL(r.name).pathname} ${r.encodedBodySize} B`),
        domReadyMs: nav.domContentLoadedEventEnd,
        apiFirstMs: Math.min(...api.map((r) => r.startTime)),
        apiLastMs: Math.max(...api.map((r) => r.responseEnd)),
        apiCalls: api.length,
        apiBytes: api.reduce((n, r) => n + r.encodedBodySize, 0),
      };
    });
    // Measured from the page's own clock at the moment the last quarter was coloured.
    const readyAt = await page.evaluate(() => Number(document.getElementById('explorer-map').dataset.readyMs));
    const ms = Number.isFinite(readyAt) && readyAt > 0 ? readyAt : m.firstViewMs;
    times.push(ms);
    console.log(
      `${run === 0 ? 'cold' : 'warm'} run ${run + 1}: first view of ${values.city} ${ms.toFixed(0)} ms (${m.coloured} of ${m.quarters} quarters coloured, state ${m.ready}); ` +
        `page ready ${m.domReadyMs.toFixed(0)} ms, API calls from ${m.apiFirstMs.toFixed(0)} to ${m.apiLastMs.toFixed(0)} ms; ` +
        `page ${(m.pageBytes / 1024).toFixed(1)} kB, assets ${(m.assetBytes / 1024).toFixed(1)} kB compressed${m.assetsFromCache ? ` (${m.assetsFromCache} from cache)` : ''}, ${m.apiCalls} API calls ${(m.apiBytes / 1024).toFixed(1)} kB`,
    );
    if (run === 0) for (const a of m.assets) console.log(`  ${a}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(`median of ${times.length}: ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms`);
} finally {
  await browser.close();
}
