/**
 * Demo mode as a new user meets it: `npm start` with no DATABASE_URL serves the embedded
 * PostgreSQL, seeded, with one key per plan printed and kept in the data folder beside
 * secrets made once; a restart keeps both. SIGTERM sent to `npm start` reaches the server.
 * A change made by another process (the dashboard's, the CLI's) reaches the API at once.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import { run, type Running } from '../helpers/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mboa-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const DEMO_ENV = {
  DATABASE_URL: undefined,
  REDIS_URL: undefined,
  MBOA_CURSOR_SECRET: undefined,
  MBOA_DASHBOARD_SECRET: undefined,
  MBOA_DATA_DIR: dataDir,
  MBOA_SEED_LISTINGS: '300',
  MARKET_REFRESH_MINUTES: '0',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
};

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a demo as Ctrl-C would: npm hands the signal on to the server, so none is left
 * behind (a SIGKILL to npm would orphan it); killed only if it does not exit.
 */
async function stopDemo(demo: { npm: Running }): Promise<void> {
  if (demo.npm.child.exitCode !== null || demo.npm.child.signalCode !== null) return;
  demo.npm.child.kill('SIGTERM');
  await demo.npm.exited(15_000).catch(() => demo.npm.child.kill('SIGKILL'));
}

async function startDemo() {
  const npm = run('npm', ['start'], DEMO_ENV);
  const base = (await npm.waitFor(/Mboa API on (http:\/\/127\.0\.0\.1:\d+)/, 120_000))[1];
  const keys = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as Record<string, string>;
  return { npm, base, keys };
}

it('serves the seeded demo with a key per plan, kept with its secrets across a restart; SIGTERM to npm stops it', async () => {
  const first = await startDemo();
  try {
    expect(Object.keys(first.keys).sort()).toEqual(['enterprise', 'pro', 'starter']);
    for (const key of Object.values(first.keys)) expect(first.npm.output()).toContain(key);
    expect(statSync(join(dataDir, 'demo-keys.json')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600);

    const page = await fetch(`${first.base}/api/v1/listings?limit=2&status=any`, { headers: { 'X-API-Key': first.keys.starter } });
    expect(page.status).toBe(200);
    const body = (await page.json()) as { data: unknown[]; meta: { total: number; next_cursor: string } };
    expect(body.data).toHaveLength(2);
    // 300 generated rows, the active repeats among them folded: what the seed logged it stored.
    // (The log line may reach the output after the banner: the logger writes asynchronously.)
    const seeded = await first.npm.waitFor(/"rows":(\d+)[^\n]*demo listings seeded/, 10_000);
    expect(Number(seeded[1])).toBeGreaterThan(250);
    expect(body.meta.total).toBe(Number(seeded[1]));

    const serverPid = Number(JSON.parse(readFileSync(join(dataDir, 'embedded.json'), 'utf8')).pid);
    expect(serverPid).not.toBe(first.npm.child.pid);
    first.npm.child.kill('SIGTERM');
    expect((await first.npm.exited()).code).toBe(0);
    // The server itself got the signal: no process is left behind npm.
    await expect.poll(() => isAlive(serverPid), { timeout: 10_000 }).toBe(false);

    const secrets = readFileSync(join(dataDir, 'secrets.json'), 'utf8');
    const second = await startDemo();
    try {
      expect(second.keys).toEqual(first.keys);
      expect(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).toBe(secrets);
      // A cursor issued before the restart still works: the secret was kept.
      const next = await fetch(`${second.base}/api/v1/listings?limit=2&status=any&cursor=${encodeURIComponent(body.meta.next_cursor)}`, {
        headers: { 'X-API-Key': second.keys.starter },
      });
      expect(next.status).toBe(200);
      second.npm.child.kill('SIGINT');
      expect((await second.npm.exited()).code).toBe(0);
    } finally {
      await stopDemo(second);
    }
  } finally {
    await stopDemo(first);
  }
}, 240_000);

it('refuses a key revoked, an account suspended and a plan changed from another process within 1 s', async () => {
  const demo = await startDemo();
  // Another process, as the dashboard's or the CLI's would be: a connection of its own to the embedded database.
  const url = (JSON.parse(readFileSync(join(dataDir, 'embedded.json'), 'utf8')) as { url: string }).url;
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const status = async (key: string, path = '/api/v1/ping', method = 'GET') =>
    (await fetch(`${demo.base}${path}`, { method, headers: { 'X-API-Key': key } })).status;
  /** Milliseconds after `change` until the demo answers `refused` (200 until then). */
  const refusedAfter = async (key: string, refused: number, change: string, path?: string, method?: string) => {
    for (let i = 0; i < 3; i++) expect(await status(key, path, method)).toBe(200);
    await db.query(change);
    const since = Date.now();
    for (;;) {
      const s = await status(key, path, method);
      if (s === refused) return Date.now() - since;
      expect(s).toBe(200);
      if (Date.now() - since > 10_000) return Infinity;
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  try {
    const of = (plan: string) => `(SELECT id FROM accounts WHERE email = 'demo-${plan}@mboa.cm')`;
    expect(
      await refusedAfter(
        demo.keys.enterprise,
        403,
        `UPDATE accounts SET plan = 'pro' WHERE id = ${of('enterprise')}`,
        '/api/v1/exports/listings',
        'HEAD',
      ),
    ).toBeLessThan(1_000);
    expect(
      await refusedAfter(
        demo.keys.pro,
        403,
        `UPDATE accounts SET status = 'suspended', suspension_reason = 'operator' WHERE id = ${of('pro')}`,
      ),
    ).toBeLessThan(1_000);
    expect(
      await refusedAfter(demo.keys.starter, 401, `UPDATE api_keys SET revoked_at = now() WHERE account_id = ${of('starter')}`),
    ).toBeLessThan(1_000);
  } finally {
    await db.end();
    await stopDemo(demo);
  }
}, 240_000);
