/** The routes of saved searches (`/saved-searches`), declared apart from router.ts to keep it readable. */
import type { AppRoute } from '@ts-rest/core';
import { ZProblem } from './errors.js';
import type { EndpointName } from './plans.js';
import {
  ZSavedSearchCreate,
  ZSavedSearchDeleted,
  ZSavedSearchList,
  ZSavedSearchListingsQuery,
  ZSavedSearchParams,
  ZSavedSearchResponse,
  ZSavedSearchUpdate,
} from './saved-searches.js';
import { ZListingsPage } from './schemas.js';

const PLANS_NOTE = 'Pro and Enterprise; the number an account may keep is set by its plan (a further one is a 403 `plan_limit_reached`).';
const TEST_KEYS_NOTE = "A test key's saved searches are its own and follow the public sample (`dataset: sample`).";

export function savedSearchRoutes<M>(meta: (endpoint: EndpointName) => M) {
  return {
    create: {
      method: 'POST',
      path: '/saved-searches',
      body: ZSavedSearchCreate,
      responses: { 201: ZSavedSearchResponse, 413: ZProblem, 415: ZProblem },
      summary: 'Save a search',
      description: `Saves the filters of \`GET /listings\` under a name. JSON body (\`Content-Type: application/json\`, at most 16 kB); its places are checked like the search's. ${PLANS_NOTE} ${TEST_KEYS_NOTE}`,
      metadata: meta('saved_searches.create'),
    },
    list: {
      method: 'GET',
      path: '/saved-searches',
      responses: { 200: ZSavedSearchList },
      summary: 'List saved searches',
      description: `The saved searches of the account for the dataset the key reads, oldest first. ${PLANS_NOTE}`,
      metadata: meta('saved_searches.list'),
    },
    get: {
      method: 'GET',
      path: '/saved-searches/:id',
      pathParams: ZSavedSearchParams,
      responses: { 200: ZSavedSearchResponse },
      summary: 'Get a saved search',
      description: `One saved search. ${PLANS_NOTE}`,
      metadata: meta('saved_searches.get'),
    },
    update: {
      method: 'PATCH',
      path: '/saved-searches/:id',
      pathParams: ZSavedSearchParams,
      body: ZSavedSearchUpdate,
      responses: { 200: ZSavedSearchResponse, 413: ZProblem, 415: ZProblem },
      summary: 'Rename a saved search or change its filters',
      description: `\`filters\`, when given, replace the saved ones entirely. ${PLANS_NOTE}`,
      metadata: meta('saved_searches.update'),
    },
    delete: {
      method: 'DELETE',
      path: '/saved-searches/:id',
      pathParams: ZSavedSearchParams,
      responses: { 200: ZSavedSearchDeleted },
      summary: 'Delete a saved search',
      description: `Deletes it for good. ${PLANS_NOTE}`,
      metadata: meta('saved_searches.delete'),
    },
    listings: {
      method: 'GET',
      path: '/saved-searches/:id/listings',
      pathParams: ZSavedSearchParams,
      query: ZSavedSearchListingsQuery,
      responses: { 200: ZListingsPage },
      summary: 'The listings a saved search matches now',
      description: `One page of the listings matching the saved filters, read by the same query as \`GET /listings\` with those filters (same order, same total). ${PLANS_NOTE}`,
      metadata: meta('saved_searches.listings'),
    },
  } as const satisfies Record<string, AppRoute>;
}
