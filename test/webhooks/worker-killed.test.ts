/**
 * A worker killed (SIGKILL) while a delivery is in flight loses nothing: once its lease
 * is over, another worker sends the delivery again, with the same `webhook-id`.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../server/platform/logger.js';
import { produceEvents } from '../../server/webhooks/producer.js';
import { WebhookWorker } from '../../server/webhooks/worker.js';
import { run } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { aListing, copyListing, send } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: TestServer;
let receiver: Receiver;
let fresh: string | undefined;

beforeAll(async () => {
  t = await startTestServer({ server: { webhooks: { allowLoopback: true, worker: false } }, awaitValuations: false });
  receiver = await startReceiver();
  await t.db.pool.query('DELETE FROM webhook_endpoints');
  while ((await produceEvents(t.db.pool)) > 0);
});
afterAll(async () => {
  if (fresh) await t.db.pool.query('DELETE FROM listings WHERE id = $1', [fresh]);
  await receiver?.close();
  await t?.close();
});

it('a delivery in flight when its worker is killed is sent again by another, same id', async () => {
  const pro = await t.account('pro');
  const made = await send(t.baseUrl, 'POST', '/webhook-endpoints', pro.key, { url: receiver.url, events: ['listing.created'] });
  expect(made.status).toBe(201);
  receiver.answer(['hang'], 200);
  fresh = await copyListing(t.db.pool, (await aListing(t.db.pool)).id);

  const child = run(process.execPath, ['--import', 'tsx', 'test/webhooks/worker-process.ts'], { LEASE_MS: '2000' });
  await child.waitFor(/worker ready/, 30_000);
  const deadline = Date.now() + 30_000;
  while (receiver.received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(receiver.received).toHaveLength(1);
  child.child.kill('SIGKILL');
  await child.exited(10_000);

  const { rows: leased } = await t.db.pool.query('SELECT status, attempts, lease_until FROM webhook_deliveries WHERE endpoint_id = $1', [
    made.body.data.id,
  ]);
  expect(leased).toHaveLength(1);
  expect(leased[0]).toMatchObject({ status: 'pending', attempts: 1 });
  expect(leased[0].lease_until).not.toBeNull();

  const worker = new WebhookWorker({ pool: t.db.pool, logger: createLogger('silent') }, { allowLoopback: true, timeoutMs: 2_000 });
  // Within its lease, nobody else takes it.
  expect(await worker.runOnce()).toBe(0);
  const end = Date.now() + 20_000;
  let status = 'pending';
  while (status !== 'delivered' && Date.now() < end) {
    await worker.runOnce();
    const { rows } = await t.db.pool.query('SELECT status FROM webhook_deliveries WHERE endpoint_id = $1', [made.body.data.id]);
    status = rows[0].status;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(status).toBe('delivered');
  expect(receiver.received).toHaveLength(2);
  expect(receiver.received[1].headers['webhook-id']).toBe(receiver.received[0].headers['webhook-id']);
  expect(receiver.received[1].body).toBe(receiver.received[0].body);
  const { rows } = await t.db.pool.query('SELECT attempts FROM webhook_deliveries WHERE endpoint_id = $1', [made.body.data.id]);
  expect(rows[0].attempts).toBe(2);
  await t.db.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [made.body.data.id]);
});
