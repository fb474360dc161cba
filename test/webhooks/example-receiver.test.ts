/**
 * The example receiver (examples/08-webhook-receiver.ts), run as users run it: it prints
 * a delivery signed with its secret, once even when sent twice, and refuses a forged one.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, expect, it } from 'vitest';
import { run, type Running } from '../helpers/processes.js';

const secret = `whsec_${Buffer.from('an example secret of 32 bytes!!!').toString('base64')}`;
let receiver: Running | undefined;
afterAll(() => receiver?.child.kill());

it('verifies, prints each event once, and refuses a forged delivery', async () => {
  receiver = run(process.execPath, ['--import', 'tsx', 'examples/08-webhook-receiver.ts', '--port', '0'], { MBOA_WEBHOOK_SECRET: secret });
  const [, url] = await receiver.waitFor(/listening on (\S+)/, 60_000);
  const event = {
    id: 'evt_example00000000001',
    type: 'listing.updated',
    sequence: 7,
    created_at: new Date().toISOString(),
    dataset: 'live',
    data: {
      listing: { id: 'lst_aaaaaaaaaaaaaaaaaaaa', title: 'Appartement à Bonamoussadi', price: 225000, currency: 'XAF' },
      previous: { price: 250000 },
    },
  };
  const body = JSON.stringify(event);
  const now = new Date();
  const headers = {
    'content-type': 'application/json',
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(event.id, now, body),
  };
  expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
  expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
  await receiver.waitFor(/#7 listing\.updated lst_aaaaaaaaaaaaaaaaaaaa/);
  expect(receiver.output().match(/#7 listing\.updated/g)).toHaveLength(1);
  expect(receiver.output()).toContain('(was {"price":250000})');
  const forged = await fetch(url, { method: 'POST', headers, body: body.replace('225000', '1') });
  expect(forged.status).toBe(400);
  await receiver.waitFor(/refused: /);
});
