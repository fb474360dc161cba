/**
 * A receiver that keeps failing: its deliveries are retried until the retry period is
 * over (3 days in production, shortened here), then the endpoint is disabled, its other
 * pending deliveries stopped, and its owner mailed in the account's language.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccountMail } from '../../server/mail/account-mail.js';
import type { MailMessage } from '../../server/mail/mailer.js';
import { createLogger } from '../../server/platform/logger.js';
import { disabledMail } from '../../server/webhooks/disabled-mail.js';
import { produceEvents } from '../../server/webhooks/producer.js';
import { WebhookWorker } from '../../server/webhooks/worker.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { aListing, copyListing, send } from './helpers.js';
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

it('retries until the period is over, then disables the endpoint and mails its owner', async () => {
  const pro = await t.account('pro');
  const hook = await send(t.baseUrl, 'POST', '/webhook-endpoints', pro.key, { url: receiver.url, events: ['listing.created'] });
  expect(hook.status).toBe(201);
  receiver.answer([], 500);
  const sent: MailMessage[] = [];
  const mail = new AccountMail({
    mailer: { send: async (m) => void sent.push(m), close() {} },
    dashboardUrl: 'http://x/dashboard',
    logger: createLogger('silent'),
  });
  const worker = new WebhookWorker(
    { pool: t.db.pool, logger: createLogger('silent'), onDisabled: disabledMail(t.db.pool, mail) },
    // 3 s of retries 20 to 50 ms apart: several rounds even on a busy machine, where one takes 0.5 s.
    { allowLoopback: true, firstDelayMs: 20, maxDelayMs: 50, retryForMs: 3_000 },
  );
  fresh.push(await copyListing(t.db.pool, (await aListing(t.db.pool)).id));
  fresh.push(await copyListing(t.db.pool, (await aListing(t.db.pool)).id));
  const end = Date.now() + 20_000;
  while (sent.length === 0 && Date.now() < end) {
    await worker.runOnce();
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(sent).toHaveLength(1);
  expect(sent[0].to).toBe(pro.email);
  expect(sent[0].text).toContain(receiver.url);
  const { rows: endpoint } = await t.db.pool.query('SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE id = $1', [
    hook.body.data.id,
  ]);
  expect(endpoint[0].disabled_at).not.toBeNull();
  expect(endpoint[0].disabled_reason).toMatch(/every delivery failed/);
  const { rows } = await t.db.pool.query('SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1', [hook.body.data.id]);
  expect(rows).toHaveLength(2);
  expect(rows.every((r) => r.status === 'failed')).toBe(true);
  expect(Math.max(...rows.map((r) => r.attempts))).toBeGreaterThan(2);
  // Nothing more is sent once disabled.
  const before = receiver.received.length;
  for (let i = 0; i < 5; i++) await worker.runOnce();
  expect(receiver.received.length).toBe(before);
});
