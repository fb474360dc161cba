/**
 * Webhook endpoints in PostgreSQL (`webhook_endpoints`), per account and dataset, and their
 * delivery log. The secret is returned at creation and rotation only; after a rotation the
 * previous secret stays valid (deliveries carry both signatures) for 24 h.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { PLANS, type PlanName } from '../../../contract/plans.js';
import type { DATASETS } from '../../../contract/dataset.js';
import type { EventType, TWebhookEndpoint } from '../../../contract/webhooks.js';
import { ApiError } from '../../platform/errors.js';
import { inTransaction } from '../../platform/transaction.js';
import { randomId } from '../../platform/ids.js';
import { readDeliveries } from './delivery-log.js';

type TDataset = (typeof DATASETS)[number];

export const ROTATION_OVERLAP_MS = 24 * 3600_000;

/** `whsec_` and 24 random bytes in base64, as Standard Webhooks libraries read them. */
export const newSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

interface Row {
  id: string;
  url: string;
  events: EventType[];
  saved_searches: string[];
  dataset: TDataset;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
}

const COLUMNS = 'id, url, events, saved_searches, dataset, disabled_at, disabled_reason, created_at';

const toEndpoint = (r: Row): TWebhookEndpoint => ({
  id: r.id,
  url: r.url,
  events: r.events,
  saved_searches: r.saved_searches,
  dataset: r.dataset,
  status: r.disabled_at ? 'disabled' : 'enabled',
  disabled_reason: r.disabled_reason,
  created_at: r.created_at.toISOString(),
});

const notFound = (id: string) => new ApiError('not_found', `No webhook endpoint ${id} for this key's account and dataset.`);

export interface NewEndpoint {
  url: string;
  events: EventType[];
  savedSearches: string[];
}

export class WebhookEndpointStore {
  constructor(private readonly pool: pg.Pool) {}

  async create(accountId: string, plan: PlanName, dataset: TDataset, e: NewEndpoint): Promise<TWebhookEndpoint & { secret: string }> {
    const max = PLANS[plan].maxWebhookEndpoints;
    return inTransaction(this.pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`webhook_endpoints:${accountId}`]);
      const count = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints WHERE account_id = $1', [
        accountId,
      ]);
      if (count.rows[0].n >= max) {
        throw new ApiError(
          'plan_limit_reached',
          `The ${PLANS[plan].label} plan keeps at most ${max} webhook endpoints: delete one, or upgrade for more.`,
        );
      }
      const unknown = await client.query<{ id: string }>(
        `SELECT s.id FROM unnest($1::text[]) AS s(id)
          WHERE NOT EXISTS (SELECT 1 FROM saved_searches x WHERE x.id = s.id AND x.account_id = $2 AND x.dataset = $3)`,
        [e.savedSearches, accountId, dataset],
      );
      if (unknown.rows.length) {
        throw new ApiError('validation_error', `saved_searches: unknown ${unknown.rows.map((r) => r.id).join(', ')}`, {
          errors: [{ path: 'saved_searches', message: `no saved search ${unknown.rows[0].id} for this key's account and dataset` }],
        });
      }
      const secret = newSecret();
      const { rows } = await client.query<Row>(
        `INSERT INTO webhook_endpoints (id, account_id, dataset, url, events, saved_searches, secret)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [randomId('we'), accountId, dataset, e.url, [...new Set(e.events)], [...new Set(e.savedSearches)], secret],
      );
      return { ...toEndpoint(rows[0]), secret };
    });
  }

  async list(accountId: string, dataset: TDataset): Promise<TWebhookEndpoint[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND dataset = $2 ORDER BY created_at, id`,
      [accountId, dataset],
    );
    return rows.map(toEndpoint);
  }

  async delete(accountId: string, dataset: TDataset, id: string): Promise<void> {
    const { rowCount } = await this.pool.query('DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND dataset = $3', [
      id,
      accountId,
      dataset,
    ]);
    if (!rowCount) throw notFound(id);
  }

  /** A new secret; the current one becomes the previous, valid 24 h more. */
  async rotate(accountId: string, dataset: TDataset, id: string, now = new Date()): Promise<{ secret: string; previousExpiresAt: Date }> {
    const secret = newSecret();
    const until = new Date(now.getTime() + ROTATION_OVERLAP_MS);
    const { rowCount } = await this.pool.query(
      `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_expires_at = $5, secret = $4
        WHERE id = $1 AND account_id = $2 AND dataset = $3`,
      [id, accountId, dataset, secret, until],
    );
    if (!rowCount) throw notFound(id);
    return { secret, previousExpiresAt: until };
  }

  /** The last 100 deliveries of one endpoint of the account, newest first. */
  async deliveries(accountId: string, dataset: TDataset, id: string) {
    const owned = await this.pool.query('SELECT 1 FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND dataset = $3', [
      id,
      accountId,
      dataset,
    ]);
    if (!owned.rowCount) throw notFound(id);
    return readDeliveries(this.pool, id, { limit: 100 });
  }
}
