/** The document's operation ids and tags: one id per endpoint, never derived, so renaming a route never renames its operation. */
import type { EndpointName } from '../plans.js';

export const OPERATIONS: Record<EndpointName, { id: string; tag: string }> = {
  'listings.search': { id: 'searchListings', tag: 'Listings' },
  'listings.get': { id: 'getListing', tag: 'Listings' },
  'market.stats': { id: 'getMarketStats', tag: 'Market' },
  'market.trends': { id: 'getMarketTrends', tag: 'Market' },
  'market.history': { id: 'getMarketHistory', tag: 'Market' },
  'exports.listings': { id: 'exportListings', tag: 'Exports' },
  'valuations.get': { id: 'getValuation', tag: 'Valuations' },
  'valuations.batch': { id: 'batchValuations', tag: 'Valuations' },
  'saved_searches.create': { id: 'createSavedSearch', tag: 'Saved searches' },
  'saved_searches.list': { id: 'listSavedSearches', tag: 'Saved searches' },
  'saved_searches.get': { id: 'getSavedSearch', tag: 'Saved searches' },
  'saved_searches.update': { id: 'updateSavedSearch', tag: 'Saved searches' },
  'saved_searches.delete': { id: 'deleteSavedSearch', tag: 'Saved searches' },
  'saved_searches.listings': { id: 'listSavedSearchListings', tag: 'Saved searches' },
  'webhook_endpoints.create': { id: 'createWebhookEndpoint', tag: 'Webhooks' },
  'webhook_endpoints.list': { id: 'listWebhookEndpoints', tag: 'Webhooks' },
  'webhook_endpoints.delete': { id: 'deleteWebhookEndpoint', tag: 'Webhooks' },
  'webhook_endpoints.rotate_secret': { id: 'rotateWebhookSecret', tag: 'Webhooks' },
  'webhook_endpoints.deliveries': { id: 'listWebhookDeliveries', tag: 'Webhooks' },
  'webhook_endpoints.test': { id: 'sendWebhookTestEvent', tag: 'Webhooks' },
  'webhook_endpoints.resend': { id: 'resendWebhookDelivery', tag: 'Webhooks' },
  ping: { id: 'ping', tag: 'Status' },
};

export const TAGS = [
  {
    name: 'Listings',
    description: 'Search property listings with filters and cursor pagination; read one listing with its price history.',
  },
  { name: 'Market', description: 'Precomputed market figures: statistics per city or neighbourhood, and 30-day trends.' },
  { name: 'Exports', description: 'Bulk copies of the listings as NDJSON, resumable (Enterprise).' },
  {
    name: 'Valuations',
    description:
      'Estimates of a property’s asking price or rent from comparable adverts, with a calibrated range (Enterprise), one at a time or in batches. Basis: asking prices; Mboa sees adverts, not deeds. Accuracy measured on held-out adverts: docs/valuations.md.',
  },
  {
    name: 'Saved searches',
    description:
      'The filters of a listing search kept under a name, and the listings they match now; webhooks follow them (Pro and Enterprise).',
  },
  {
    name: 'Webhooks',
    description:
      'Endpoints Mboa POSTs signed events to (Standard Webhooks), their secrets, delivery logs, test events and resends (Pro and Enterprise). The events themselves: docs/api.md, "Webhooks".',
  },
  { name: 'Status', description: 'Health of the API and your remaining quota, never counted.' },
];
