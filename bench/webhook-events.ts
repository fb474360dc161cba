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
 */
import type pg from 'pg';
import { createAccount } from '../server/accounts/accounts.js';
import { openDatabase } from '../server/platform/db.js';
import { randomId } from '../server/platform/ids.js';
import { produceEvents } from '../server/webhooks/producer.js';

const SAVED = Number(process.env.SAVED ?? 1_000);
const CHANGED = Number(process.env.CHANGED ?? 5_000);
const CITIES = ['Douala', 'Yaoundé', 'Kribi', 'Bafoussam', 'Limbe'];

const db = openDatabase(process.env.DATABASE_URL!, { max: 4 });
const pool: pg.Pool = db.pool;
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
     VALUES ($1, $2, 'live', 'https://1.1.1.1/bench', ARRAY['saved_search.matched','saved_search.unmatched','listing.updated'], '{}', 'whsec_x')`,
    [randomId('we'), account.id],
  );
  const { rows } = await pool.query<{ id: string; price: string }>(
    "SELECT id, price::text FROM listings WHERE status = 'active' ORDER BY id LIMIT $1",
    [CHANGED],
  );
  await pool.query('UPDATE listings l SET price = round(l.price * 0.9) FROM unnest($1::text[]) AS c(id) WHERE l.id = c.id', [
    rows.map((r) => r.id),
  ]);
  const started = performance.now();
  let changes = 0;
  for (let n; (n = await produceEvents(pool)) > 0;) changes += n;
  const seconds = (performance.now() - started) / 1000;
  const { rows: made } = await pool.query<{ events: number; deliveries: number }>(
    `SELECT (SELECT count(*)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.account_id = $1) AS deliveries,
            (SELECT count(DISTINCT d.event_id)::int FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE w.account_id = $1) AS events`,
    [account.id],
  );
  console.log(
    JSON.stringify({ saved_searches: SAVED, changed_listings: rows.length, changes, seconds: Math.round(seconds * 100) / 100, ...made[0] }),
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
  await db.close();
}
