/**
 * `/docs`: Mboa's reference page, served entirely from this server under a strict
 * Content-Security-Policy, with a curl and an @mboa/sdk sample for each operation. Over
 * HTTP here; in Chromium below when it is installed (as on CI), checking that the page
 * renders every operation with its samples and that the browser reports no CSP violation.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../contract/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { describeWhen } from '../helpers/requires.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'docs');
/** Operation id → its tag (Swagger UI's element ids are `operations-<tag>-<operationId>`). */
const TAGS: Record<string, string> = {
  searchListings: 'Listings',
  getListing: 'Listings',
  getMarketStats: 'Market',
  getMarketTrends: 'Market',
  getMarketHistory: 'Market',
  getValuation: 'Valuations',
  batchValuations: 'Valuations',
  exportListings: 'Exports',
  createSavedSearch: 'Saved searches',
  listSavedSearches: 'Saved searches',
  getSavedSearch: 'Saved searches',
  updateSavedSearch: 'Saved searches',
  deleteSavedSearch: 'Saved searches',
  listSavedSearchListings: 'Saved searches',
  createWebhookEndpoint: 'Webhooks',
  listWebhookEndpoints: 'Webhooks',
  deleteWebhookEndpoint: 'Webhooks',
  rotateWebhookSecret: 'Webhooks',
  listWebhookDeliveries: 'Webhooks',
  sendWebhookTestEvent: 'Webhooks',
  resendWebhookDelivery: 'Webhooks',
  ping: 'Status',
};
const OPERATIONS = Object.keys(TAGS);
// Swagger UI writes a tag's spaces as underscores in its element ids.
const block = (page: Page, id: string) => page.locator(`#operations-${TAGS[id].replaceAll(' ', '_')}-${id}`);

type Operation = { operationId: string; description: string; 'x-codeSamples': Array<{ lang: string; label: string; source: string }> };
/** Every operation of a document, whatever its method. */
const operationsOf = (paths: Record<string, Record<string, Operation>>) => Object.values(paths).flatMap((item) => Object.values(item));

let t: TestServer;
/** A server as demo mode starts it: /docs fills in the demo Starter key. */
let demo: TestServer;
beforeAll(async () => {
  t = await startTestServer();
  demo = await startTestServer({ server: { docsDemoKey: t.keys.starter } });
});
afterAll(() => Promise.all([t.close(), demo.close()]));

describe('the key "Try it out" starts with', () => {
  it('is none outside demo mode: the page says to press Authorize first', async () => {
    const html = await (await fetch(`${t.baseUrl}/docs`)).text();
    expect(html).toContain('press <strong>Authorize</strong>');
    expect(html).not.toContain('data-demo-key');
    expect(html).not.toContain(t.keys.starter);
  });

  it('is the demo Starter key in demo mode, and the page says where it comes from', async () => {
    const html = await (await fetch(`${demo.baseUrl}/docs`)).text();
    expect(html).toContain(`data-demo-key="${t.keys.starter}"`);
    expect(html).toContain('demo-keys.json');
  });
});

describe('the reference page over HTTP', () => {
  it("is Mboa's page, with a strict CSP and nothing from another origin", async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await fetch(`${t.baseUrl}${path}`);
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      const html = await res.text();
      expect(html).toContain('<title>Mboa API reference</title>');
      expect(html).toContain('Real estate data API for Cameroon');
      expect(html).not.toMatch(/<script>|<style>|\sstyle=|\son\w+=/); // nothing inline
      const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(urls.length).toBeGreaterThan(4);
      for (const url of urls) expect(url).toMatch(/^\//);
    }
  });

  it('links the guides of docs/, served from this server as they are written', async () => {
    const index = await fetch(`${t.baseUrl}/docs/guides`);
    expect(index.status).toBe(200);
    const html = await index.text();
    for (const page of ['api.md', 'feeds.md', 'valuations.md', 'operations.md', 'runbooks/MboaServerErrors.md']) {
      expect(html).toContain(`href="/docs/guides/${page}"`);
      const res = await fetch(`${t.baseUrl}/docs/guides/${page}`);
      expect(res.status, page).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe(readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8'));
    }
    expect(html).not.toMatch(/<script|\sstyle=/);
    expect((await fetch(`${t.baseUrl}/docs/guides/../README.md`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/docs/guides/nothing.md`)).status).toBe(404);
  });

  it('serves its assets itself, and only those', async () => {
    for (const file of ['swagger-ui-bundle.js', 'swagger-ui.css', 'docs.js', 'docs.css', 'mboa.svg']) {
      const res = await fetch(`${t.baseUrl}/docs/assets/${file}`);
      expect(res.status, file).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
    }
    for (const file of ['index.html', 'swagger-initializer.js', '..%2Fpackage.json']) {
      expect((await fetch(`${t.baseUrl}/docs/assets/${file}`)).status, file).toBe(404);
    }
  });

  it('has an icon at /favicon.ico and /favicon.svg, which the dashboard links: no page asks for a missing one', async () => {
    for (const path of ['/favicon.ico', '/favicon.svg']) {
      const res = await fetch(`${t.baseUrl}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^image\/svg\+xml/);
      expect(await res.text()).toContain('<svg');
    }
    const login = await (await fetch(`${t.baseUrl}/dashboard/login`)).text();
    expect(login).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it('documents a curl and an SDK sample in every operation', async () => {
    const spec = (await (await fetch(`${t.baseUrl}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation>> };
    const ops = operationsOf(spec.paths);
    expect(ops.map((o) => o.operationId).sort()).toEqual([...OPERATIONS].sort());
    for (const op of ops) {
      expect(op['x-codeSamples'].map((s) => s.label)).toEqual(['curl', '@mboa/sdk']);
      expect(op.description).toContain('```sh\ncurl -H "X-API-Key: $MBOA_API_KEY"');
      expect(op.description).toContain("```ts\nimport { Mboa } from '@mboa/sdk';");
    }
  });
});

describe('the SDK samples', () => {
  it('compile in strict TypeScript against @mboa/sdk as it is', () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const dir = mkdtempSync(join(tmpdir(), 'mboa-sdk-samples-'));
    try {
      const document = buildOpenApiDocument({ version: '0.1.0' });
      const files: string[] = [];
      for (const op of operationsOf(document.paths as Record<string, Record<string, Operation>>)) {
        const sample = op['x-codeSamples'].find((s) => s.lang === 'TypeScript')!;
        files.push(`${op.operationId}.ts`);
        writeFileSync(join(dir, `${op.operationId}.ts`), sample.source);
      }
      expect(files).toHaveLength(OPERATIONS.length);
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'ESNext',
            moduleResolution: 'bundler',
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            lib: ['ES2023', 'DOM'],
            types: ['node'],
            typeRoots: [join(root, 'node_modules/@types')],
            baseUrl: '.',
            paths: { '@mboa/sdk': [join(root, 'sdk/src/index.ts')] },
          },
          files,
        }),
      );
      let output = '';
      try {
        execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', dir, '--pretty', 'false'], { encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        output = String((err as { stdout?: string }).stdout ?? err);
      }
      expect(output).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describeWhen(existsSync(CHROMIUM), `Chromium (${CHROMIUM})`)('the reference page in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders every operation with its samples, with no CSP violation and no request elsewhere', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const violations: string[] = [];
    const foreign: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    page.on('pageerror', (e) => violations.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(t.baseUrl) && !r.url().startsWith('data:')) foreign.push(r.url());
    });
    await page.goto(`${t.baseUrl}/docs`);
    await page.waitForSelector('.swagger-ui .info .title');
    expect(await page.title()).toBe('Mboa API reference');
    expect(await page.textContent('.mboa-bar')).toContain('Mboa');
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Mboa real estate data API');

    await page.screenshot({ path: join(ARTIFACTS, 'reference-top.png') });
    for (const id of OPERATIONS) {
      await block(page, id).locator('.opblock-summary').click();
      const description = block(page, id).locator('.opblock-description-wrapper').first();
      await description.locator('pre').first().waitFor();
      const text = await description.textContent();
      expect(text, id).toContain('curl -H "X-API-Key: $MBOA_API_KEY"');
      expect(text, id).toContain("import { Mboa } from '@mboa/sdk';");
      if (id === 'searchListings') await block(page, id).screenshot({ path: join(ARTIFACTS, 'search-operation.png') });
      // Closed again: every open operation slows the rendering of the next.
      await block(page, id).locator('.opblock-summary').click();
    }
    expect(violations).toEqual([]);
    expect(foreign).toEqual([]);
    await context.close();
  }, 90_000);

  it('"Try it out" answers 200 on the first click, as shown, and its samples name this server', async () => {
    // The key as Swagger UI's Authorize dialog would send it.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, extraHTTPHeaders: { 'X-API-Key': t.keys.pro } });
    const page = await context.newPage();
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    await page.goto(`${t.baseUrl}/docs`);
    await page.waitForSelector('.swagger-ui .info .title');
    for (const id of ['searchListings', 'getMarketStats', 'getMarketTrends', 'ping']) {
      const op = block(page, id);
      await op.locator('.opblock-summary').click();
      const samples = await op.locator('.opblock-description-wrapper').first().textContent();
      expect(samples, id).toContain(`curl -H "X-API-Key: $MBOA_API_KEY" "${t.baseUrl}/api/v1/`);
      expect(samples, id).not.toContain('localhost:3000');
      await op.locator('button.try-out__btn').click();
      const answer = page.waitForResponse((r) => r.url().startsWith(`${t.baseUrl}/api/v1/`) && r.request().method() === 'GET');
      await op.locator('button.execute').click();
      const res = await answer;
      expect(res.status(), `${id}: ${res.url()} ${await res.text()}`).toBe(200);
      await op.locator('.live-responses-table tr.response .response-col_status').first().waitFor();
      expect((await op.locator('.live-responses-table tr.response .response-col_status').first().textContent())?.trim(), id).toBe('200');
      if (id === 'searchListings') expect(((await res.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    }
    await block(page, 'searchListings').screenshot({ path: join(ARTIFACTS, 'search-try-it-out.png') });
    expect(missing).toEqual([]);
    await context.close();
  }, 90_000);

  it('in demo mode, "Try it out" answers 200 on the first click with no Authorize step', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${demo.baseUrl}/docs`);
    await page.waitForSelector('.swagger-ui .info .title');
    const op = block(page, 'searchListings');
    await op.locator('.opblock-summary').click();
    await op.locator('button.try-out__btn').click();
    const answer = page.waitForResponse((r) => r.url().startsWith(`${demo.baseUrl}/api/v1/`) && r.request().method() === 'GET');
    await op.locator('button.execute').click();
    const res = await answer;
    expect(res.request().headers()['x-api-key']).toBe(t.keys.starter);
    expect(res.status(), await res.text()).toBe(200);
    await context.close();
  }, 90_000);
});
