/**
 * Events from a real import: the importer changes listings, the events say exactly what
 * changed (created, a price cut with its `previous`, a withdrawal by a `full` import), a
 * listing the feed repeats unchanged gives none, and the contacts the feed carries never
 * leave in a payload.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import { createLogger } from '../../server/platform/logger.js';
import { produceEvents } from '../../server/webhooks/producer.js';
import { WebhookWorker } from '../../server/webhooks/worker.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { removeSource, testSource, toJsonLines, workdir } from '../ingest/helpers.js';
import { send } from './helpers.js';
import { type Receiver, startReceiver } from './receiver.js';

let t: TestServer;
let receiver: Receiver;
const source = testSource();
const work = workdir();

beforeAll(async () => {
  t = await startTestServer({ server: { webhooks: { allowLoopback: true, worker: false } }, awaitValuations: false });
  receiver = await startReceiver();
  await t.db.pool.query('DELETE FROM webhook_endpoints');
  while ((await produceEvents(t.db.pool)) > 0);
});
afterAll(async () => {
  await removeSource(t.db, source);
  work.remove();
  await receiver?.close();
  await t?.close();
});

const row = (ref: string, price: number) => ({
  source_ref: ref,
  price,
  city: 'Yaoundé',
  neighborhood: 'Bastos',
  type: 'villa',
  purpose: 'sale',
  bedrooms: 5,
  surface: 400 + price / 1_000_000,
  title: `Villa ${ref}`,
  contact_name: 'Madame Privée',
  contact_phone: '+237 677 12 34 56',
  contact_email: 'vendeur.prive@example.cm',
});

async function deliveredTypes(worker: WebhookWorker): Promise<string[]> {
  const before = receiver.received.length;
  let idle = 0;
  // Rounds until nothing is left to produce or send.
  while (idle < 3) {
    const sent = await worker.runOnce();
    idle = sent === 0 ? idle + 1 : 0;
  }
  return receiver.received
    .slice(before)
    .map((r) => JSON.parse(r.body).type as string)
    .sort();
}

it('an import and a full re-import produce the events of what they changed, and only those', async () => {
  const pro = await t.account('pro');
  const search = await send(t.baseUrl, 'POST', '/saved-searches', pro.key, {
    name: 'Villas in Bastos over 200 M',
    filters: { city: 'Yaoundé', neighborhood: 'Bastos', type: 'villa', min_price: 200_000_000 },
  });
  expect(search.status).toBe(201);
  const hook = await send(t.baseUrl, 'POST', '/webhook-endpoints', pro.key, {
    url: receiver.url,
    events: ['listing.created', 'listing.updated', 'listing.removed', 'saved_search.matched', 'saved_search.unmatched'],
    saved_searches: [search.body.data.id],
  });
  expect(hook.status).toBe(201);
  const worker = new WebhookWorker({ pool: t.db.pool, logger: createLogger('silent') }, { allowLoopback: true });

  const first = work.write('first.ndjson', toJsonLines([row('a', 250_000_000), row('b', 310_000_000), row('c', 420_000_000)]));
  await importFile(t.db.pool, { file: first, format: 'ndjson', source, now: new Date('2026-11-26T06:00:00Z') });
  expect(await deliveredTypes(worker)).toEqual([
    'listing.created',
    'listing.created',
    'listing.created',
    'saved_search.matched',
    'saved_search.matched',
    'saved_search.matched',
  ]);

  // b cut below the search's floor, c gone from a full feed, a unchanged.
  const second = work.write('second.ndjson', toJsonLines([row('a', 250_000_000), row('b', 190_000_000)]));
  await importFile(t.db.pool, { file: second, format: 'ndjson', source, full: true, now: new Date('2026-11-27T06:00:00Z') });
  const start = receiver.received.length;
  expect(await deliveredTypes(worker)).toEqual(['listing.removed', 'listing.updated', 'saved_search.unmatched', 'saved_search.unmatched']);
  const events = receiver.received.slice(start).map((r) => JSON.parse(r.body));
  const updated = events.find((e) => e.type === 'listing.updated');
  expect(updated.data.listing.price).toBe(190_000_000);
  expect(updated.data.previous.price).toBe(310_000_000);
  expect(updated.data.listing.title).toBe('Villa b');
  const removed = events.find((e) => e.type === 'listing.removed');
  expect(removed.data.listing.title).toBe('Villa c');
  expect(removed.data.listing.status).toBe('withdrawn');
  expect(removed.data.previous.status).toBe('active');

  for (const r of receiver.received) {
    for (const secret of ['677 12 34 56', 'vendeur.prive', 'Madame Privée', source]) expect(r.body).not.toContain(secret);
  }
});
