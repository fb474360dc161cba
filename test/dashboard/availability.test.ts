/**
 * Availability as an Enterprise customer sees it: calls answered 5xx/503 while PostgreSQL
 * is unreachable (a proxy in front of it is cut) are recorded for the account once the
 * database is back, never charged, and the usage page and `npm run admin -- sla` show
 * answered / (answered + failed) against 99.9 %, checked here with SQL and arithmetic of
 * the test's own.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { admin } from '../helpers/admin.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { apiGet, type DashboardServer, signUp, startDashboardServer, textOf } from './helpers.js';

let proxy: TcpProxy;
let t: DashboardServer;
let direct: pg.Pool;
beforeAll(async () => {
  proxy = await startTcpProxy(process.env.DATABASE_URL!);
  t = await startDashboardServer({ databaseUrl: proxy.url });
  direct = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
});
afterAll(async () => {
  await proxy.restore().catch(() => {});
  await t?.close();
  await proxy.close();
  await direct.end();
});

const month = () => new Date().toISOString().slice(0, 7);
const attr = (html: string, name: string) => new RegExp(`data-testid="availability"[^>]* ${name}="([^"]*)"`).exec(html)?.[1];

it('records 503s per account without charging them, and shows the month against 99.9 % on the dashboard and in `admin sla`', async () => {
  const client = t.client();
  const { key, accountId, email } = await signUp(t, client, { plan: 'enterprise' });
  const steady = await signUp(t, t.client(), { plan: 'enterprise' });
  const proClient = t.client();
  const pro = await signUp(t, proClient, { plan: 'pro' });
  for (let i = 0; i < 7; i++) expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key)).status).toBe(200);
  expect((await apiGet(t.baseUrl, '/api/v1/listings?limit=1', steady.key)).status).toBe(200);

  await proxy.cut();
  for (let i = 0; i < 3; i++) {
    const answer = await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('unavailable');
  }
  await proxy.restore();
  await expect
    .poll(async () => (await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key)).status, { timeout: 15_000, interval: 200 })
    .toBe(200);
  await t.flushUsage();

  // Written once the database is back (every 5 s), on the account's month; the 503s never charged.
  const first = `${month()}-01`;
  await expect
    .poll(
      async () =>
        (await direct.query('SELECT failed FROM monthly_failures WHERE account_id = $1 AND month = $2::date', [accountId, first])).rows[0]
          ?.failed,
      { timeout: 15_000, interval: 250 },
    )
    .toBe(3);
  const { rows } = await direct.query<{ used: number; failed: number; pct: string }>(
    `SELECT u.used, f.failed, to_char(floor(u.used * 100000.0 / (u.used + f.failed)) / 1000, 'FM990.000') AS pct
     FROM monthly_usage u JOIN monthly_failures f USING (account_id, month) WHERE account_id = $1 AND month = $2::date`,
    [accountId, first],
  );
  const answered = rows[0].used;
  expect(answered).toBeGreaterThanOrEqual(8);
  expect(rows[0].failed).toBe(3);
  const pct = rows[0].pct;
  expect(Number(pct)).toBeCloseTo((100 * answered) / (answered + 3), 2);

  const page = await client.get('/dashboard/usage');
  expect(page.status).toBe(200);
  expect(attr(page.text, 'data-answered')).toBe(String(answered));
  expect(attr(page.text, 'data-failed')).toBe('3');
  const text = textOf(page.text);
  expect(text).toContain('Availability (promised: 99.9 %)');
  expect(text).toContain(`${pct}%`);
  expect(text).toContain(`${answered} answered, 3 with a server error. Below the 99.9 % promise`);
  // Only Enterprise is promised an availability.
  const proPage = await proClient.get('/dashboard/usage');
  expect(proPage.status).toBe(200);
  expect(proPage.text).not.toContain('data-testid="availability"');

  const sla = await admin(['sla', '--month', month(), '--json'], { DATABASE_URL: process.env.DATABASE_URL! });
  expect(sla.code, sla.stderr).toBe(0);
  const mine = sla.json.accounts.find((a: { email: string }) => a.email === email);
  expect(mine).toMatchObject({ accountId, answered, failed: 3, met: false });
  expect(mine.ratio).toBeCloseTo(answered / (answered + 3), 10);
  expect(sla.json.accounts.find((a: { email: string }) => a.email === steady.email)).toMatchObject({
    answered: 1,
    failed: 0,
    ratio: 1,
    met: true,
  });
  expect(sla.json.accounts.every((a: { email: string }) => a.email !== pro.email)).toBe(true);
  const human = await admin(['sla', '--month', month()], { DATABASE_URL: process.env.DATABASE_URL! });
  expect(human.stdout).toMatch(
    new RegExp(`${email.replace(/[.]/g, '\\.')}\\s+${answered} answered\\s+3 5xx/503\\s+${pct.replace('.', '\\.')} %\\s+BELOW 99\\.9 %`),
  );
  expect((await admin(['sla'], { DATABASE_URL: process.env.DATABASE_URL! })).code).toBe(2);
}, 90_000);
