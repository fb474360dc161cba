/**
 * The valuation models of a server, one per dataset (live and sample): fitted in the
 * background when the server listens and after each market refresh (the `market_stats`
 * notification of the change feed, whichever process ran it, or this server's own
 * refresh), never on a request. A feed that lost notifications refits where the market
 * figures changed meanwhile.
 */
import type pg from 'pg';
import type { Dataset } from '../domain/listing/dataset.js';
import type { Model } from '../domain/valuations/model.js';
import { ModelStore } from '../domain/valuations/model-store.js';
import type { ChangeFeed } from '../platform/change-feed.js';
import type { Logger } from '../platform/logger.js';

export type ValuationFit = (data: Dataset, asOf: Date) => Promise<Model>;

export interface ValuationModels {
  live: ModelStore;
  sample: ModelStore;
  /** Starts a refit of both, in the background. */
  refit(): void;
  /** Refits both where needed; resolves once done. */
  settled(): Promise<void>;
}

export function valuationModels(pool: pg.Pool, feed: ChangeFeed, logger: Logger, fit?: ValuationFit): ValuationModels {
  const live = new ModelStore({ pool, schema: 'public' }, logger, fit);
  const sample = new ModelStore({ pool, schema: 'sample' }, logger, fit);
  const refit = () => {
    void live.refit();
    void sample.refit();
  };
  feed.onDataChange((table) => table === 'market_stats' && refit());
  feed.onReset(() => live.ready && sample.ready && refit());
  return {
    live,
    sample,
    refit,
    settled: async () => {
      await Promise.all([live.refit(), sample.refit()]);
    },
  };
}
