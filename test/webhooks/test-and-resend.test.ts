/**
 * A test event and a resend through the API, over a real server whose own worker delivers
 * to a loopback receiver: the test event is a signed `webhook.test` of the public sample,
 * tried once; a resend carries the same webhook-id and body, and its retries count from
 * the resend (an old event resent never gives up at once).
 */
import { Mboa, webhooks } from '@mboa/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { send } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestServer({
    server: { webhooks: { allowLoopback: true, pollMs: 100, firstDelayMs: 60_000, leaseMs: 5_000, timeoutMs: 2_000 } },
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function endpoint(key: string) {
  const res = await send(t.baseUrl, 'POST', '/webhook-endpoints', key, { url: receiver.url, events: ['listing.created'] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

async function deliveryOf(key: string, endpointId: string, deliveryId: string) {
  const log = await send(t.baseUrl, 'GET', `/webhook-endpoints/${endpointId}/deliveries`, key);
  return log.body.data.find((d: any) => d.id === deliveryId);
}

const receivedWith = (id: string) => receiver.received.filter((r) => r.headers['webhook-id'] === id);

describe('a test event', () => {
  it('is a signed webhook.test of the public sample, delivered to that endpoint only, logged', async () => {
    const pro = await t.account('pro');
    const hook = await endpoint(pro.key);
    const other = await endpoint(pro.key);
    const queued = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/test`, pro.key);
    expect(queued.status, JSON.stringify(queued.body)).toBe(201);
    expect(queued.body.data).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0 });
    const eventId = queued.body.data.event_id;
    await expect.poll(() => receivedWith(eventId).length, { timeout: 10_000 }).toBe(1);
    const got = receivedWith(eventId)[0];
    // Verified with the endpoint's secret by the reference library.
    const event = new Webhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as any;
    expect(event).toMatchObject({ id: eventId, type: 'webhook.test', dataset: 'sample' });
    expect(event.data.listing.id).toMatch(/^lst_/);
    const sample = await t.db.pool.query('SELECT 1 FROM sample.listings WHERE id = $1', [event.data.listing.id]);
    expect(sample.rowCount).toBe(1);
    expect(got.body).not.toMatch(/contact|street_address|source_ref/);
    await expect.poll(async () => (await deliveryOf(pro.key, hook.id, queued.body.data.id))?.status).toBe('delivered');
    const logged = await deliveryOf(pro.key, hook.id, queued.body.data.id);
    expect(logged).toMatchObject({ attempts: 1, last_status: 200, body: got.body });
    expect(logged.latency_ms).toBeGreaterThanOrEqual(0);
    // The other endpoint got nothing.
    expect((await send(t.baseUrl, 'GET', `/webhook-endpoints/${other.id}/deliveries`, pro.key)).body.data).toEqual([]);
  });

  it('is tried once: a failure is logged as failed and leaves the endpoint enabled', async () => {
    const pro = await t.account('pro');
    const hook = await endpoint(pro.key);
    receiver.answer([500]);
    const queued = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/test`, pro.key);
    await expect.poll(async () => (await deliveryOf(pro.key, hook.id, queued.body.data.id))?.status, { timeout: 10_000 }).toBe('failed');
    expect(await deliveryOf(pro.key, hook.id, queued.body.data.id)).toMatchObject({ attempts: 1, last_status: 500 });
    const list = await send(t.baseUrl, 'GET', '/webhook-endpoints', pro.key);
    expect(list.body.data[0].status).toBe('enabled');
  });

  it("is refused for another account's endpoint (404) and for a disabled one (400)", async () => {
    const pro = await t.account('pro');
    const stranger = await t.account('pro');
    const hook = await endpoint(pro.key);
    const foreign = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/test`, stranger.key);
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);
    await t.db.pool.query(
      "UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'the receiver answered 410 Gone' WHERE id = $1",
      [hook.id],
    );
    const disabled = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/test`, pro.key);
    expect([disabled.status, disabled.body.code, disabled.body.errors[0].path]).toEqual([400, 'validation_error', 'id']);
    const count = await t.db.pool.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [hook.id]);
    expect(count.rows[0].n).toBe(0);
  });
});

describe('a resend', () => {
  it('sends the same event again: same webhook-id, same body, signed afresh', async () => {
    const pro = await t.account('pro');
    const hook = await endpoint(pro.key);
    const queued = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/test`, pro.key);
    const { id, event_id: eventId } = queued.body.data;
    await expect.poll(async () => (await deliveryOf(pro.key, hook.id, id))?.status, { timeout: 10_000 }).toBe('delivered');
    const again = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/deliveries/${id}/resend`, pro.key);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ id, event_id: eventId, status: 'pending' });
    expect(again.body.data.resent_at).not.toBeNull();
    await expect.poll(() => receivedWith(eventId).length, { timeout: 10_000 }).toBe(2);
    const [first, second] = receivedWith(eventId);
    expect(second.body).toBe(first.body);
    new Webhook(hook.secret).verify(second.body, second.headers as Record<string, string>);
    await expect.poll(async () => (await deliveryOf(pro.key, hook.id, id))?.status).toBe('delivered');
    expect((await deliveryOf(pro.key, hook.id, id)).attempts).toBe(2);
  });

  it('of an event older than the retry window is retried, not given up (the endpoint stays enabled)', async () => {
    const pro = await t.account('pro');
    const hook = await endpoint(pro.key);
    const queued = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/test`, pro.key);
    const { id } = queued.body.data;
    await expect.poll(async () => (await deliveryOf(pro.key, hook.id, id))?.status, { timeout: 10_000 }).toBe('delivered');
    // A real event (not a test) of 4 days ago, delivered then.
    await t.db.pool.query(
      "UPDATE webhook_events SET type = 'listing.created' WHERE id = (SELECT event_id FROM webhook_deliveries WHERE id = $1)",
      [id],
    );
    await t.db.pool.query("UPDATE webhook_deliveries SET created_at = now() - interval '4 days' WHERE id = $1", [id]);
    receiver.answer([503]);
    const again = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/deliveries/${id}/resend`, pro.key);
    expect(again.status).toBe(200);
    await expect.poll(async () => (await deliveryOf(pro.key, hook.id, id))?.last_status, { timeout: 10_000 }).toBe(503);
    const after = await deliveryOf(pro.key, hook.id, id);
    expect(after.status).toBe('pending');
    expect(new Date(after.next_attempt_at).getTime()).toBeGreaterThan(Date.now());
    const list = await send(t.baseUrl, 'GET', '/webhook-endpoints', pro.key);
    expect(list.body.data.find((e: any) => e.id === hook.id).status).toBe('enabled');
  });

  it('of an unknown delivery, or of another endpoint, is a 404', async () => {
    const pro = await t.account('pro');
    const a = await endpoint(pro.key);
    const b = await endpoint(pro.key);
    const queued = await send(t.baseUrl, 'POST', `/webhook-endpoints/${a.id}/test`, pro.key);
    const wrong = await send(t.baseUrl, 'POST', `/webhook-endpoints/${b.id}/deliveries/${queued.body.data.id}/resend`, pro.key);
    expect([wrong.status, wrong.body.code]).toEqual([404, 'not_found']);
    const unknown = await send(t.baseUrl, 'POST', `/webhook-endpoints/${a.id}/deliveries/whd_aaaaaaaaaaaaaaaa/resend`, pro.key);
    expect(unknown.status).toBe(404);
    const malformed = await send(t.baseUrl, 'POST', `/webhook-endpoints/${a.id}/deliveries/nope/resend`, pro.key);
    expect([malformed.status, malformed.body.code]).toEqual([400, 'validation_error']);
  });
});

describe('the SDK', () => {
  it('sends a test event and resends it (webhookEndpoints.test / resend); webhooks.unwrap reads the webhook.test event', async () => {
    const pro = await t.account('pro');
    const mboa = new Mboa({ apiKey: pro.key, baseUrl: t.baseUrl, maxRetries: 0 });
    const { data: hook } = await mboa.webhookEndpoints.create({ url: receiver.url, events: ['listing.updated'] });
    const { data: queued } = await mboa.webhookEndpoints.test(hook.id);
    expect(queued).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
    await expect.poll(() => receivedWith(queued.event_id).length, { timeout: 10_000 }).toBe(1);
    const first = receivedWith(queued.event_id)[0];
    const event = webhooks.unwrap(first.body, first.headers, hook.secret);
    expect([event.type, event.dataset, event.id]).toEqual(['webhook.test', 'sample', queued.event_id]);
    await expect.poll(async () => (await mboa.webhookEndpoints.deliveries(hook.id)).data[0].status).toBe('delivered');
    const { data: again } = await mboa.webhookEndpoints.resend(hook.id, queued.id);
    expect(again.event_id).toBe(queued.event_id);
    await expect.poll(() => receivedWith(queued.event_id).length, { timeout: 10_000 }).toBe(2);
    expect(webhooks.unwrap(receivedWith(queued.event_id)[1].body, receivedWith(queued.event_id)[1].headers, hook.secret).id).toBe(event.id);
  });
});
