/**
 * Webhooks end to end over a real server, PostgreSQL and a loopback receiver: endpoints and
 * their plan limits, events produced from listings changed as an import changes them,
 * Standard Webhooks signatures checked by the `standardwebhooks` package and by hand,
 * private fields never sent, retries across a failing receiver with the same id, 410.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../contract/plans.js';
import { createLogger } from '../../server/platform/logger.js';
import { produceEvents } from '../../server/webhooks/producer.js';
import { WebhookWorker } from '../../server/webhooks/worker.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { aListing, copyListing, send } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: TestServer;
let receiver: Receiver;
let worker: WebhookWorker;
const restore: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  // The server's own worker is off: the tests run rounds themselves, so each step is seen.
  t = await startTestServer({ server: { webhooks: { allowLoopback: true, worker: false } }, awaitValuations: false });
  receiver = await startReceiver();
  await t.db.pool.query('DELETE FROM webhook_endpoints');
  // Changes noted before (the seed): nobody listens to them.
  while ((await produceEvents(t.db.pool)) > 0);
  worker = new WebhookWorker(
    { pool: t.db.pool, logger: createLogger('silent') },
    { allowLoopback: true, firstDelayMs: 50, maxDelayMs: 200, leaseMs: 1_500, timeoutMs: 1_000 },
  );
});
afterAll(async () => {
  for (const undo of restore.reverse()) await undo();
  await receiver?.close();
  await t?.close();
});

/** Worker rounds until `done()` holds. */
async function until(done: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('timed out');
    await worker.runOnce();
    await new Promise((r) => setTimeout(r, 30));
  }
}

async function endpoint(key: string, body: object) {
  const res = await send(t.baseUrl, 'POST', '/webhook-endpoints', key, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const eventsOf = (type: string) => receiver.received.map((r) => ({ ...r, event: JSON.parse(r.body) })).filter((r) => r.event.type === type);

describe('webhook endpoints', () => {
  it('show the secret once, list without it, and keep to the plan', async () => {
    const pro = await t.account('pro');
    const made = await endpoint(pro.key, { url: receiver.url, events: ['listing.created'] });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const list = await send(t.baseUrl, 'GET', '/webhook-endpoints', pro.key);
    expect(list.body.data).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(made.secret.slice(6));
    for (let i = 1; i < PLANS.pro.maxWebhookEndpoints; i++) await endpoint(pro.key, { url: receiver.url, events: ['listing.created'] });
    const over = await send(t.baseUrl, 'POST', '/webhook-endpoints', pro.key, { url: receiver.url, events: ['listing.created'] });
    expect(over.status).toBe(403);
    expect(over.body.code).toBe('plan_limit_reached');
    const starter = await t.account('starter');
    expect(
      (await send(t.baseUrl, 'POST', '/webhook-endpoints', starter.key, { url: receiver.url, events: ['listing.created'] })).status,
    ).toBe(403);
    await t.db.pool.query('DELETE FROM webhook_endpoints WHERE account_id = $1', [pro.id]);
  });

  it('refuse URLs that are not https on a public address (metadata, private, link-local), even with loopback allowed', async () => {
    const pro = await t.account('pro');
    for (const url of [
      'https://169.254.169.254/latest/meta-data',
      'https://10.1.2.3/hook',
      'https://192.168.1.10/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
      'ftp://example.cm/hook',
      'http://example.cm/hook',
      'https://user:pw@example.cm/hook',
    ]) {
      const res = await send(t.baseUrl, 'POST', '/webhook-endpoints', pro.key, { url, events: ['listing.created'] });
      expect(res.status, url).toBe(400);
      expect(res.body.errors[0].path).toBe('url');
    }
  });
});

describe('events', () => {
  it('are produced from changed listings, signed, with public fields only; a price cut carries `previous`', async () => {
    const pro = await t.account('pro');
    const base = await aListing(t.db.pool);
    const search = await send(t.baseUrl, 'POST', '/saved-searches', pro.key, {
      name: 'quarter',
      filters: { city: base.city, neighborhood: base.neighborhood },
    });
    expect(search.status).toBe(201);
    const hook = await endpoint(pro.key, {
      url: receiver.url,
      events: ['listing.created', 'listing.updated', 'listing.removed', 'saved_search.matched', 'saved_search.unmatched'],
      saved_searches: [search.body.data.id],
    });
    receiver.received.length = 0;

    // A new listing (with contacts), then a price cut, then a withdrawal.
    const fresh = await copyListing(t.db.pool, base.id);
    restore.push(() => t.db.pool.query('DELETE FROM listings WHERE id = $1', [fresh]));
    await until(() => eventsOf('listing.created').length === 1 && eventsOf('saved_search.matched').length === 1);
    const oldPrice = Number(base.price);
    await t.db.pool.query('UPDATE listings SET price = $2, updated_at = now() WHERE id = $1', [fresh, Math.round(oldPrice * 0.9)]);
    await until(() => eventsOf('listing.updated').length === 1);
    await t.db.pool.query("UPDATE listings SET status = 'withdrawn', removed_at = now() WHERE id = $1", [fresh]);
    await until(() => eventsOf('listing.removed').length === 1 && eventsOf('saved_search.unmatched').length === 1);

    const updated = eventsOf('listing.updated')[0].event;
    expect(updated.data.listing.id).toBe(fresh);
    expect(updated.data.listing.price).toBe(Math.round(oldPrice * 0.9));
    expect(updated.data.previous).toEqual({
      price: oldPrice,
      ...(updated.data.previous.price_per_m2 !== undefined ? { price_per_m2: updated.data.previous.price_per_m2 } : {}),
    });
    expect(eventsOf('listing.removed')[0].event.data.previous.status).toBe('active');
    expect(eventsOf('saved_search.matched')[0].event.data.saved_search_id).toBe(search.body.data.id);

    const sequences = receiver.received.map((r) => JSON.parse(r.body).sequence as number);
    expect(new Set(sequences).size).toBe(sequences.length);
    for (const r of receiver.received) {
      // Private fields never leave, whatever the event.
      for (const secret of ['699 00 11 22', 'owner.secret', 'Secretname', 'rue Privée', 'source_ref', 'contact'])
        expect(r.body).not.toContain(secret);
      const event = JSON.parse(r.body);
      expect(event).toMatchObject({ dataset: 'live', id: r.headers['webhook-id'] });
      // Verified by the reference library…
      expect(new Webhook(hook.secret).verify(r.body, r.headers as Record<string, string>)).toEqual(event);
      // …and by hand: base64 HMAC-SHA256 of id.timestamp.body with the secret's bytes.
      const key = Buffer.from(hook.secret.slice('whsec_'.length), 'base64');
      const mac = createHmac('sha256', key)
        .update(`${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`)
        .digest('base64');
      expect(r.headers['webhook-signature']).toBe(`v1,${mac}`);
      expect(() =>
        new Webhook(hook.secret).verify(r.body.replace('"dataset":"live"', '"dataset":"sample"'), r.headers as Record<string, string>),
      ).toThrow();
    }
    const log = await send(t.baseUrl, 'GET', `/webhook-endpoints/${hook.id}/deliveries`, pro.key);
    expect(log.status).toBe(200);
    expect(log.body.data.every((d: { status: string; attempts: number }) => d.status === 'delivered' && d.attempts === 1)).toBe(true);
    expect(log.body.data).toHaveLength(receiver.received.length);
    await t.db.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [hook.id]);
  });

  it('are retried across a receiver that fails then recovers, with the same webhook-id; both secrets sign during a rotation', async () => {
    const pro = await t.account('pro');
    const hook = await endpoint(pro.key, { url: receiver.url, events: ['listing.created'] });
    const rotated = await send(t.baseUrl, 'POST', `/webhook-endpoints/${hook.id}/rotate-secret`, pro.key);
    expect(rotated.status).toBe(200);
    receiver.received.length = 0;
    receiver.answer([500, 503, 'hang'], 200);
    const base = await aListing(t.db.pool);
    const fresh = await copyListing(t.db.pool, base.id);
    restore.push(() => t.db.pool.query('DELETE FROM listings WHERE id = $1', [fresh]));
    await until(async () => {
      const { rows } = await t.db.pool.query('SELECT status FROM webhook_deliveries WHERE endpoint_id = $1', [hook.id]);
      return rows[0]?.status === 'delivered';
    });
    expect(receiver.received.length).toBe(4);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const { rows } = await t.db.pool.query('SELECT attempts, last_status FROM webhook_deliveries WHERE endpoint_id = $1', [hook.id]);
    expect(rows[0]).toEqual({ attempts: 4, last_status: 200 });
    // Two signatures during the rotation: the new secret's and the old one's, each verifies.
    const last = receiver.received[3];
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated.body.data.secret).verify(last.body, last.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(hook.secret).verify(last.body, last.headers as Record<string, string>)).not.toThrow();
    await t.db.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [hook.id]);
  });

  it('stop at a 410: the endpoint is disabled at once', async () => {
    const pro = await t.account('pro');
    const hook = await endpoint(pro.key, { url: receiver.url, events: ['listing.created'] });
    receiver.received.length = 0;
    receiver.answer([410], 200);
    const fresh = await copyListing(t.db.pool, (await aListing(t.db.pool)).id);
    restore.push(() => t.db.pool.query('DELETE FROM listings WHERE id = $1', [fresh]));
    await until(async () => (await send(t.baseUrl, 'GET', '/webhook-endpoints', pro.key)).body.data[0].status === 'disabled');
    const list = await send(t.baseUrl, 'GET', '/webhook-endpoints', pro.key);
    expect(list.body.data[0].disabled_reason).toMatch(/410/);
    expect(receiver.received).toHaveLength(1);
    await t.db.pool.query('DELETE FROM webhook_endpoints WHERE id = $1', [hook.id]);
  });
});
