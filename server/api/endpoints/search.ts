/** `GET /listings`: one page of the listings matching the filters, with an exact total. */
import type { contract } from '../../../contract/router.js';
import type { DataCache } from '../../platform/data-cache.js';
import type { RouteHandler } from '../handler.js';
import { searchListings } from '../listings/search.js';
import { callMeta, type Readers } from './readers.js';

export const search =
  (of: Readers): RouteHandler<typeof contract.listings.search> =>
  async ({ query, ctx }) => {
    const d = of(ctx);
    await d.places.check(query);
    const result = await searchListings(d.data, d.cursors, query, d.cache as DataCache<number> | undefined);
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
