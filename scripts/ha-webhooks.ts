/**
 * The HA rig's webhook check (`npm run test:ha`, called from test-ha.ts): a delivery in
 * flight survives the kill -9 of an instance. A receiver on this machine holds every request
 * unanswered; 60 new listings give 60 `listing.created` deliveries to one endpoint, so every
 * instance's worker leases some (20 at most each) and sends them into the receiver; the
 * instance is killed with its deliveries in flight (their connections close unanswered).
 * Then the receiver answers 200 and the check waits for every delivery to settle before the
 * next event (away from the database failover); the verdict wants: every delivery `delivered` in
 * PostgreSQL, every event received (nothing lost), every request of one event with the same
 * `webhook-id` and body (a duplicate is the same event, signed afresh), and at least one
 * delivery cut by the kill and then received again.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const LISTINGS = 60;

interface Held {
  res: ServerResponse;
  id: string;
}

export class WebhookInFlightCheck {
  private readonly received: Array<{ id: string; body: string }> = [];
  private held: Held[] = [];
  /** Requests whose connection closed before an answer, and when (ms). */
  private readonly closed = new Map<string, number>();
  /** Those closed at the kill (within 1.5 s of the signal): the killed instance's deliveries. */
  private cut = new Set<string>();
  private answering = false;
  private server = createServer((req, res) => this.take(req, res));
  private endpointId = '';

  constructor(private readonly o: { api: string; databaseUrl: string; log: (s: string) => void }) {
    // The instances (spawned with this process's environment) deliver to a receiver on loopback.
    process.env.MBOA_WEBHOOKS_ALLOW_LOOPBACK = '1';
  }

  private take(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      this.received.push({ id, body: Buffer.concat(chunks).toString('utf8') });
      if (this.answering) return res.writeHead(200).end();
      const held = { res, id };
      this.held.push(held);
      res.on('close', () => {
        if (!res.writableEnded) this.closed.set(id, performance.now());
        this.held = this.held.filter((h) => h !== held);
      });
    });
  }

  /** Around the instance kill: deliveries in flight on every instance, the kill, then the receiver answers. */
  async around(kill: () => Promise<void>, accountId: string): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    // Written in the database, not through the API: a call would count in the load's quota check.
    this.endpointId = `we_${randomBytes(8)
      .toString('hex')
      .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)])
      .slice(0, 16)}`;
    await this.sql(
      `INSERT INTO webhook_endpoints (id, account_id, dataset, url, events, saved_searches, secret)
       VALUES ($1, $2, 'live', $3, ARRAY['listing.created'], ARRAY[]::text[], $4)`,
      [this.endpointId, accountId, url, `whsec_${randomBytes(24).toString('base64')}`],
    );
    await this.newListings();
    // Every instance holds deliveries (20 each at most): the one to be killed too.
    const until = Date.now() + 20_000;
    while (this.held.length < LISTINGS && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    this.o.log(`webhooks: ${this.held.length} deliveries in flight, held by the receiver`);
    const killedAt = performance.now();
    await kill();
    this.cut = new Set([...this.closed].filter(([, at]) => at >= killedAt && at < killedAt + 1500).map(([id]) => id));
    this.o.log(`webhooks: ${this.cut.size} deliveries cut by the kill; the receiver answers 200 from now on`);
    this.answering = true;
    for (const h of this.held) h.res.writeHead(200).end();
    // Settled before the next event (the killed instance's leases lapse 30 s after they were taken).
    await this.settled(60_000);
  }

  /** Waits until every delivery is delivered (or `ms` passed); returns them. */
  private async settled(ms: number): Promise<Array<{ event_id: string; status: string }>> {
    let rows: Array<{ event_id: string; status: string }> = [];
    for (let waited = 0; waited < ms; waited += 1000) {
      ({ rows } = await this.sql('SELECT event_id, status FROM webhook_deliveries WHERE endpoint_id = $1', [this.endpointId]));
      if (rows.length === LISTINGS && rows.every((r) => r.status === 'delivered')) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    return rows;
  }

  private async sql(text: string, params: unknown[] = []) {
    const c = new pg.Client({ connectionString: this.o.databaseUrl });
    await c.connect();
    try {
      return await c.query(text, params);
    } finally {
      await c.end();
    }
  }

  /** 60 copies of a listing under new ids, as an import adds listings (the trigger notes them). */
  private async newListings() {
    const { rows } = await this.sql("SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1");
    const ids = Array.from({ length: LISTINGS }, () => `lst_ha${randomBytes(9).toString('hex')}`);
    await this.sql(
      `INSERT INTO listings SELECT (jsonb_populate_record(NULL::listings, to_jsonb(l) || jsonb_build_object(
         'id', n.id, 'source_ref', n.id, 'fingerprint', NULL))).* FROM listings l, unnest($2::text[]) AS n(id) WHERE l.id = $1`,
      [rows[0].id, ids],
    );
  }

  /** '' when the check holds, else what failed. Waits up to 90 s for the deliveries to settle. */
  async verdict(): Promise<string> {
    const rows = await this.settled(90_000).finally(() => {
      this.server.closeAllConnections();
      this.server.close();
    });
    const eventIds = new Set(rows.map((r) => r.event_id));
    const byId = new Map<string, string[]>();
    for (const r of this.received) byId.set(r.id, [...(byId.get(r.id) ?? []), r.body]);
    const lost = [...eventIds].filter((id) => !byId.has(id));
    const strangers = [...byId.keys()].filter((id) => !eventIds.has(id));
    const differing = [...byId.values()].filter((bodies) => new Set(bodies).size > 1).length;
    const duplicates = [...byId.values()].filter((bodies) => bodies.length > 1).length;
    const cutAndResent = [...this.cut].filter((id) => (byId.get(id)?.length ?? 0) >= 2).length;
    const pending = rows.filter((r) => r.status !== 'delivered').length;
    this.o.log(
      `webhooks: ${rows.length} deliveries, ${rows.length - pending} delivered; ${this.received.length} requests received for ${byId.size} events; ` +
        `${this.cut.size} cut by the kill, ${cutAndResent} of them received again; ${duplicates} events received more than once, ${differing} with differing bodies`,
    );
    const why: string[] = [];
    if (rows.length !== LISTINGS) why.push(`${rows.length} deliveries produced for ${LISTINGS} new listings`);
    if (pending) why.push(`${pending} deliveries not delivered`);
    if (lost.length) why.push(`${lost.length} events never received`);
    if (strangers.length) why.push(`${strangers.length} requests with an unknown webhook-id`);
    if (differing) why.push(`${differing} events received with differing bodies`);
    if (this.cut.size === 0) why.push('no delivery was in flight on the killed instance (the check did not run)');
    else if (cutAndResent < this.cut.size) why.push(`${this.cut.size - cutAndResent} deliveries cut by the kill not received again`);
    return why.join('; ');
  }
}
