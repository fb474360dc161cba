/**
 * Webhook events from what changed: the rows a trigger on `listings` noted in
 * `listing_changes` (an insert, or an update of a public field with the old row) are read
 * in batches, each batch by one instance (`FOR UPDATE SKIP LOCKED`), turned into events and
 * their deliveries, and deleted, in one transaction. Never a rescan: the saved searches are
 * tested only against the listings of the batch, by the search's own WHERE builder, on the
 * row as it is and on the row as it was, all of them at once (matching.ts). Past an
 * account's monthly cap of deliveries, its deliveries are queued as `over_cap`, never sent
 * (accounts/webhook-cap.ts, in the same transaction).
 */
import type pg from 'pg';
import type { EventType, TWebhookEvent } from '../../contract/webhooks.js';
import type { TListing } from '../../contract/schemas.js';
import type { PlanName } from '../../contract/plans.js';
import { takeDeliveries } from '../accounts/webhook-cap.js';
import { PUBLIC_COLUMNS, type PublicRow, toListing } from '../domain/listing/public-row.js';
import { randomId } from '../platform/ids.js';
import { inTransaction } from '../platform/transaction.js';
import { type Match, matchBatch, type SavedSearchRow } from './matching.js';

/** Changes read per transaction. */
const BATCH = 2_000;

interface Change {
  id: string;
  listing_id: string;
  op: 'insert' | 'update';
}

interface EndpointRow {
  id: string;
  account_id: string;
  plan: PlanName;
  events: EventType[];
  saved_searches: string[];
}

interface SavedRow extends SavedSearchRow {
  account_id: string;
}

/**
 * The saved searches (by index in `saved`) the listings of changes `changeIds` match now or
 * matched before: every pair where the two differ, and at least the pairs of the searches
 * `followed` says an endpoint follows.
 */
export type Matcher = (
  client: pg.PoolClient,
  saved: SavedSearchRow[],
  changeIds: string[],
  followed: (savedIndex: number) => boolean,
) => Promise<Match[]>;

interface Draft {
  type: EventType;
  listing: TListing;
  previous?: Partial<TListing>;
  savedSearch?: SavedRow;
  /** The saved searches the listing matches now or matched before (for endpoints that follow some). */
  follows: Set<string>;
}

/** The public fields whose values differ, with their old values. */
function changedFields(before: TListing, after: TListing): Partial<TListing> {
  const previous: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof TListing)[]) {
    if (key === 'updated_at' || key === 'days_on_market') continue;
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) previous[key] = before[key];
  }
  return previous as Partial<TListing>;
}

/** Produces the events of up to one batch of changes; returns how many changes it took (0: none waiting). */
export async function produceEvents(pool: pg.Pool, now = new Date(), match: Matcher = matchBatch): Promise<number> {
  return inTransaction(pool, async (client) => {
    const { rows: changes } = await client.query<Change>(
      `SELECT id::text AS id, listing_id, op FROM listing_changes ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
    );
    if (changes.length === 0) return 0;
    const changeIds = changes.map((c) => c.id);
    const { rows: endpoints } = await client.query<EndpointRow>(
      `SELECT w.id, w.account_id, a.plan, w.events, w.saved_searches FROM webhook_endpoints w JOIN accounts a ON a.id = w.account_id
        WHERE w.dataset = 'live' AND w.disabled_at IS NULL ORDER BY w.created_at, w.id`,
    );
    if (endpoints.length > 0) await produce(client, changes, endpoints, now, match);
    await client.query('DELETE FROM listing_changes WHERE id = ANY($1::bigint[])', [changeIds]);
    return changes.length;
  });
}

async function produce(client: pg.PoolClient, changes: Change[], endpoints: EndpointRow[], now: Date, match: Matcher): Promise<void> {
  const changeIds = changes.map((c) => c.id);
  const current = await client.query<PublicRow & { change_id: string }>(
    `SELECT c.id::text AS change_id, ${PUBLIC_COLUMNS} FROM listing_changes c JOIN listings l ON l.id = c.listing_id WHERE c.id = ANY($1::bigint[])`,
    [changeIds],
  );
  const old = await client.query<PublicRow & { change_id: string }>(
    `SELECT c.id::text AS change_id, ${PUBLIC_COLUMNS}
       FROM listing_changes c CROSS JOIN LATERAL jsonb_populate_record(NULL::listings, c.previous) l
      WHERE c.id = ANY($1::bigint[]) AND c.op = 'update'`,
    [changeIds],
  );
  const after = new Map(current.rows.map((r) => [r.change_id, toListing(r, 'XAF')]));
  const before = new Map(old.rows.map((r) => [r.change_id, toListing(r, 'XAF')]));

  // The saved searches some endpoint follows (named, or all of its account's when it names none).
  const wantsSaved = endpoints.filter((e) => e.events.some((t) => t.startsWith('saved_search.')) || e.saved_searches.length > 0);
  const { rows: saved } = await client.query<SavedRow>(
    `SELECT id, account_id, filters FROM saved_searches
      WHERE dataset = 'live' AND (id = ANY($1::text[]) OR account_id = ANY($2::text[])) ORDER BY id`,
    [wantsSaved.flatMap((e) => e.saved_searches), wantsSaved.filter((e) => e.saved_searches.length === 0).map((e) => e.account_id)],
  );

  // Only the saved searches an endpoint names matter to the listing events' recipients.
  const named = new Set(endpoints.flatMap((e) => e.saved_searches));
  const matches = await match(client, saved, changeIds, (i) => named.has(saved[i].id));
  const order = new Map(changeIds.map((id, i) => [id, i]));
  // In the order of the saved searches, then of the changes.
  matches.sort((a, b) => a.saved - b.saved || order.get(a.changeId)! - order.get(b.changeId)!);
  const drafts: Draft[] = [];
  const follows = new Map<string, Set<string>>(changeIds.map((id) => [id, new Set()]));
  for (const m of matches) {
    const listing = after.get(m.changeId);
    if (!listing || !(m.isIn || m.wasIn)) continue;
    const s = saved[m.saved];
    follows.get(m.changeId)!.add(s.id);
    if (m.isIn && !m.wasIn) drafts.push({ type: 'saved_search.matched', listing, savedSearch: s, follows: new Set([s.id]) });
    if (!m.isIn && m.wasIn) drafts.push({ type: 'saved_search.unmatched', listing, savedSearch: s, follows: new Set([s.id]) });
  }
  for (const c of changes) {
    const listing = after.get(c.id);
    if (!listing) continue;
    const previous = before.get(c.id);
    const f = follows.get(c.id)!;
    if (!previous) drafts.push({ type: 'listing.created', listing, follows: f });
    else if (previous.status === 'active' && listing.status !== 'active') {
      drafts.push({ type: 'listing.removed', listing, previous: changedFields(previous, listing), follows: f });
    } else drafts.push({ type: 'listing.updated', listing, previous: changedFields(previous, listing), follows: f });
  }
  await insertEvents(client, drafts, endpoints, now);
}

/** The endpoints an event goes to. */
function recipients(d: Draft, endpoints: EndpointRow[]): EndpointRow[] {
  return endpoints.filter((e) => {
    if (!e.events.includes(d.type)) return false;
    if (d.savedSearch) {
      return e.saved_searches.length ? e.saved_searches.includes(d.savedSearch.id) : e.account_id === d.savedSearch.account_id;
    }
    return e.saved_searches.length === 0 || e.saved_searches.some((id) => d.follows.has(id));
  });
}

async function insertEvents(client: pg.PoolClient, drafts: Draft[], endpoints: EndpointRow[], now: Date): Promise<void> {
  const sent = drafts.map((d) => ({ d, to: recipients(d, endpoints) })).filter((x) => x.to.length > 0);
  if (sent.length === 0) return;
  const { rows: seqs } = await client.query<{ n: string }>(
    "SELECT nextval(pg_get_serial_sequence('webhook_events', 'sequence'))::text AS n FROM generate_series(1, $1)",
    [sent.length],
  );
  const events: { id: string; sequence: string; type: string; body: string }[] = [];
  const deliveries: { id: string; endpoint: string; account: string; event: string; status: 'pending' | 'over_cap' }[] = [];
  sent.forEach(({ d, to }, i) => {
    const event: TWebhookEvent = {
      id: randomId('evt'),
      type: d.type,
      sequence: Number(seqs[i].n),
      created_at: now.toISOString(),
      dataset: 'live',
      data: {
        listing: d.listing,
        ...(d.previous ? { previous: d.previous } : {}),
        ...(d.savedSearch ? { saved_search_id: d.savedSearch.id } : {}),
      },
    };
    events.push({ id: event.id, sequence: seqs[i].n, type: event.type, body: JSON.stringify(event) });
    for (const e of to) deliveries.push({ id: randomId('whd'), endpoint: e.id, account: e.account_id, event: event.id, status: 'pending' });
  });
  await holdPastCap(client, deliveries, endpoints, now);
  await client.query(
    `INSERT INTO webhook_events (id, sequence, type, dataset, body, created_at)
     SELECT id, seq::bigint, type, 'live', body, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS e(id, seq, type, body)`,
    [events.map((e) => e.id), events.map((e) => e.sequence), events.map((e) => e.type), events.map((e) => e.body), now],
  );
  await client.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, next_attempt_at, created_at)
     SELECT id, endpoint_id, event_id, status, $5, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS d(id, endpoint_id, event_id, status)`,
    [deliveries.map((d) => d.id), deliveries.map((d) => d.endpoint), deliveries.map((d) => d.event), deliveries.map((d) => d.status), now],
  );
}

/** Past its plan's monthly cap, an account's deliveries (the last ones of the batch) are kept unsent: `over_cap`. */
async function holdPastCap(
  client: pg.PoolClient,
  deliveries: { account: string; status: 'pending' | 'over_cap' }[],
  endpoints: EndpointRow[],
  now: Date,
): Promise<void> {
  const plans = new Map(endpoints.map((e) => [e.account_id, e.plan]));
  const wanted = new Map<string, { plan: PlanName; count: number }>();
  for (const d of deliveries) {
    const w = wanted.get(d.account) ?? { plan: plans.get(d.account)!, count: 0 };
    w.count++;
    wanted.set(d.account, w);
  }
  const shares = await takeDeliveries(client, wanted, now);
  const sent = new Map<string, number>();
  for (const d of deliveries) {
    const n = (sent.get(d.account) ?? 0) + 1;
    sent.set(d.account, n);
    if (n > shares.get(d.account)!.allowed) d.status = 'over_cap';
  }
}
