/**
 * The webhooks page over a real server, its own delivery worker and a loopback receiver:
 * add an endpoint (its secret shown once), the API's view of it, a test event verified with
 * that secret, the delivery log, a resend with the same webhook-id, a rotation (both
 * secrets sign), deletion; refusals (plan, URL, CSRF, another account, a disabled endpoint)
 * and the French page.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyListing } from '../webhooks/helpers.js';
import { type Receiver, startReceiver } from '../webhooks/receiver.js';
import { apiGet, type Client, type DashboardServer, signUp, startDashboardServer, textOf } from './helpers.js';

let t: DashboardServer;
let receiver: Receiver;

beforeAll(async () => {
  t = await startDashboardServer({ webhooks: { allowLoopback: true, pollMs: 100, firstDelayMs: 60_000, timeoutMs: 2_000 } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

function secretOf(html: string): string {
  const m = /data-testid="new-secret">(whsec_[A-Za-z0-9+/=]+)</.exec(html);
  if (!m) throw new Error(`no secret shown: ${textOf(html).slice(0, 300)}`);
  return m[1];
}

/** The newest endpoint of the list (listed oldest first). */
const endpointIdOf = (html: string) => [...html.matchAll(/data-endpoint-id="(we_[a-z2-7]{16})"/g)].at(-1)?.[1];

async function addEndpoint(client: Client, fields: Record<string, string> = {}) {
  const page = await client.get('/dashboard/webhooks');
  const body = new URLSearchParams({
    _csrf: /name="_csrf" value="([^"]*)"/.exec(page.text)![1],
    url: receiver.url,
    dataset: 'live',
    ...fields,
  });
  if (!('events' in fields)) {
    body.append('events', 'listing.created');
    body.append('events', 'saved_search.matched');
  }
  const res = await fetch(`${t.baseUrl}/dashboard/webhooks`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': 'application/x-www-form-urlencoded',
      'accept-language': 'en',
    },
    body: body.toString(),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The rows of an endpoint's delivery log, as the page shows them. */
async function logOf(client: Client, id: string) {
  const page = await client.get(`/dashboard/webhooks/${id}`);
  expect(page.status).toBe(200);
  return [
    ...page.text.matchAll(
      /data-delivery-id="([^"]+)" data-event-id="([^"]+)" data-status="([^"]+)" data-attempts="(\d+)" data-http="(\d*)"/g,
    ),
  ].map((m) => ({ id: m[1], eventId: m[2], status: m[3], attempts: Number(m[4]), http: m[5] }));
}

const receivedWith = (id: string) => receiver.received.filter((r) => r.headers['webhook-id'] === id);

describe('the webhooks page', () => {
  it('adds an endpoint with its secret shown once, which the API lists; a test event, the log, resend, rotation, deletion', async () => {
    const client = t.client();
    const { key } = await signUp(t, client, { plan: 'pro' });
    expect(textOf((await client.get('/dashboard/webhooks')).text)).toContain('Your Pro plan keeps 3 endpoints; you have 0.');

    const created = await addEndpoint(client);
    expect(created.status, textOf(created.text).slice(0, 400)).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const secret = secretOf(created.text);
    const id = endpointIdOf(created.text)!;
    const api = await apiGet(t.baseUrl, '/api/v1/webhook-endpoints', key);
    expect(api.body.data).toEqual([
      expect.objectContaining({ id, url: receiver.url, events: ['listing.created', 'saved_search.matched'], status: 'enabled' }),
    ]);
    const list = await client.get('/dashboard/webhooks');
    expect(list.text).not.toContain(secret);
    expect(textOf(list.text)).toContain('you have 1.');

    // A test event: signed with the secret shown, logged with its status, attempts, latency, HTTP status and body.
    const tested = await client.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/test`, {});
    expect([tested.status, tested.location]).toEqual([303, `/dashboard/webhooks/${id}`]);
    expect(textOf((await client.get(`/dashboard/webhooks/${id}`)).text)).toContain('Test event queued');
    await expect.poll(async () => (await logOf(client, id))[0]?.status, { timeout: 10_000 }).toBe('delivered');
    const [row] = await logOf(client, id);
    expect(row).toMatchObject({ attempts: 1, http: '200' });
    const got = receivedWith(row.eventId);
    expect(got).toHaveLength(1);
    const event = new Webhook(secret).verify(got[0].body, got[0].headers as Record<string, string>) as any;
    expect(event).toMatchObject({ id: row.eventId, type: 'webhook.test', dataset: 'sample' });
    const logPage = textOf((await client.get(`/dashboard/webhooks/${id}`)).text);
    expect(logPage).toMatch(/webhook\.test .* Delivered 1 \d+ ms 200/);
    expect(logPage).toContain(row.eventId);

    // Resend: the same webhook-id and body again.
    const resent = await client.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/deliveries/${row.id}/resend`, {});
    expect(resent.status).toBe(303);
    await expect.poll(() => receivedWith(row.eventId).length, { timeout: 10_000 }).toBe(2);
    expect(receivedWith(row.eventId)[1].body).toBe(got[0].body);
    await expect.poll(async () => (await logOf(client, id))[0]).toMatchObject({ id: row.id, status: 'delivered', attempts: 2 });

    // Rotation: a new secret shown once; for 24 h each delivery verifies with either.
    const rotated = await client.submit('/dashboard/webhooks', `/dashboard/webhooks/${id}/rotate`, {});
    expect(rotated.status).toBe(200);
    const fresh = secretOf(rotated.text);
    expect(fresh).not.toBe(secret);
    expect(textOf(rotated.text)).toMatch(/The previous secret keeps signing too until/);
    await client.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/test`, {});
    await expect.poll(async () => (await logOf(client, id)).length, { timeout: 10_000 }).toBe(2);
    await expect.poll(async () => (await logOf(client, id))[0].status, { timeout: 10_000 }).toBe('delivered');
    const second = receivedWith((await logOf(client, id))[0].eventId)[0];
    for (const s of [secret, fresh]) new Webhook(s).verify(second.body, second.headers as Record<string, string>);

    // Deletion.
    const deleted = await client.submit('/dashboard/webhooks', `/dashboard/webhooks/${id}/delete`, {});
    expect([deleted.status, deleted.location]).toEqual([303, '/dashboard/webhooks']);
    expect(textOf((await client.get('/dashboard/webhooks')).text)).toContain(`Endpoint ${receiver.url} deleted.`);
    expect((await apiGet(t.baseUrl, '/api/v1/webhook-endpoints', key)).body.data).toEqual([]);
  });

  it('refuses a URL off the rules, no event, a plan without webhooks and more endpoints than the plan keeps', async () => {
    const client = t.client();
    await signUp(t, client, { plan: 'pro' });
    const http = await addEndpoint(client, { url: 'http://example.cm/hook' });
    expect(http.status).toBe(422);
    expect(textOf(http.text)).toContain('This URL cannot receive events');
    const metadata = await addEndpoint(client, { url: 'https://169.254.169.254/latest' });
    expect(metadata.status).toBe(422);
    const none = await addEndpoint(client, { events: '' });
    expect([none.status, textOf(none.text).includes('Tick at least one event.')]).toEqual([422, true]);
    for (let i = 0; i < 3; i++) expect((await addEndpoint(client)).status).toBe(201);
    const over = await addEndpoint(client);
    expect(over.status).toBe(403);
    expect(textOf(over.text)).toContain('Your Pro plan keeps at most 3 endpoints');

    const starter = t.client();
    await signUp(t, starter, { plan: 'starter' });
    const page = await starter.get('/dashboard/webhooks');
    expect(page.text).toContain('data-testid="not-included"');
    expect((await addEndpoint(starter)).status).toBe(403);
  });

  it('keeps one account out of another’s endpoints, wants the CSRF token, and refuses sending to a disabled endpoint', async () => {
    const owner = t.client();
    const { accountId } = await signUp(t, owner, { plan: 'pro' });
    const id = endpointIdOf((await addEndpoint(owner)).text)!;
    const stranger = t.client();
    await signUp(t, stranger, { plan: 'pro' });
    expect((await stranger.get(`/dashboard/webhooks/${id}`)).status).toBe(404);
    expect((await stranger.submit('/dashboard/webhooks', `/dashboard/webhooks/${id}/test`, {})).status).toBe(404);
    expect((await stranger.submit('/dashboard/webhooks', `/dashboard/webhooks/${id}/delete`, {})).status).toBe(404);
    expect((await owner.post(`/dashboard/webhooks/${id}/test`, { _csrf: 'wrong' })).status).toBe(403);

    await t.db.pool.query(
      "UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'the receiver answered 410 Gone' WHERE account_id = $1",
      [accountId],
    );
    const log = await owner.get(`/dashboard/webhooks/${id}`);
    expect(textOf(log.text)).toContain('Disabled: the receiver answered 410 Gone');
    expect(log.text).not.toContain(`/webhooks/${id}/test"`);
    const refused = await owner.submit(`/dashboard/webhooks/${id}`, `/dashboard/webhooks/${id}/test`, {});
    expect(refused.status).toBe(409);
    expect(textOf(refused.text)).toContain('This endpoint is disabled');
    const count = await t.db.pool.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
    expect(count.rows[0].n).toBe(0);
  });

  it('speaks French', async () => {
    const client = t.client();
    await signUp(t, client, { plan: 'pro' });
    const id = endpointIdOf((await addEndpoint(client)).text)!;
    const fr = { 'accept-language': 'fr' };
    await client.get('/dashboard/lang/fr');
    expect(textOf((await client.get('/dashboard/webhooks', fr)).text)).toContain(
      'Votre offre Pro permet 3 points de réception ; vous en avez 1.',
    );
    expect(textOf((await client.get(`/dashboard/webhooks/${id}`, fr)).text)).toContain('Envoyer un événement de test');
  });
});

describe('the usage page', () => {
  it('shows the month’s webhook deliveries against the plan’s cap, apart from the API quota', async () => {
    const client = t.client();
    const { key, accountId } = await signUp(t, client, { plan: 'pro' });
    const ids = [endpointIdOf((await addEndpoint(client)).text)!, endpointIdOf((await addEndpoint(client)).text)!];
    await apiGet(t.baseUrl, '/api/v1/listings?limit=1', key);
    await t.flushUsage();
    const usedBefore = Number(/data-used="(\d+)"/.exec((await client.get('/dashboard/usage')).text)![1]);

    // Three new listings, as an import adds them: one listing.created per endpoint each.
    const { rows: bases } = await t.db.pool.query<{ id: string }>("SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 3");
    const copies: string[] = [];
    try {
      for (const b of bases) copies.push(await copyListing(t.db.pool, b.id));
      const mine = () =>
        t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = ANY($1)', [ids]);
      await expect.poll(async () => (await mine()).rows[0].n, { timeout: 20_000 }).toBe(ids.length * copies.length);
      // A test event and a resend are not counted; last month's deliveries are not this month's.
      await client.submit(`/dashboard/webhooks/${ids[0]}`, `/dashboard/webhooks/${ids[0]}/test`, {});
      const { rows: some } = await t.db.pool.query<{ id: string }>(
        'SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id LIMIT 1',
        [ids[1]],
      );
      await client.submit(`/dashboard/webhooks/${ids[1]}`, `/dashboard/webhooks/${ids[1]}/deliveries/${some[0].id}/resend`, {});
      const lastMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1) - 86_400_000);
      await t.db.pool.query(
        "INSERT INTO webhook_usage (account_id, month, deliveries) VALUES ($1, date_trunc('month', $2::timestamptz AT TIME ZONE 'UTC')::date, 7)",
        [accountId, lastMonth],
      );

      const expected = ids.length * copies.length;
      const page = await client.get('/dashboard/usage');
      const shown = /data-testid="webhook-deliveries" data-count="(\d+)" data-cap="(\d+)"/.exec(page.text)!;
      expect([Number(shown[1]), Number(shown[2])]).toEqual([expected, 100_000]);
      expect(textOf(page.text)).toContain(`${expected} of 100,000 deliveries in`);
      // The API quota did not move.
      await t.flushUsage();
      expect(Number(/data-used="(\d+)"/.exec(page.text)![1])).toBe(usedBefore);
      const used = await t.db.pool.query<{ used: number }>(
        "SELECT used FROM monthly_usage WHERE account_id = $1 AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date",
        [accountId],
      );
      expect(used.rows[0].used).toBe(usedBefore);
    } finally {
      await t.db.pool.query('DELETE FROM listings WHERE id = ANY($1)', [copies]);
    }
  });

  it('shows no deliveries card on a plan without webhooks', async () => {
    const client = t.client();
    await signUp(t, client, { plan: 'starter' });
    expect((await client.get('/dashboard/usage')).text).not.toContain('data-testid="webhook-deliveries"');
  });
});
