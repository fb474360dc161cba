/**
 * The /api/v1 handlers, one module per endpoint (the market's two share one). Each builds
 * its body from the contract's shapes; `meta` comes from the chain. The front handler has
 * checked the places a query names before any handler runs (an unknown city or
 * neighborhood is a 400 with suggestions, never charged). `defineHandlers` checks that
 * every route of the contract has its handler.
 */
import { contract } from '../../../contract/router.js';
import { defineHandlers } from '../handler.js';
import { type ExportDeps, exportListings } from './export.js';
import { history } from './history.js';
import { listing } from './listing.js';
import { stats, trends } from './market.js';
import { ping } from './ping.js';
import { savedSearchHandlers } from './saved-searches.js';
import type { SavedSearchStore } from '../saved-searches/store.js';
import { type WebhookEndpointDeps, webhookEndpointHandlers } from './webhook-endpoints.js';
import { search } from './search.js';
import { valuation } from './valuation.js';
import { valuationBatch } from './valuation-batch.js';

/** `push`: the stores of saved searches and webhook endpoints (start/push.ts). */
export function apiHandlers({
  push,
  ...exports
}: ExportDeps & { push: { savedSearches: SavedSearchStore; webhooks: WebhookEndpointDeps } }) {
  return defineHandlers(contract, {
    listings: { search, get: listing },
    market: { stats, trends, history },
    exports: { listings: exportListings(exports) },
    valuations: { get: valuation, batch: valuationBatch(exports.admission) },
    savedSearches: savedSearchHandlers(push.savedSearches),
    webhookEndpoints: webhookEndpointHandlers(push.webhooks),
    ping,
  });
}
