/**
 * Availability counts Mboa's failures, not the customer's (accounts/availability.ts): a
 * client polling valuations while the instance fits its model (503
 * `valuations_warming_up`, with Retry-After), and running into its own caps on heavy reads
 * (429), keeps its availability at 100 %: nothing is written to monthly_failures, the
 * month reads 100 % in `admin sla`, which states the rule, as the usage page does beside
 * the figure, in English and French.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAvailability } from '../../server/accounts/availability.js';
import { fitModel } from '../../server/domain/valuations/sql.js';
import { admin } from '../helpers/admin.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';
import { signUp, startDashboardServer, textOf } from '../dashboard/helpers.js';

const month = () => new Date().toISOString().slice(0, 7);
const AREA = '/api/v1/market/history?city=Douala&purpose=rent&radius_m=5000';

describe('availability', () => {
  let t: TestServer;
  let release: () => void = () => {};
  beforeAll(async () => {
    const gate = new Promise<void>((resolve) => (release = resolve));
    t = await startTestServer({
      awaitValuations: false,
      // The real fit, held back: the warm-up lasts as long as the test polls.
      server: { valuationFit: async (data, asOf) => (await gate, fitModel(data, asOf)) },
    });
  });
  afterAll(async () => {
    release();
    await t?.close();
  });

  it('stays at 100 % for a client polling valuations during warm-up and meeting its own heavy-read caps', async () => {
    const { id, email, key } = await t.account('enterprise');
    for (let i = 0; i < 3; i++) expect((await get(t.baseUrl, '/api/v1/listings?city=Douala&limit=1', key)).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      const polled = await get(t.baseUrl, '/api/v1/valuations?city=Douala&type=apartment&purpose=rent&bedrooms=2', key);
      expect(polled.status).toBe(503);
      expect(polled.body.code).toBe('valuations_warming_up');
      expect(Number(polled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Four fresh areas at once: one runs, the others meet the concurrency cap (429).
    const areas = await Promise.all([1, 2, 3, 4].map((i) => get(t.baseUrl, `${AREA}&near=${(3.99 + i * 0.013).toFixed(3)},9.71`, key)));
    expect(areas.map((a) => a.status)).toContain(429);
    const answered = 3 + areas.filter((a) => a.status === 200).length;

    release();
    await t.server.fitValuations();
    await t.server.flushUsage();
    // Failures are written every 5 s: past one write, still none for this account.
    await new Promise((ok) => setTimeout(ok, 5_500));
    const { rows } = await t.db.pool.query('SELECT failed FROM monthly_failures WHERE account_id = $1', [id]);
    expect(rows).toEqual([]);
    expect(await accountAvailability(t.db.pool, id, month())).toEqual({ answered, failed: 0, ratio: 1 });

    const sla = await admin(['sla', '--month', month(), '--json'], { DATABASE_URL: process.env.DATABASE_URL! });
    expect(sla.code, sla.stderr).toBe(0);
    expect(sla.json.accounts.find((a: { email: string }) => a.email === email)).toMatchObject({ answered, failed: 0, ratio: 1, met: true });
    expect(sla.json.rule).toMatch(/Not failures: 4xx answers .*503 valuations_warming_up/);
    const human = await admin(['sla', '--month', month()], { DATABASE_URL: process.env.DATABASE_URL! });
    expect(human.stdout).toMatch(
      new RegExp(`${email.replace(/[.]/g, '\\.')}\\s+${answered} answered\\s+0 5xx/503\\s+100\\.000 %\\s+meets 99\\.9 %`),
    );
    expect(human.stdout).toContain("Mboa's failures: 5xx answers");
  }, 90_000);
});

describe('the usage page', () => {
  it('writes the rule beside the figure, in English and in French', async () => {
    const d = await startDashboardServer();
    try {
      const client = d.client();
      await signUp(d, client, { plan: 'enterprise' });
      const en = textOf((await client.get('/dashboard/usage', { 'accept-language': 'en' })).text);
      expect(en).toContain('Availability (promised: 99.9 %)');
      expect(en).toContain(
        'Not counted: your own refusals (4xx, among them 429 for your per-minute limit, your quota and the caps on heavy reads), 503 valuations_warming_up',
      );
      await client.get('/dashboard/lang/fr?next=%2Fusage');
      const fr = textOf((await client.get('/dashboard/usage')).text);
      expect(fr).toContain('Disponibilité (promise : 99,9 %)');
      expect(fr).toContain(
        'Non comptées : vos propres refus (4xx, dont les 429 de votre limite par minute, de votre quota et des plafonds des lectures lourdes), les 503 valuations_warming_up',
      );
    } finally {
      await d.close();
    }
  });
});
