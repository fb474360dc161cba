/**
 * The monthly cap of webhook deliveries per plan (`webhookDeliveriesPerMonth`): the
 * producer queues an account's deliveries up to the cap and keeps the rest unsent
 * (`over_cap`), exactly, two producers at once included; a held delivery is refused on
 * resend while the month is full and sent once there is room; test events never count.
 * Every figure is checked against the deliveries' own rows.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../contract/plans.js';
import { takeDeliveries } from '../../server/accounts/webhook-cap.js';
import { produceEvents } from '../../server/webhooks/producer.js';
import { itOnServer } from '../helpers/requires.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { copyListing, send } from './helpers.js';

let t: TestServer;
let pool: pg.Pool;
const copies: string[] = [];
const PRO_CAP = PLANS.pro.webhookDeliveriesPerMonth;

beforeAll(async () => {
  // No worker: nothing is sent, the deliveries stay as the producer queued them.
  t = await startTestServer({ server: { webhooks: { worker: false, allowLoopback: true } } });
  pool = t.db.pool;
  while ((await produceEvents(pool)) > 0);
});
afterAll(async () => {
  if (copies.length) await pool.query('DELETE FROM listings WHERE id = ANY($1)', [copies]);
  while (pool && (await produceEvents(pool)) > 0);
  await t?.close();
});

async function endpoint(key: string): Promise<string> {
  const res = await send(t.baseUrl, 'POST', '/webhook-endpoints', key, { url: 'http://127.0.0.1:9/hook', events: ['listing.created'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

/** This month's counter row, set as if `used` deliveries had been queued already. */
async function used(accountId: string, deliveries: number) {
  await pool.query(
    `INSERT INTO webhook_usage (account_id, month, deliveries) VALUES ($1, date_trunc('month', now() AT TIME ZONE 'UTC')::date, $2)
     ON CONFLICT (account_id, month) DO UPDATE SET deliveries = excluded.deliveries`,
    [accountId, deliveries],
  );
}

async function counter(accountId: string) {
  const { rows } = await pool.query<{ deliveries: number; over_cap: number }>(
    "SELECT deliveries, over_cap FROM webhook_usage WHERE account_id = $1 AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date",
    [accountId],
  );
  return rows[0];
}

async function statuses(endpointIds: string[]) {
  const { rows } = await pool.query<{ id: string; endpoint_id: string; status: string }>(
    `SELECT d.id, d.endpoint_id, d.status FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
      WHERE d.endpoint_id = ANY($1) ORDER BY e.sequence, d.endpoint_id = $2 DESC`,
    [endpointIds, endpointIds[0]],
  );
  return rows;
}

/** New listings, as an import adds them, turned into events. */
async function newListings(n: number) {
  const { rows } = await pool.query<{ id: string }>(`SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT ${n}`);
  for (const r of rows) copies.push(await copyListing(pool, r.id));
  while ((await produceEvents(pool)) > 0);
}

describe('the monthly cap of webhook deliveries', () => {
  let pro: { id: string; key: string };
  let hooks: string[];

  it('queues deliveries up to the cap, in event order, and keeps the rest unsent as over_cap', async () => {
    pro = await t.account('pro');
    hooks = [await endpoint(pro.key), await endpoint(pro.key)];
    // The first is the older by a second, whatever the clock's resolution: it gets an event's last room.
    await pool.query(`UPDATE webhook_endpoints SET created_at = created_at - interval '1 second' WHERE id = $1`, [hooks[0]]);
    await used(pro.id, PRO_CAP - 3);
    await newListings(3);

    const rows = await statuses(hooks);
    // Three events to two endpoints: the first three deliveries fill the cap (the second event's
    // last room going to the older endpoint).
    expect(rows.map((r) => r.status)).toEqual(['pending', 'pending', 'pending', 'over_cap', 'over_cap', 'over_cap']);
    expect(await counter(pro.id)).toEqual({ deliveries: PRO_CAP, over_cap: 3 });
    // Listed as such in the endpoint's log.
    const log = await send(t.baseUrl, 'GET', `/webhook-endpoints/${hooks[1]}/deliveries`, pro.key);
    expect(log.body.data.map((d: { status: string }) => d.status).sort()).toEqual(['over_cap', 'over_cap', 'pending']);
    expect(log.body.data.find((d: { status: string }) => d.status === 'over_cap')).toMatchObject({ attempts: 0, next_attempt_at: null });
  });

  it('refuses to resend a held delivery while the month is full, then sends it once the plan is larger', async () => {
    const held = (await statuses(hooks)).find((r) => r.status === 'over_cap')!;
    const path = `/webhook-endpoints/${held.endpoint_id}/deliveries/${held.id}/resend`;
    const refused = await send(t.baseUrl, 'POST', path, pro.key);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(refused.body).toMatchObject({ code: 'plan_limit_reached' });
    expect(refused.body.detail).toContain(`This month's ${PRO_CAP.toLocaleString('en')} webhook deliveries of the Pro plan are used`);
    expect((await statuses(hooks)).find((r) => r.id === held.id)!.status).toBe('over_cap');
    expect(await counter(pro.id)).toEqual({ deliveries: PRO_CAP, over_cap: 3 });

    await pool.query("UPDATE accounts SET plan = 'enterprise' WHERE id = $1", [pro.id]);
    const sent = await send(t.baseUrl, 'POST', path, pro.key);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toMatchObject({ id: held.id, status: 'pending' });
    // It takes one of this month's deliveries and is no longer held.
    expect(await counter(pro.id)).toEqual({ deliveries: PRO_CAP + 1, over_cap: 2 });
    const byStatus = await pool.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1) GROUP BY status ORDER BY status',
      [hooks],
    );
    expect(byStatus.rows).toEqual([
      { status: 'over_cap', n: 2 },
      { status: 'pending', n: 4 },
    ]);
  });

  it('never counts nor holds a test event', async () => {
    const other = await t.account('pro');
    const hook = await endpoint(other.key);
    await used(other.id, PRO_CAP);
    const queued = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook}/test`, other.key);
    expect(queued.status, JSON.stringify(queued.body)).toBe(201);
    expect(queued.body.data.status).toBe('pending');
    expect(await counter(other.id)).toEqual({ deliveries: PRO_CAP, over_cap: 0 });
  });

  itOnServer('the embedded database serves one session, so two transactions cannot be open at once')(
    'is exact when two producers take deliveries of one account at once: the second waits, then gets what is left',
    async () => {
      const account = await t.account('pro');
      await used(account.id, PRO_CAP - 3);
      const a = await pool.connect();
      const b = await pool.connect();
      try {
        await a.query('BEGIN');
        await b.query('BEGIN');
        const first = await takeDeliveries(a, new Map([[account.id, { plan: 'pro', count: 2 }]]), new Date());
        let secondDone = false;
        const second = takeDeliveries(b, new Map([[account.id, { plan: 'pro', count: 2 }]]), new Date()).then((s) => {
          secondDone = true;
          return s;
        });
        // The second waits on the first's row lock until it commits.
        await new Promise((r) => setTimeout(r, 300));
        expect(secondDone).toBe(false);
        await a.query('COMMIT');
        const got = await second;
        await b.query('COMMIT');
        expect(first.get(account.id)!.allowed).toBe(2);
        expect(got.get(account.id)!.allowed).toBe(1);
        expect(await counter(account.id)).toEqual({ deliveries: PRO_CAP, over_cap: 1 });
      } finally {
        a.release();
        b.release();
      }
    },
  );
});
