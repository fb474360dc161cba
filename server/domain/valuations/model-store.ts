/**
 * The valuation model of one dataset, fitted in the background and never on a request:
 * when the server starts, and again after each market refresh (its `market_stats`
 * notification, or the refresh this instance ran). A request reads the model in hand;
 * before the first fit is done it gets a 503 `valuations_warming_up` with `Retry-After`
 * (an error: never charged). A refit replaces the model in one assignment once it is
 * complete, the old one serving until then; refits asked for during a fit run once after
 * it, and only when the market figures changed since the fit that is in hand.
 */
import { ApiError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { ModelState } from '../../platform/readiness.js';
import { type Dataset, table } from '../listing/dataset.js';
import type { Model } from './model.js';
import { fitModel } from './sql.js';

/** `Retry-After` of a valuation asked before the first fit (a fit takes 3 to 4 s at a million adverts). */
const WARMING_RETRY_S = 5;

export class ModelStore {
  private current: { model: Model; stamp: string; fittedAt: Date; fitMs: number } | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly data: Dataset,
    private readonly logger?: Logger,
    private readonly fit: (data: Dataset, asOf: Date) => Promise<Model> = fitModel,
  ) {}

  /** The model in hand, or a 503 `valuations_warming_up` while the first fit runs. */
  model(): Model {
    if (this.current) return this.current.model;
    // A first fit that failed (the database away at start-up) is tried again, in the background.
    if (!this.running) void this.refit();
    throw new ApiError(
      'valuations_warming_up',
      `This instance started a moment ago and is still fitting its valuation model on the adverts it holds. Retry after ${WARMING_RETRY_S} s; this answer is not charged.`,
      { headers: { 'Retry-After': String(WARMING_RETRY_S) } },
    );
  }

  get ready(): boolean {
    return this.current !== null;
  }

  state(): ModelState {
    return {
      state: this.current ? 'ready' : 'warming_up',
      fitted_at: this.current?.fittedAt.toISOString() ?? null,
      fit_ms: this.current?.fitMs ?? null,
      fitting: this.running !== null,
      outliers_rejected: this.current?.model.outliers ?? null,
    };
  }

  /** When the market figures this dataset's model rests on were computed ('' if never). */
  private async stamp(): Promise<string> {
    const { rows } = await this.data.pool.query<{ s: string | null }>(
      `SELECT max(as_of)::text AS s FROM ${table(this.data, 'market_stats')}`,
    );
    return rows[0]?.s ?? '';
  }

  /**
   * Fits in the background (resolves when done, never rejects): the first time always,
   * later only when the market figures changed since the model in hand. Called during a
   * fit, it runs one more check once that fit is over.
   */
  refit(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          const stamp = await this.stamp();
          if (this.current && this.current.stamp === stamp) continue;
          const started = performance.now();
          const model = await this.fit(this.data, new Date());
          const fitMs = Math.round(performance.now() - started);
          this.current = { model, stamp, fittedAt: new Date(), fitMs };
          this.logger?.info(
            { schema: this.data.schema, fit_ms: fitMs, groups: model.groups.size, outliers_rejected: model.outliers },
            'valuation model fitted',
          );
        } catch (err) {
          this.logger?.error(
            { schema: this.data.schema, err: (err as Error).message },
            'valuation model fit failed; the previous model serves',
          );
        }
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
