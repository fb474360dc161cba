/**
 * A webhook receiver on plain node:http: it verifies each delivery's signature with the
 * SDK (`webhooks.unwrap`, the raw body as received), prints the event, and answers 204.
 * A delivery that does not verify gets a 400 (Mboa retries it; a 410 would disable the
 * endpoint). Events may come twice (at-least-once): dedupe on `event.id`.
 *
 *   npx tsx examples/08-webhook-receiver.ts --register    # a saved search and an endpoint on this receiver (demo: loopback allowed)
 *   MBOA_WEBHOOK_SECRET=whsec_… npx tsx examples/08-webhook-receiver.ts --port 4000
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhooks, WebhookVerificationError } from '@mboa/sdk';
import { client, flags, run } from './shared.js';

const USAGE = `
Receives Mboa webhooks, verifies them and prints the events.
  --port N       port on 127.0.0.1 (default 4000; 0: any free port)
  --register     create a saved search (--city) and an endpoint on this receiver with the demo Pro key
  --city NAME    the saved search's city (default Douala)
Without --register, set MBOA_WEBHOOK_SECRET to your endpoint's whsec_… secret.`;

const values = flags(USAGE, {
  port: { type: 'string', default: '4000' },
  register: { type: 'boolean', default: false },
  city: { type: 'string', default: 'Douala' },
});

run(async () => {
  const seen = new Set<string>();
  let secret = process.env.MBOA_WEBHOOK_SECRET ?? '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = webhooks.unwrap(Buffer.concat(chunks).toString('utf8'), req.headers, secret);
        if (!seen.has(event.id)) {
          seen.add(event.id);
          const l = event.data.listing;
          const change = event.data.previous ? ` (was ${JSON.stringify(event.data.previous)})` : '';
          console.log(`#${event.sequence} ${event.type} ${l.id} ${l.title} — ${l.price} ${l.currency}${change}`);
        }
        res.writeHead(204).end();
      } catch (err) {
        console.error(err instanceof WebhookVerificationError ? `refused: ${err.message}` : err);
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(Number(values.port), '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mboa`;
  console.log(`listening on ${url}`);

  if (values.register) {
    const mboa = client('pro');
    const { data: search } = await mboa.savedSearches.create({ name: `New in ${values.city}`, filters: { city: values.city } });
    const { data: endpoint } = await mboa.webhookEndpoints.create({
      url,
      events: ['listing.created', 'listing.updated', 'listing.removed', 'saved_search.matched', 'saved_search.unmatched'],
      saved_searches: [search.id],
    });
    secret = endpoint.secret;
    console.log(`saved search ${search.id}, endpoint ${endpoint.id}: import a feed to see its events here`);
  }
  if (!secret) throw new Error('Set MBOA_WEBHOOK_SECRET (the whsec_… of your endpoint) or pass --register.');
  // Serves until stopped (Ctrl-C).
  await new Promise<never>(() => {});
});
