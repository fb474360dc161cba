/**
 * The SDK against a real server: saved searches and webhook endpoints managed through
 * `@mboa/sdk`, and the deliveries the server really sent verified and unwrapped by
 * `webhooks.unwrap()`; a message signed by the reference library verifies too, and any
 * tampering, a wrong secret or an old timestamp is refused.
 */
import { Mboa, PlanLimitReachedError, ValidationError, WebhookVerificationError, webhooks } from '@mboa/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS } from '../../contract/plans.js';
import { createLogger } from '../../server/platform/logger.js';
import { produceEvents } from '../../server/webhooks/producer.js';
import { WebhookWorker } from '../../server/webhooks/worker.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { aListing, copyListing } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: TestServer;
let receiver: Receiver;
const fresh: string[] = [];

beforeAll(async () => {
  t = await startTestServer({ server: { webhooks: { allowLoopback: true, worker: false } }, awaitValuations: false });
  receiver = await startReceiver();
  await t.db.pool.query('DELETE FROM webhook_endpoints');
  while ((await produceEvents(t.db.pool)) > 0);
});
afterAll(async () => {
  for (const id of fresh) await t.db.pool.query('DELETE FROM listings WHERE id = $1', [id]);
  await receiver?.close();
  await t?.close();
});

describe('the SDK', () => {
  it('manages saved searches and endpoints, and unwraps the deliveries of a real server', async () => {
    const account = await t.account('pro');
    const mboa = new Mboa({ apiKey: account.key, baseUrl: t.baseUrl, maxRetries: 0 });
    const base = await aListing(t.db.pool);
    const { data: search } = await mboa.savedSearches.create({
      name: 'quarter',
      filters: {
        city: base.city,
        neighborhood: base.neighborhood,
        type: ['apartment', 'villa', 'house', 'studio', 'duplex', 'room', 'land', 'office', 'shop', 'warehouse'],
      },
    });
    expect(search.filters.neighborhood).toBe(base.neighborhood);
    expect((await mboa.savedSearches.list()).data.map((s) => s.id)).toEqual([search.id]);
    const page = await mboa.savedSearches.listings(search.id, { limit: 5 });
    expect(page.meta.total).toBeGreaterThan(0);
    await expect(mboa.savedSearches.create({ name: 'x', filters: { city: 'Nowhereville' } })).rejects.toBeInstanceOf(ValidationError);

    const { data: endpoint } = await mboa.webhookEndpoints.create({
      url: receiver.url,
      events: ['saved_search.matched'],
      saved_searches: [search.id],
    });
    expect(endpoint.secret).toMatch(/^whsec_/);
    receiver.received.length = 0;
    fresh.push(await copyListing(t.db.pool, base.id));
    const worker = new WebhookWorker({ pool: t.db.pool, logger: createLogger('silent') }, { allowLoopback: true });
    for (let i = 0; i < 100 && receiver.received.length === 0; i++) await worker.runOnce();
    expect(receiver.received).toHaveLength(1);
    const delivery = receiver.received[0];

    const event = mboa.webhooks.unwrap(delivery.body, delivery.headers, endpoint.secret);
    expect(event).toMatchObject({
      type: 'saved_search.matched',
      dataset: 'live',
      data: { saved_search_id: search.id, listing: { id: fresh[0] } },
    });
    expect(event.id).toBe(delivery.headers['webhook-id']);
    // A fetch-style Headers object does as well.
    expect(webhooks.verify(delivery.body, new Headers(delivery.headers as Record<string, string>), endpoint.secret)).toBe(true);
    expect(() => webhooks.unwrap(delivery.body.replace(fresh[0], 'lst_aaaaaaaaaaaaaaaaaaaa'), delivery.headers, endpoint.secret)).toThrow(
      WebhookVerificationError,
    );
    const { data: rotated } = await mboa.webhookEndpoints.rotateSecret(endpoint.id);
    expect(() => webhooks.verify(delivery.body, delivery.headers, rotated.secret)).toThrow(WebhookVerificationError);
    expect(() => webhooks.verify(delivery.body, { ...delivery.headers, 'webhook-signature': undefined }, endpoint.secret)).toThrow(
      /webhook-signature/,
    );

    const log = await mboa.webhookEndpoints.deliveries(endpoint.id);
    expect(log.data[0]).toMatchObject({ event_id: event.id, status: 'delivered', attempts: 1, body: delivery.body });
    await mboa.webhookEndpoints.delete(endpoint.id);
    expect((await mboa.webhookEndpoints.list()).data).toEqual([]);
    await mboa.savedSearches.delete(search.id);
  });

  it('verifies what the reference library signs, and refuses an old timestamp', () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const body = JSON.stringify({
      id: 'evt_1',
      type: 'listing.created',
      sequence: 1,
      created_at: new Date().toISOString(),
      dataset: 'live',
      data: {},
    });
    const now = new Date();
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_1', now, body),
    };
    expect(webhooks.unwrap(body, headers, secret).id).toBe('evt_1');
    const old = new Date(now.getTime() - 10 * 60_000);
    const stale = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(old.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_1', old, body),
    };
    expect(() => webhooks.verify(body, stale, secret)).toThrow(WebhookVerificationError);
  });

  it('throws PlanLimitReachedError past the plan', async () => {
    const account = await t.account('pro');
    const mboa = new Mboa({ apiKey: account.key, baseUrl: t.baseUrl, maxRetries: 0 });
    for (let i = 0; i < PLANS.pro.maxWebhookEndpoints; i++)
      await mboa.webhookEndpoints.create({ url: receiver.url, events: ['listing.created'] });
    await expect(mboa.webhookEndpoints.create({ url: receiver.url, events: ['listing.created'] })).rejects.toBeInstanceOf(
      PlanLimitReachedError,
    );
    await t.db.pool.query('DELETE FROM webhook_endpoints WHERE account_id = $1', [account.id]);
  });
});
