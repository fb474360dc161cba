/**
 * Production mode as an operator runs it: a fresh database, `npm run db:migrate`, the
 * secrets in the environment, the compiled build under plain node. It never seeds,
 * never creates or prints a key, refuses to start without its secrets, waits for its
 * migrations instead of serving an unknown schema, and stops cleanly on SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createScratchDatabase } from '../helpers/databases.js';
import { ensureBuilt, ROOT, run } from '../helpers/processes.js';
import { describeOnServer } from '../helpers/requires.js';

const secret = () => randomBytes(32).toString('base64');
/** Everything production requires: the secrets, the public address and the mail server. */
const SECRETS = {
  MBOA_CURSOR_SECRET: secret(),
  MBOA_DASHBOARD_SECRET: secret(),
  MBOA_PUBLIC_URL: 'https://api.mboa.test',
  SMTP_URL: 'smtp://127.0.0.1:2525',
};
/** What the server must not inherit from the test run. */
const CLEAN = {
  MBOA_CURSOR_SECRET: undefined,
  MBOA_DASHBOARD_SECRET: undefined,
  MBOA_PUBLIC_URL: undefined,
  SMTP_URL: undefined,
  MBOA_DATA_DIR: `${ROOT}/test-artifacts/never-written`,
  REDIS_URL: undefined,
};

const startProd = (databaseUrl: string, env: Record<string, string | undefined> = {}) =>
  run(process.execPath, ['dist/server/start/main.js'], {
    ...CLEAN,
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...env,
  });
const npm = (args: string[], databaseUrl: string) => run('npm', ['run', '--silent', ...args], { ...CLEAN, DATABASE_URL: databaseUrl });

async function count(url: string, sql: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Number((await c.query<{ n: string }>(sql)).rows[0].n);
  } finally {
    await c.end();
  }
}

describeOnServer('production mode runs on a PostgreSQL server, in scratch databases of its own')(
  'production mode (compiled, plain node)',
  () => {
    let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
    beforeAll(async () => {
      ensureBuilt();
      scratch = await createScratchDatabase('mboa_prod');
    }, 180_000);
    afterAll(() => scratch?.drop());

    it('refuses to start without its secrets (naming each and how to make one), its public address or its mail server', async () => {
      const none = startProd(scratch.url);
      expect((await none.exited()).code).toBe(1);
      expect(none.output()).toMatch(/MBOA_CURSOR_SECRET is not set.*openssl rand/);
      expect(none.output()).toMatch(/MBOA_DASHBOARD_SECRET is not set.*openssl rand/);

      const noMail = startProd(scratch.url, { ...SECRETS, SMTP_URL: undefined, MBOA_PUBLIC_URL: undefined });
      expect((await noMail.exited()).code).toBe(1);
      expect(noMail.output()).toMatch(/SMTP_URL and MBOA_PUBLIC_URL must be set/);

      const short = startProd(scratch.url, { ...SECRETS, MBOA_DASHBOARD_SECRET: 'too-short' });
      expect((await short.exited()).code).toBe(1);
      expect(short.output()).toMatch(/MBOA_DASHBOARD_SECRET: must be at least 32 characters/);
      expect(short.output()).not.toMatch(/listening/);
    });

    it('waits for `npm run db:migrate`, then serves with no demo account and no key in its output', async () => {
      const server = startProd(scratch.url, SECRETS);
      try {
        const match = await server.waitFor(/Mboa API on (http:\/\/127\.0\.0\.1:\d+)/);
        const base = match[1];
        const notReady = await fetch(`${base}/readyz`);
        expect(notReady.status).toBe(503);
        expect(notReady.headers.get('content-type')).toMatch(/application\/problem\+json/);
        const report = (await notReady.json()) as { checks: { migrations: string }; pending_migrations: string[] };
        expect(report.checks.migrations).toBe('pending_migrations');
        expect(report.pending_migrations.length).toBeGreaterThan(0);
        const api = await fetch(`${base}/api/v1/ping`);
        expect(api.status).toBe(503);
        expect(((await api.json()) as { code: string }).code).toBe('unavailable');
        expect((await fetch(`${base}/healthz`)).status).toBe(200);

        const migrate = npm(['db:migrate'], scratch.url);
        expect((await migrate.exited(120_000)).code, migrate.output()).toBe(0);
        // Ready without a restart.
        await expect.poll(async () => (await fetch(`${base}/readyz`)).status, { timeout: 15_000, interval: 500 }).toBe(200);

        // An account made by the operator works; none was made by the server.
        expect(await count(scratch.url, 'SELECT count(*) AS n FROM accounts')).toBe(0);
        expect(await count(scratch.url, 'SELECT count(*) AS n FROM listings')).toBe(0);
        const created = run(
          process.execPath,
          ['dist/server/cli/admin.js', 'accounts', 'create', '--email', 'ops@bank.cm', '--plan', 'pro', '--json'],
          {
            ...CLEAN,
            DATABASE_URL: scratch.url,
          },
        );
        expect((await created.exited()).code, created.output()).toBe(0);
        const key = (JSON.parse(created.output()) as { key: string }).key;
        const ping = await fetch(`${base}/api/v1/ping`, { headers: { 'X-API-Key': key } });
        expect(ping.status).toBe(200);

        expect(server.output()).not.toMatch(/mboa_live_/);
        expect(server.output()).not.toMatch(/Demo keys|demo mode/i);

        server.child.kill('SIGTERM');
        const exit = await server.exited();
        expect(exit.code).toBe(0);
        expect(server.output()).toMatch(/"msg":"stopped"/);
      } finally {
        server.child.kill('SIGKILL');
      }
    }, 180_000);

    it('warns, naming them, when the database holds demo accounts', async () => {
      const demo = run(process.execPath, ['dist/server/cli/admin.js', 'demo', '--json'], { ...CLEAN, DATABASE_URL: scratch.url });
      expect((await demo.exited(60_000)).code, demo.output()).toBe(0);
      const keys = (JSON.parse(demo.output()) as { keys: Record<string, string> }).keys;
      expect(Object.keys(keys).sort()).toEqual(['enterprise', 'pro', 'starter']);

      const server = startProd(scratch.url, SECRETS);
      try {
        await server.waitFor(/Mboa API on/);
        await server.waitFor(/holds demo accounts \(demo-enterprise@mboa\.cm, demo-pro@mboa\.cm, demo-starter@mboa\.cm\)/, 5_000);
        expect(server.output()).not.toMatch(/mboa_live_[0-9A-Za-z]{32}/);
        server.child.kill('SIGTERM');
        expect((await server.exited()).code).toBe(0);
      } finally {
        server.child.kill('SIGKILL');
      }
    }, 120_000);

    it('applies each migration once when two deploy steps race', async () => {
      const fresh = await createScratchDatabase('mboa_race');
      try {
        const a = npm(['db:migrate'], fresh.url);
        const b = npm(['db:migrate'], fresh.url);
        const [ra, rb] = await Promise.all([a.exited(120_000), b.exited(120_000)]);
        expect([ra.code, rb.code], a.output() + b.output()).toEqual([0, 0]);
        const applied = await count(fresh.url, 'SELECT count(*) AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL');
        const rows = await count(fresh.url, 'SELECT count(*) AS n FROM _prisma_migrations');
        expect(applied).toBeGreaterThan(0);
        expect(rows).toBe(applied);
        // One of the two did the work, the other found nothing to do.
        expect([a.output(), b.output()].filter((o) => /up to date/.test(o))).toHaveLength(1);
      } finally {
        await fresh.drop();
      }
    }, 180_000);
  },
);
