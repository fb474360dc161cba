/**
 * The producer matches saved searches against a batch of changes set-based (one join per
 * shape of filters): on a mixed batch (new listings, price cuts and rises, a withdrawal, a
 * reactivation, a quarter moved, bedrooms and furnishing changed, a listing changed twice),
 * with saved searches of every kind of filter, geography included, and endpoints that
 * follow some, all or none of them, it makes exactly the events — types, payloads with
 * `previous`, recipients and their order — of the per-change definition: each saved
 * search's own search SQL run on each listing of the batch as it is and as it was.
 */
import type pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZListingFilters } from '../../contract/schemas.js';
import { createAccount } from '../../server/accounts/accounts.js';
import { effectiveFilters, listingFilterSql } from '../../server/domain/listing/filters.js';
import { type Database, openDatabase } from '../../server/platform/db.js';
import { randomId } from '../../server/platform/ids.js';
import { type Matcher, produceEvents } from '../../server/webhooks/producer.js';
import { copyListing } from './helpers.js';

let db: Database;
let pool: pg.Pool;
const undo: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  db = openDatabase(process.env.DATABASE_URL!, { max: 4 });
  pool = db.pool;
  await pool.query('DELETE FROM webhook_endpoints');
  while ((await produceEvents(pool)) > 0);
});
afterAll(async () => {
  for (const u of undo.reverse()) await u();
  while ((await produceEvents(pool)) > 0);
  await db?.close();
});

/** The per-change definition: the search's own WHERE on the one listing, as it is and as it was. */
const perChange: Matcher = async (client, saved, changeIds) => {
  const { rows: changes } = await client.query<{ id: string; listing_id: string; previous: object | null }>(
    'SELECT id::text AS id, listing_id, previous FROM listing_changes WHERE id = ANY($1::bigint[])',
    [changeIds],
  );
  const matches = [];
  for (const [i, s] of saved.entries()) {
    const parsed = ZListingFilters.safeParse(s.filters);
    if (!parsed.success) continue;
    const f = effectiveFilters(parsed.data);
    for (const c of changes) {
      const now = listingFilterSql(f, 'l');
      now.add(`l.id = ${now.param(c.listing_id)}`);
      const isIn = (await client.query(`SELECT 1 FROM listings l ${now.where()}`, now.params)).rowCount === 1;
      let wasIn = false;
      if (c.previous) {
        const before = listingFilterSql(f, 'l');
        const row = before.param(JSON.stringify(c.previous));
        wasIn =
          (await client.query(`SELECT 1 FROM jsonb_populate_record(NULL::listings, ${row}::jsonb) l ${before.where()}`, before.params))
            .rowCount === 1;
      }
      if (isIn || wasIn) matches.push({ saved: i, changeId: c.id, isIn, wasIn });
    }
  }
  return matches;
};

interface Row {
  id: string;
  price: string;
  type: string;
  purpose: string;
  neighborhood: string;
  neighborhood_key: string;
  bedrooms: number | null;
  furnished: boolean | null;
  status: string;
  removed_at: Date | null;
  geo_lat: number;
  geo_lng: number;
}

async function events(endpoints: string[]) {
  const { rows } = await pool.query<{ body: string; to: string[] }>(
    `SELECT e.body, array_agg(d.endpoint_id ORDER BY d.endpoint_id) AS to FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id
      WHERE d.endpoint_id = ANY($1::text[]) GROUP BY e.id, e.sequence ORDER BY e.sequence`,
    [endpoints],
  );
  await pool.query(
    'DELETE FROM webhook_events e WHERE EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.endpoint_id = ANY($1::text[]))',
    [endpoints],
  );
  return rows.map((r) => {
    const { id, sequence, created_at, ...event } = JSON.parse(r.body) as Record<string, unknown>;
    expect([typeof id, typeof sequence, typeof created_at]).toEqual(['string', 'number', 'string']);
    return { ...event, to: r.to } as Record<string, unknown> & { to: string[] };
  });
}

it('makes exactly the events of the per-change definition on a mixed batch', async () => {
  const { rows: l } = await pool.query<Row>(
    `SELECT id, price::text, type, purpose, neighborhood, neighborhood_key, bedrooms, furnished, status, removed_at, geo_lat, geo_lng
       FROM listings WHERE status = 'active' AND city = 'Douala' AND neighborhood IS NOT NULL AND geo_lat IS NOT NULL ORDER BY id LIMIT 11`,
  );
  const { rows: gone } = await pool.query<Row>(
    "SELECT id, price::text, status, removed_at FROM listings WHERE status = 'withdrawn' AND city = 'Douala' ORDER BY id LIMIT 1",
  );
  expect(l).toHaveLength(11);
  expect(gone).toHaveLength(1);
  const { rows: originals } = await pool.query<{ row: object }>('SELECT to_jsonb(l) AS row FROM listings l WHERE id = ANY($1::text[])', [
    [...l, gone[0]].map((r) => r.id),
  ]);
  undo.push(() =>
    pool.query(
      `UPDATE listings x SET price = o.price, neighborhood = o.neighborhood, neighborhood_key = o.neighborhood_key, bedrooms = o.bedrooms,
              furnished = o.furnished, status = o.status, removed_at = o.removed_at, updated_at = o.updated_at
         FROM jsonb_populate_recordset(NULL::listings, $1::jsonb) o WHERE x.id = o.id`,
      [JSON.stringify(originals.map((r) => r.row))],
    ),
  );
  // l[5] moves to another quarter: the first of the later rows filed elsewhere.
  const moveTo = l.slice(6).find((r) => r.neighborhood_key !== l[5].neighborhood_key)!;
  expect(moveTo).toBeDefined();
  const prices = l.map((r) => Number(r.price)).sort((a, b) => a - b);
  const median = prices[5];
  const [a, b] = await Promise.all(
    ['pro', 'enterprise'].map((plan) => createAccount(db.prisma, { email: `${randomId('bm')}@test.mboa.cm`, plan: plan as 'pro' })),
  );
  undo.push(() => pool.query('DELETE FROM accounts WHERE id = ANY($1::text[])', [[a.account.id, b.account.id]]));

  const searches: [string, Record<string, string>][] = [
    [a.account.id, { city: 'Douala' }],
    [a.account.id, { city: 'Douala', max_price: String(median) }],
    [a.account.id, { city: 'Douala', min_price: String(median), purpose: 'rent,sale' }],
    [a.account.id, { neighborhood: l[5].neighborhood }],
    [a.account.id, { city: 'Douala', neighborhood: moveTo.neighborhood }],
    [a.account.id, { min_bedrooms: String((l[6].bedrooms ?? 0) + 1) }],
    [a.account.id, { furnished: 'true' }],
    [a.account.id, { city: 'Douala', status: 'any' }],
    [a.account.id, { status: 'withdrawn' }],
    [a.account.id, { near: `${l[0].geo_lat},${l[0].geo_lng}`, radius_m: '5000' }],
    [
      a.account.id,
      { bbox: [l[2].geo_lng - 0.02, l[2].geo_lat - 0.02, l[2].geo_lng + 0.02, l[2].geo_lat + 0.02].map((v) => v.toFixed(4)).join(',') },
    ],
    [a.account.id, { type: `${l[0].type},${l[2].type}`, purpose: l[0].purpose }],
    [a.account.id, { min_surface: '0', max_surface: '200', min_price: String(prices[2]) }],
    [a.account.id, { listed_after: '2020-01-01', max_price: String(prices[8]) }],
    [a.account.id, { min_bedrooms: 'many' }],
    [b.account.id, { city: 'Douala', status: 'any', max_price: String(Math.round(median * 1.2)) }],
    [b.account.id, { city: 'Yaoundé' }],
  ];
  searches.slice(0, -3).forEach(([, f]) => expect(ZListingFilters.safeParse(f).success, JSON.stringify(f)).toBe(true));
  const ids = searches.map(() => randomId('ss'));
  await pool.query(
    `INSERT INTO saved_searches (id, account_id, dataset, name, filters)
     SELECT id, account, 'live', 'batched', filters FROM unnest($1::text[], $2::text[], $3::jsonb[]) AS s(id, account, filters)`,
    [ids, searches.map(([acc]) => acc), searches.map(([, f]) => JSON.stringify(f))],
  );
  const all = ['listing.created', 'listing.updated', 'listing.removed', 'saved_search.matched', 'saved_search.unmatched'];
  const endpoints: [string, string, string[], string[]][] = [
    [randomId('we'), a.account.id, all, [ids[1], ids[3], ids[9]]],
    [randomId('we'), a.account.id, all, []],
    [randomId('we'), b.account.id, ['listing.updated', 'saved_search.matched'], []],
    [randomId('we'), b.account.id, ['listing.created', 'listing.removed'], [ids[15], ids[16]]],
  ];
  for (const [id, account, types, follows] of endpoints) {
    await pool.query(
      `INSERT INTO webhook_endpoints (id, account_id, dataset, url, events, saved_searches, secret)
       VALUES ($1, $2, 'live', 'https://1.1.1.1/hook', $3, $4, 'whsec_x')`,
      [id, account, types, follows],
    );
  }
  const endpointIds = endpoints.map((e) => e[0]);

  // The batch, committed at once as an import commits.
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const set = (id: string, assignments: string, ...values: unknown[]) =>
      client.query(`UPDATE listings SET ${assignments}, updated_at = now() WHERE id = $1`, [id, ...values]);
    await set(l[0].id, 'price = round(price * 0.9)');
    await set(l[1].id, 'price = round(price * 0.9)');
    await set(l[2].id, 'price = round(price * 1.5)');
    await set(l[3].id, 'price = round(price * 1.5)');
    await set(l[4].id, "status = 'withdrawn', removed_at = now()");
    await set(l[5].id, 'neighborhood = $2, neighborhood_key = $3', moveTo.neighborhood, moveTo.neighborhood_key);
    await set(l[6].id, 'bedrooms = coalesce(bedrooms, 0) + 2');
    await set(l[7].id, 'furnished = NOT coalesce(furnished, false)');
    await set(l[8].id, 'price = round(price * 0.5)');
    await set(l[8].id, "status = 'sold', removed_at = now()");
    await set(gone[0].id, "status = 'active', removed_at = NULL");
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  for (const source of [l[0].id, l[10].id]) {
    const fresh = await copyListing(pool, source);
    undo.push(() => pool.query('DELETE FROM listings WHERE id = $1', [fresh]));
  }
  const { rows: batch } = await pool.query<{ row: object }>('SELECT to_jsonb(c) AS row FROM listing_changes c ORDER BY id');
  expect(batch).toHaveLength(13);

  const at = new Date('2026-11-28T06:00:00Z');
  while ((await produceEvents(pool, at, perChange)) > 0);
  const expected = await events(endpointIds);
  await pool.query('INSERT INTO listing_changes SELECT * FROM jsonb_populate_recordset(NULL::listing_changes, $1::jsonb)', [
    JSON.stringify(batch.map((r) => r.row)),
  ]);
  while ((await produceEvents(pool, at)) > 0);
  const batched = await events(endpointIds);

  expect(batched).toEqual(expected);
  // Not a vacuous batch: every kind of event, to every endpoint, and a move out of a followed search.
  const types = new Set(batched.map((e) => e.type));
  expect([...types].sort()).toEqual([...all].sort());
  expect(new Set(batched.flatMap((e) => e.to))).toEqual(new Set(endpointIds));
  const savedEvents = batched.filter((e) => String(e.type).startsWith('saved_search.'));
  expect(savedEvents.length).toBeGreaterThanOrEqual(10);
  expect(new Set(savedEvents.map((e) => (e.data as { saved_search_id: string }).saved_search_id)).size).toBeGreaterThanOrEqual(8);
});
