/**
 * `/saved-searches`: save, list, read, change and delete the filters of `GET /listings`
 * under a name, and read the listings they match now, by the search's own query
 * (`searchListings` with the saved filters), so the two never disagree.
 */
import type { contract } from '../../../contract/router.js';
import type { TListingsQueryParsed } from '../../../contract/schemas.js';
import { ApiError } from '../../platform/errors.js';
import { callMeta, type RequestContext } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { listingsPage } from './search.js';
import { filtersAsText, savedFiltersOf } from '../saved-searches/filters-text.js';
import type { SavedSearchStore } from '../saved-searches/store.js';

type Routes = typeof contract.savedSearches;

const owner = (ctx: RequestContext) => ({ accountId: ctx.caller!.accountId, dataset: ctx.dataset! });

export function savedSearchHandlers(store: SavedSearchStore): {
  create: RouteHandler<Routes['create']>;
  list: RouteHandler<Routes['list']>;
  get: RouteHandler<Routes['get']>;
  update: RouteHandler<Routes['update']>;
  delete: RouteHandler<Routes['delete']>;
  listings: RouteHandler<Routes['listings']>;
} {
  return {
    create: async ({ body, reader, ctx }) => {
      // Places are checked like the search's (an unknown one is a 400 with suggestions).
      await reader.places.check(body.filters);
      const { accountId, dataset } = owner(ctx);
      const saved = await store.create(accountId, ctx.caller!.plan, dataset, body.name, filtersAsText(body.filters));
      return { status: 201 as const, body: { data: saved, meta: callMeta(ctx) } };
    },
    list: async ({ ctx }) => {
      const { accountId, dataset } = owner(ctx);
      const data = await store.list(accountId, dataset);
      return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...callMeta(ctx) } } };
    },
    get: async ({ params, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      return { status: 200 as const, body: { data: await store.get(accountId, dataset, params.id), meta: callMeta(ctx) } };
    },
    update: async ({ params, body, reader, ctx }) => {
      if (body.filters) await reader.places.check(body.filters);
      const { accountId, dataset } = owner(ctx);
      const change = { name: body.name, filters: body.filters ? filtersAsText(body.filters) : undefined };
      return { status: 200 as const, body: { data: await store.update(accountId, dataset, params.id, change), meta: callMeta(ctx) } };
    },
    delete: async ({ params, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      await store.delete(accountId, dataset, params.id);
      return { status: 200 as const, body: { data: { id: params.id, deleted: true as const }, meta: callMeta(ctx) } };
    },
    listings: async ({ params, query, reader, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      const saved = await store.get(accountId, dataset, params.id);
      const filters = savedFiltersOf(saved.filters);
      if (query.sort === 'distance' && !filters.query.near) {
        throw new ApiError('validation_error', 'sort: distance needs a saved search with `near`.', {
          errors: [{ path: 'sort', message: 'distance needs `near` in the saved filters' }],
        });
      }
      const q = { ...filters.query, ...query } as TListingsQueryParsed;
      return listingsPage(reader, q, filters.effective, ctx);
    },
  };
}
