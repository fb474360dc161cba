/**
 * How long the webhook producer takes to turn an import's changes into events, on the
 * database at DATABASE_URL (migrated and seeded, e.g. the test database or a bench one):
 * SAVED saved searches (each a city, a purpose and a price ceiling, spread over the
 * accounts of one Pro account) followed by one endpoint, then CHANGED listings repriced
 * by 10 % in one transaction (as an import commits), then `produceEvents` until nothing is
 * left. Everything it made is removed and the prices put back.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/mboa_test SAVED=1000 CHANGED=5000 \
 *     node --import tsx bench/webhook-events.ts
 *
 * With DELIVER=1 the endpoint is a local receiver (node:http on loopback) and WORKERS
 * delivery workers (default 2, as two instances) run as the server runs them, started
 * before the import: it prints when the last change was turned into events and the
 * delivery delays after the import's commit (p50, p95, max), each measured at the receiver.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { createAccount } from '../server/accounts/accounts.js';
import { openDatabase } from '../server/platform/db.js';
import { randomId } from '../server/platform/ids.js';
import { createLogger } from '../server/platform/logger.js';
import { produceEvents } from '../server/webhooks/producer.js';
import { WebhookWorker } from '../server/webhooks/worker.js';

const SAVED = Number(process.env.SAVED ?? 1_000);
const CHANGED = Number(process.env.CHANGED ?? 5_000);
const DELIVER = process.env.DELIVER === '1';
const WORKERS = Number(process.env.WORKERS ?? 2);
const CITIES = ['Douala', 'Yaoundé', 'Kribi', 'Bafoussam', 'Limbe'];

const db = openDatabase(process.env.DATABASE_URL!, { max: 4 + 2 * WORKERS });
const pool: pg.Pool = db.pool;
const round = (x: number) => Math.round(x * 100) / 100;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

// The local receiver: the arrival time of each delivery.
const arrivals: number[] = [];
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    arrivals.push(performance.now());
    res.writeHead(200).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = DELIVER ? `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` : 'https://1.1.1.1/bench';
const workers = Array.from(
  { length: DELIVER ? WORKERS : 0 },
  () => new WebhookWorker({ pool, logger: createLogger('silent') }, { allowLoopback: true, pollMs: 500 }),
);

const { account } = await createAccount(db.prisma, { email: `${randomId('bench')}@bench.mboa.cm`, plan: 'enterprise' });
try {
  while ((await produceEvents(pool)) > 0);
  const ids = Array.from({ length: SAVED }, () => randomId('ss'));
  await pool.query(
    `INSERT INTO saved_searches (id, account_id, dataset, name, filters)
     SELECT id, $2, 'live', 'bench', jsonb_build_object('city', ($3::text[])[1 + i % 5], 'purpose', CASE WHEN i % 2 = 0 THEN 'rent' ELSE 'sale' END,
            'max_price', (100000 * (1 + i % 50))::text, 'status', 'active')
       FROM unnest($1::text[]) WITH ORDINALITY AS s(id, i)`,
    [ids, account.id, CITIES],
  );
  await pool.query(
    `INSERT INTO webhook_endpoints (id, account_id, dataset, url, events, saved_searches, secret)
     VALUES ($1, $2, 'live', $3, ARRAY['saved_search.matched','saved_search.unmatched','listing.updated'], '{}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')`,
    [randomId('we'), account.id, url],
  );
  const { rows } = await pool.query<{ id: string; price: string }>(
    "SELECT id, price::text FROM listings WHERE status = 'active' ORDER BY id LIMIT $1",
    [CHANGED],
  );
  for (const w of workers) w.start();
  await pool.query('UPDATE listings l SET price = round(l.price * 0.9) FROM unnest($1::text[]) AS c(id) WHERE l.id = c.id', [
    rows.map((r) => r.id),
  ]);
  const committed = performance.now();
  let changes = 0;
  let produced: number;
  if (DELIVER) {
    // The workers produce; the last change gone from listing_changes is the end of production.
    const { rows: waiting } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listing_changes');
    changes = waiting[0].n;
    while ((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listing_changes')).rows[0].n > 0) {
      await new Promise((r) => setTimeout(r, 100));
    }
    produced = performance.now();
  } else {
    for (let n; (n = await produceEvents(pool)) > 0;) changes += n;
    produced = performance.now();
  }
  const { rows: made } = await pool.query<{ events: number; deliveries: number }>(
    `SELECT (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.account_id = $1) AS deliveries,
            (SELECT count(DISTINCT d.event_id)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.account_id = $1) AS events`,
    [account.id],
  );
  const delivery: Record<string, number> = {};
  if (DELIVER) {
    while (arrivals.length < made[0].deliveries) await new Promise((r) => setTimeout(r, 100));
    const delays = arrivals.map((t) => (t - committed) / 1000).sort((a, b) => a - b);
    Object.assign(delivery, {
      delivered: delays.length,
      delivery_p50_s: round(percentile(delays, 50)),
      delivery_p95_s: round(percentile(delays, 95)),
      delivery_max_s: round(delays[delays.length - 1]),
    });
  }
  await Promise.all(workers.map((w) => w.stop()));
  console.log(
    JSON.stringify({
      saved_searches: SAVED,
      changed_listings: rows.length,
      changes,
      seconds: round((produced - committed) / 1000),
      ...made[0],
      ...delivery,
    }),
  );
  // Back as they were (the restore's own changes are dropped: the endpoint goes first).
  await pool.query(
    `DELETE FROM webhook_events e WHERE EXISTS (SELECT 1 FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.event_id = e.id AND w.account_id = $1)`,
    [account.id],
  );
  await pool.query('DELETE FROM accounts WHERE id = $1', [account.id]);
  await pool.query('UPDATE listings l SET price = c.price::bigint FROM unnest($1::text[], $2::text[]) AS c(id, price) WHERE l.id = c.id', [
    rows.map((r) => r.id),
    rows.map((r) => r.price),
  ]);
  while ((await produceEvents(pool)) > 0);
} finally {
  await Promise.all(workers.map((w) => w.stop()));
  receiver.close();
  await db.close();
}
