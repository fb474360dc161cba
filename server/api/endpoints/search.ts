/** `GET /listings`: one page of the listings matching the filters, with an exact total. */
import type { contract } from '../../../contract/router.js';
import type { DataCache } from '../../platform/data-cache.js';
import { callMeta, type RequestContext } from '../context.js';
import type { TListingsQueryParsed } from '../../../contract/schemas.js';
import type { EffectiveFilters } from '../../domain/listing/filters.js';
import type { Reader } from '../reader.js';
import type { RouteHandler } from '../handler.js';
import { searchListings } from '../listings/search.js';

/** A page of the search as the API answers it: the listings and the page's `meta`. */
export async function listingsPage(reader: Reader, query: TListingsQueryParsed, filters: EffectiveFilters, ctx: RequestContext) {
  const result = await searchListings(reader.data, reader.cursors, query, filters, reader.cache as DataCache<number> | undefined);
  return {
    status: 200 as const,
    body: {
      data: result.data,
      meta: {
        total: result.total,
        returned: result.data.length,
        limit: query.limit,
        next_cursor: result.nextCursor,
        has_more: result.nextCursor !== null,
        ...callMeta(ctx),
      },
    },
  };
}

export const search: RouteHandler<typeof contract.listings.search> = ({ query, filters, reader, ctx }) =>
  listingsPage(reader, query, filters, ctx);
