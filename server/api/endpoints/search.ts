/** `GET /listings`: one page of the listings matching the filters, with an exact total. */
import type { contract } from '../../../contract/router.js';
import type { DataCache } from '../../platform/data-cache.js';
import { callMeta } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { searchListings } from '../listings/search.js';

export const search: RouteHandler<typeof contract.listings.search> = async ({ query, filters, reader, ctx }) => {
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
};
