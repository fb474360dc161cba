/**
 * The `/api/v1` contract. Each route names, in its metadata, the endpoint (as counted in
 * usage) and the plans that include it; the server's plan check reads that metadata.
 */
import { initContract } from '@ts-rest/core';
import { ZProblem } from './errors.js';
import { type EndpointName, type PlanName, plansIncluding } from './plans.js';
import {
  ZListingParams,
  ZListingResponse,
  ZListingsPage,
  ZListingsQuery,
  ZPingQuery,
  ZPingResponse,
  ZStatsQuery,
  ZStatsResponse,
  ZTrendsQuery,
  ZTrendsResponse,
} from './schemas.js';

const c = initContract();

export interface RouteMetadata {
  endpoint: EndpointName;
  plans: PlanName[];
  /** Counted in the monthly quota (every 2xx answer but ping's). */
  counted: boolean;
}

const meta = (endpoint: EndpointName, counted = true): RouteMetadata => ({
  endpoint,
  plans: plansIncluding(endpoint),
  counted,
});

const problems = {
  400: ZProblem,
  401: ZProblem,
  403: ZProblem,
  404: ZProblem,
  429: ZProblem,
  500: ZProblem,
  503: ZProblem,
};

export const contract = c.router(
  {
    listings: c.router({
      search: {
        method: 'GET',
        path: '/listings',
        query: ZListingsQuery,
        responses: { 200: ZListingsPage },
        summary: 'Search listings',
        description:
          'Paginated search with filters. Follow `meta.next_cursor` for the next page; `meta.total` is exact. Unknown parameters are refused.',
        metadata: meta('listings.search'),
      },
      get: {
        method: 'GET',
        path: '/listings/:id',
        pathParams: ZListingParams,
        responses: { 200: ZListingResponse },
        summary: 'Get one listing',
        description: 'Public fields of one listing, with its price history. Removed listings stay readable.',
        metadata: meta('listings.get'),
      },
    }),
    market: c.router({
      stats: {
        method: 'GET',
        path: '/market/stats',
        query: ZStatsQuery,
        responses: { 200: ZStatsResponse },
        summary: 'Market statistics per city',
        description: 'Volume, average, median, minimum and maximum price and price per m² of active listings, per city and purpose.',
        metadata: meta('market.stats'),
      },
      trends: {
        method: 'GET',
        path: '/market/trends',
        query: ZTrendsQuery,
        responses: { 200: ZTrendsResponse },
        summary: 'Market trends over 30 days',
        description:
          'Per city, neighbourhood, type and purpose: listings published in the last 30 days and their prices, with the change against the 30 days before. Pro and Enterprise.',
        metadata: meta('market.trends'),
      },
    }),
    ping: {
      method: 'GET',
      path: '/ping',
      query: ZPingQuery,
      responses: { 200: ZPingResponse },
      summary: 'Health and remaining quota',
      description: 'Authenticated and rate limited, but never counted in the quota.',
      metadata: meta('ping', false),
    },
  },
  { pathPrefix: '/api/v1', strictStatusCodes: true, commonResponses: problems },
);

export type Contract = typeof contract;
