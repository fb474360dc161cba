/**
 * The monthly cap of webhook deliveries (`webhookDeliveriesPerMonth` in contract/plans.ts).
 * One counter row per account and UTC month (`webhook_usage`), locked and raised in the
 * transaction that queues the deliveries, so the cap is exact whatever the number of
 * instances producing events: a second producer waits on the row until the first commits.
 * Each event counts once per endpoint, whatever its retries and resends; test events never.
 * Past the cap, deliveries are kept with status `over_cap`: never sent, listed in the
 * delivery log, sent on request once the month has room (a new month, or a larger plan).
 *
 * A crash costs nothing here: the counter and the deliveries commit or roll back together.
 */
import type pg from 'pg';
import { PLANS, type PlanName } from '../../contract/plans.js';
import { isoDay, monthStart } from './policy.js';

export interface CapShare {
  /** Of the deliveries asked for, how many may be sent (the first ones, in order). */
  allowed: number;
  /** The plan's cap this month. */
  cap: number;
}

/**
 * Takes up to `count` deliveries of this month's cap under the account's counter row lock;
 * those refused are added to the month's held count when `holdRest` (new deliveries).
 */
async function take(
  client: pg.PoolClient,
  accountId: string,
  plan: PlanName,
  count: number,
  now: Date,
  holdRest: boolean,
): Promise<CapShare> {
  const month = isoDay(monthStart(now));
  const cap = PLANS[plan].webhookDeliveriesPerMonth;
  await client.query('INSERT INTO webhook_usage (account_id, month) VALUES ($1, $2::date) ON CONFLICT DO NOTHING', [accountId, month]);
  const { rows } = await client.query<{ deliveries: number }>(
    'SELECT deliveries FROM webhook_usage WHERE account_id = $1 AND month = $2::date FOR UPDATE',
    [accountId, month],
  );
  const allowed = Math.max(0, Math.min(count, cap - rows[0].deliveries));
  await client.query(
    'UPDATE webhook_usage SET deliveries = deliveries + $3, over_cap = over_cap + $4 WHERE account_id = $1 AND month = $2::date',
    [accountId, month, allowed, holdRest ? count - allowed : 0],
  );
  return { allowed, cap };
}

/**
 * Takes the deliveries an event batch queues, for each account, inside the caller's
 * transaction. Accounts are locked in id order, so two producers never wait on each other
 * in a circle.
 */
export async function takeDeliveries(
  client: pg.PoolClient,
  wanted: Map<string, { plan: PlanName; count: number }>,
  now: Date,
): Promise<Map<string, CapShare>> {
  const shares = new Map<string, CapShare>();
  for (const accountId of [...wanted.keys()].sort()) {
    const { plan, count } = wanted.get(accountId)!;
    shares.set(accountId, await take(client, accountId, plan, count, now, true));
  }
  return shares;
}

/**
 * Takes one delivery of this month's cap for a delivery held past the cap since `heldSince`
 * and now sent on request; once taken, it leaves that month's held count. `allowed` 0:
 * none is left, it stays held.
 */
export async function takeHeldDelivery(
  client: pg.PoolClient,
  accountId: string,
  plan: PlanName,
  heldSince: Date,
  now: Date,
): Promise<CapShare> {
  const share = await take(client, accountId, plan, 1, now, false);
  if (share.allowed === 1) {
    await client.query('UPDATE webhook_usage SET over_cap = greatest(0, over_cap - 1) WHERE account_id = $1 AND month = $2::date', [
      accountId,
      isoDay(monthStart(heldSince)),
    ]);
  }
  return share;
}

/** The deliveries of the month starting at `month` and those held past the cap, as the usage page shows them. */
export async function monthDeliveries(pool: pg.Pool, accountId: string, month: Date): Promise<{ deliveries: number; overCap: number }> {
  const { rows } = await pool.query<{ deliveries: number; over_cap: number }>(
    'SELECT deliveries, over_cap FROM webhook_usage WHERE account_id = $1 AND month = $2::date',
    [accountId, isoDay(month)],
  );
  return { deliveries: rows[0]?.deliveries ?? 0, overCap: rows[0]?.over_cap ?? 0 };
}
