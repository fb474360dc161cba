/**
 * What a fresh clone gets: `npm start` (demo mode, its own data folder) prints the market
 * explorer's address and a password for the demo accounts; logged in with it, the explorer
 * opens on the demo data with every quarter of Douala and Yaoundé that has data coloured
 * (each quarter's figure asked of the API here, with the demo's own key).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import type { ExplorerConfig } from '../../server/dashboard/explorer-config.js';
import { run } from '../helpers/processes.js';
import { describeWhen } from '../helpers/requires.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const dataDir = mkdtempSync(join(tmpdir(), 'mboa-explorer-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describeWhen(existsSync(CHROMIUM), `Chromium (${CHROMIUM})`)('the demo’s explorer', () => {
  it('opens on the demo data with every quarter of Douala and Yaoundé that has data coloured', async () => {
    const npm = run('npm', ['start'], {
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      MBOA_CURSOR_SECRET: undefined,
      MBOA_DASHBOARD_SECRET: undefined,
      MBOA_DATA_DIR: dataDir,
      MARKET_REFRESH_MINUTES: '0',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const base = (await npm.waitFor(/Market explorer: (http:\/\/127\.0\.0\.1:\d+)\/dashboard\/market/, 480_000))[1];
      const login = JSON.parse(readFileSync(join(dataDir, 'demo-login.json'), 'utf8')) as { password: string };
      expect(statSync(join(dataDir, 'demo-login.json')).mode & 0o777).toBe(0o600);
      expect(npm.output()).toContain(`password ${login.password}`);
      const key = (JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as Record<string, string>).pro;

      const page = await (await browser.newContext({ baseURL: base, locale: 'en-GB' })).newPage();
      await page.goto('/dashboard/market');
      await page.fill('#email', 'demo-pro@mboa.cm');
      await page.fill('#password', login.password);
      await Promise.all([page.waitForURL((u) => u.pathname === '/dashboard/market'), page.click('main button[type="submit"]')]);
      const config = JSON.parse((await page.textContent('#explorer-config'))!) as ExplorerConfig;

      for (const city of ['Douala', 'Yaoundé']) {
        if (city !== 'Douala') await page.selectOption('#f-city', city);
        await page.waitForFunction(
          (c) => {
            const map = document.getElementById('explorer-map');
            return map?.dataset.city === c && map.dataset.state === 'ready';
          },
          city,
          { timeout: 120_000 },
        );
        const withData: string[] = [];
        for (const [neighborhood] of config.cities.find((c) => c.name === city)!.neighborhoods) {
          const query = new URLSearchParams({ city, neighborhood: neighborhood, purpose: 'rent' });
          const res = await fetch(`${base}/api/v1/market/stats?${query}`, { headers: { 'X-API-Key': key } });
          const row = ((await res.json()) as { data: Array<{ sample_size: number }> }).data[0];
          if (row && row.sample_size >= config.minSample) withData.push(neighborhood);
        }
        expect(withData.length, city).toBeGreaterThan(0);
        const coloured = await page.$$eval('#explorer-map path.cell:not(.no-data)', (cells) =>
          cells.map((c) => c.getAttribute('data-neighborhood')!),
        );
        expect(coloured.sort(), city).toEqual(withData.sort());
      }
    } finally {
      await browser.close();
      npm.child.kill('SIGTERM');
      await npm.exited(30_000);
    }
  }, 900_000);
});
