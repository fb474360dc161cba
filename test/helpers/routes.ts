/**
 * One valid request per /api/v1 route, for suites that must hold on every route
 * (authentication, plans, envelope). Adding a route to the contract without adding it
 * here fails `every contract route is covered`.
 */
import { contract } from '../../contract/router.js';
import type { RouteMetadata } from '../../contract/router.js';

export interface RouteCase {
  name: string;
  /** A path valid for this route; `:id` filled by the caller's listing id. */
  path: (listingId: string) => string;
  metadata: RouteMetadata;
  /** Its 200 is NDJSON (one JSON object per line), not one JSON body. */
  ndjson?: boolean;
}

export const ROUTE_CASES: RouteCase[] = [
  {
    name: 'listings.search',
    path: () => '/api/v1/listings?city=Douala&limit=5',
    metadata: contract.listings.search.metadata as RouteMetadata,
  },
  { name: 'listings.get', path: (id) => `/api/v1/listings/${id}`, metadata: contract.listings.get.metadata as RouteMetadata },
  { name: 'market.stats', path: () => '/api/v1/market/stats?city=Douala', metadata: contract.market.stats.metadata as RouteMetadata },
  { name: 'market.trends', path: () => '/api/v1/market/trends?city=Douala', metadata: contract.market.trends.metadata as RouteMetadata },
  {
    name: 'market.history',
    path: () => '/api/v1/market/history?city=Douala&purpose=rent',
    metadata: contract.market.history.metadata as RouteMetadata,
  },
  {
    name: 'valuations.get',
    path: () => '/api/v1/valuations?city=Douala&type=apartment&purpose=rent',
    metadata: contract.valuations.get.metadata as RouteMetadata,
  },
  { name: 'ping', path: () => '/api/v1/ping', metadata: contract.ping.metadata as RouteMetadata },
  {
    name: 'exports.listings',
    path: () => '/api/v1/exports/listings?city=Douala&type=warehouse',
    metadata: contract.exports.listings.metadata as RouteMetadata,
    ndjson: true,
  },
];

export function contractRouteNames(): string[] {
  const names: string[] = [];
  const walk = (node: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(node)) {
      const name = prefix ? `${prefix}.${k}` : k;
      if (v && typeof v === 'object' && 'method' in v && 'path' in v) names.push(name);
      else if (v && typeof v === 'object') walk(v as Record<string, unknown>, name);
    }
  };
  walk(contract as unknown as Record<string, unknown>, '');
  // Saved searches and webhook endpoints (writes among them) have their own suite of the
  // same refusals, with methods and bodies: test/webhooks/routes.test.ts; the valuation
  // batch (a POST with a body) in test/api/valuations-batch.test.ts.
  return names.filter((n) => !n.startsWith('savedSearches.') && !n.startsWith('webhookEndpoints.') && n !== 'valuations.batch').sort();
}
