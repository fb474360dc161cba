/**
 * Saved searches in PostgreSQL (`saved_searches`), per account and dataset. The filters are
 * kept as the query string of `GET /listings` carries them, so that reading them back
 * through the contract's filter schema gives the search's own filters (filters-text.ts).
 */
import type pg from 'pg';
import { PLANS, type PlanName } from '../../../contract/plans.js';
import type { TSavedSearch } from '../../../contract/saved-searches.js';
import { ApiError } from '../../platform/errors.js';
import { inTransaction } from '../../platform/transaction.js';
import { randomId } from '../../platform/ids.js';

type DatasetName = TSavedSearch['dataset'];

interface Row {
  id: string;
  name: string;
  filters: Record<string, string>;
  dataset: DatasetName;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, filters, dataset, created_at, updated_at';

const toSavedSearch = (r: Row): TSavedSearch => ({
  id: r.id,
  name: r.name,
  filters: r.filters,
  dataset: r.dataset,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

const notFound = (id: string) => new ApiError('not_found', `No saved search ${id} for this key's account and dataset.`);

export class SavedSearchStore {
  constructor(private readonly pool: pg.Pool) {}

  /** Saves one, within the plan's count (counted per account, both datasets together). */
  async create(
    accountId: string,
    plan: PlanName,
    dataset: DatasetName,
    name: string,
    filters: Record<string, string>,
  ): Promise<TSavedSearch> {
    const max = PLANS[plan].maxSavedSearches;
    return inTransaction(this.pool, async (client) => {
      // One creation at a time per account: two at once cannot both pass the count.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`saved_searches:${accountId}`]);
      const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM saved_searches WHERE account_id = $1', [accountId]);
      if (Number(rows[0].n) >= max) {
        throw new ApiError(
          'plan_limit_reached',
          `The ${PLANS[plan].label} plan keeps at most ${max} saved searches: delete one, or upgrade for more.`,
        );
      }
      const inserted = await client.query<Row>(
        `INSERT INTO saved_searches (id, account_id, dataset, name, filters) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
        [randomId('ss'), accountId, dataset, name, JSON.stringify(filters)],
      );
      return toSavedSearch(inserted.rows[0]);
    });
  }

  async list(accountId: string, dataset: DatasetName): Promise<TSavedSearch[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM saved_searches WHERE account_id = $1 AND dataset = $2 ORDER BY created_at, id`,
      [accountId, dataset],
    );
    return rows.map(toSavedSearch);
  }

  async get(accountId: string, dataset: DatasetName, id: string): Promise<TSavedSearch> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM saved_searches WHERE id = $1 AND account_id = $2 AND dataset = $3`,
      [id, accountId, dataset],
    );
    if (!rows[0]) throw notFound(id);
    return toSavedSearch(rows[0]);
  }

  async update(
    accountId: string,
    dataset: DatasetName,
    id: string,
    change: { name?: string; filters?: Record<string, string> },
  ): Promise<TSavedSearch> {
    const { rows } = await this.pool.query<Row>(
      `UPDATE saved_searches SET name = coalesce($4, name), filters = coalesce($5::jsonb, filters), updated_at = now()
        WHERE id = $1 AND account_id = $2 AND dataset = $3 RETURNING ${COLUMNS}`,
      [id, accountId, dataset, change.name ?? null, change.filters ? JSON.stringify(change.filters) : null],
    );
    if (!rows[0]) throw notFound(id);
    return toSavedSearch(rows[0]);
  }

  async delete(accountId: string, dataset: DatasetName, id: string): Promise<void> {
    const { rowCount } = await this.pool.query('DELETE FROM saved_searches WHERE id = $1 AND account_id = $2 AND dataset = $3', [
      id,
      accountId,
      dataset,
    ]);
    if (!rowCount) throw notFound(id);
  }
}
