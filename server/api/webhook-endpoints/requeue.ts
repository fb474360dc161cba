/**
 * Sending on request: a test event to one endpoint, and a delivery sent again. Both are
 * rows the delivery worker (server/webhooks/worker.ts) takes like any other, so they are
 * signed, leased and logged the same way. A test event (`webhook.test`) carries a listing
 * of the public sample and says `dataset: sample`; it is tried once. A resent delivery
 * keeps its event, so its `webhook-id` and body are the ones first sent.
 */
import type pg from 'pg';
import type { DATASETS } from '../../../contract/dataset.js';
import { TEST_EVENT_TYPE, type TWebhookEvent } from '../../../contract/webhooks.js';
import { PLANS, type PlanName } from '../../../contract/plans.js';
import { takeHeldDelivery } from '../../accounts/webhook-cap.js';
import { ApiError } from '../../platform/errors.js';
import { randomId } from '../../platform/ids.js';
import { inTransaction } from '../../platform/transaction.js';
import { PUBLIC_COLUMNS, type PublicRow, toListing } from '../../domain/listing/public-row.js';
import { type DeliveryView, readDeliveries } from './delivery-log.js';

type TDataset = (typeof DATASETS)[number];

const notFound = (what: string) => new ApiError('not_found', `No ${what} for this key's account and dataset.`);

export class WebhookRequeue {
  constructor(private readonly pool: pg.Pool) {}

  /** The endpoint, if the account has it in this dataset and it is enabled. */
  private async enabled(accountId: string, dataset: TDataset, id: string): Promise<void> {
    const { rows } = await this.pool.query<{ disabled_at: Date | null; disabled_reason: string | null }>(
      'SELECT disabled_at, disabled_reason FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND dataset = $3',
      [id, accountId, dataset],
    );
    if (!rows[0]) throw notFound(`webhook endpoint ${id}`);
    if (rows[0].disabled_at) {
      const message = `is disabled (${rows[0].disabled_reason ?? 'no reason noted'}): nothing is sent to it; add the endpoint again`;
      throw new ApiError('validation_error', `id: ${message}`, { errors: [{ path: 'id', message }] });
    }
  }

  /** Queues a signed `webhook.test` event to this endpoint only; returns its delivery. */
  async sendTest(accountId: string, dataset: TDataset, id: string, now = new Date()): Promise<DeliveryView> {
    await this.enabled(accountId, dataset, id);
    const { rows: listings } = await this.pool.query<PublicRow>(
      `SELECT ${PUBLIC_COLUMNS} FROM sample.listings l WHERE l.status = 'active' ORDER BY l.id LIMIT 1`,
    );
    if (!listings[0]) throw new ApiError('unavailable', 'The public sample is not loaded: run the migrations (npm run db:migrate).');
    const deliveryId = await inTransaction(this.pool, async (client) => {
      const { rows: seq } = await client.query<{ n: string }>(
        "SELECT nextval(pg_get_serial_sequence('webhook_events', 'sequence'))::text AS n",
      );
      const event: TWebhookEvent = {
        id: randomId('evt'),
        type: TEST_EVENT_TYPE,
        sequence: Number(seq[0].n),
        created_at: now.toISOString(),
        dataset: 'sample',
        data: { listing: toListing(listings[0], 'XAF') },
      };
      await client.query(
        `INSERT INTO webhook_events (id, sequence, type, dataset, body, created_at) VALUES ($1, $2::bigint, $3, 'sample', $4, $5)`,
        [event.id, seq[0].n, event.type, JSON.stringify(event), now],
      );
      const queued = randomId('whd');
      await client.query(
        'INSERT INTO webhook_deliveries (id, endpoint_id, event_id, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $4)',
        [queued, id, event.id, now],
      );
      return queued;
    });
    return (await readDeliveries(this.pool, id, { deliveryId, limit: 1 }))[0];
  }

  /**
   * Queues a delivery again, due now: the same event (same `webhook-id`, same body), its
   * retries counted from now. One being sent at this moment (leased) is left to finish. A
   * delivery held past the plan's monthly cap (`over_cap`) takes one of this month's
   * deliveries, or is refused while none is left.
   */
  async resend(accountId: string, dataset: TDataset, id: string, deliveryId: string, now = new Date()): Promise<DeliveryView> {
    await this.enabled(accountId, dataset, id);
    await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ status: string; plan: PlanName; created_at: Date }>(
        `SELECT d.status, a.plan, d.created_at FROM webhook_deliveries d
           JOIN webhook_endpoints w ON w.id = d.endpoint_id JOIN accounts a ON a.id = w.account_id
          WHERE d.id = $1 AND d.endpoint_id = $2 FOR UPDATE OF d`,
        [deliveryId, id],
      );
      if (!rows[0]) throw notFound(`delivery ${deliveryId} of webhook endpoint ${id}`);
      if (rows[0].status === 'over_cap') {
        const { allowed, cap } = await takeHeldDelivery(client, accountId, rows[0].plan, rows[0].created_at, now);
        if (allowed === 0) {
          throw new ApiError(
            'plan_limit_reached',
            `This month's ${cap.toLocaleString('en')} webhook deliveries of the ${PLANS[rows[0].plan].label} plan are used: ` +
              `delivery ${deliveryId} stays held (over_cap) until the 1st of next month (UTC) or a larger plan.`,
          );
        }
      }
      await client.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, resent_at = $3
          WHERE id = $1 AND endpoint_id = $2 AND (lease_until IS NULL OR lease_until < $3)`,
        [deliveryId, id, now],
      );
    });
    const [delivery] = await readDeliveries(this.pool, id, { deliveryId, limit: 1 });
    return delivery;
  }
}
