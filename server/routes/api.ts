/**
 * The /api/v1 handlers. Each builds its body from the contract's shapes; `meta` comes from
 * the chain. Places are checked before anything is read: an unknown city or neighbourhood
 * is a 400 with suggestions (and, being an error, never charged). Each call reads its
 * dataset, the live data or, for test keys, the fixed public sample, with the same SQL.
 */
import type pg from 'pg';
import type { Dataset } from '../data/dataset.js';
import { contract } from '../../contract/router.js';
import { ApiError } from '../errors.js';
import type { DataCache } from '../http/data-cache.js';
import { defineHandlers } from '../http/api-handler.js';
import type { RequestContext } from '../http/context.js';
import { getListing } from '../listings/detail.js';
import { type ExportBlocks, streamListings } from '../listings/export.js';
import type { CursorCodec } from '../listings/cursor.js';
import { searchListings } from '../listings/search.js';
import { marketStats, marketTrends } from '../market/query.js';
import { KnownPlaces } from '../places/known-places.js';
import { VERSION } from '../version.js';

function single(ctx: RequestContext) {
  return { quota: ctx.quota!, request_id: ctx.requestId };
}

/** What a handler reads through: one per dataset. */
export interface DatasetDeps {
  data: Dataset;
  cursors: CursorCodec;
  /** Exact totals and market answers until the data changes (absent: read every time). */
  cache?: DataCache<unknown>;
}

export function apiRouter(
  datasets: { live: DatasetDeps; sample: DatasetDeps },
  exports: { pool: pg.Pool; blocks(ctx: RequestContext): ExportBlocks },
) {
  const readers = Object.fromEntries(
    Object.entries(datasets).map(([name, d]) => [
      name,
      {
        ...d,
        places: new KnownPlaces(d.data),
        cached: <T>(key: string, load: () => Promise<T>): Promise<T> => (d.cache ? (d.cache.get(key, load) as Promise<T>) : load()),
      },
    ]),
  ) as Record<'live' | 'sample', DatasetDeps & { places: KnownPlaces; cached: <T>(key: string, load: () => Promise<T>) => Promise<T> }>;
  const of = (ctx: RequestContext) => readers[ctx.dataset ?? 'live'];
  return defineHandlers(contract, {
    listings: {
      search: async ({ query, ctx }) => {
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
              ...single(ctx),
            },
          },
        };
      },
      get: async ({ params, query, ctx }) => {
        const listing = await getListing(of(ctx).data, params.id, query.currency);
        if (!listing) throw new ApiError('not_found', `No listing with id ${params.id}.`);
        return { status: 200 as const, body: { data: listing, meta: single(ctx) } };
      },
    },
    market: {
      stats: async ({ query, ctx }) => {
        const d = of(ctx);
        await d.places.check(query);
        const data = await d.cached(`stats:${JSON.stringify(query)}`, () => marketStats(d.data, query));
        return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...single(ctx) } } };
      },
      trends: async ({ query, ctx }) => {
        const d = of(ctx);
        await d.places.check(query);
        const data = await d.cached(`trends:${JSON.stringify(query)}`, () => marketTrends(d.data, query));
        return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...single(ctx) } } };
      },
    },
    exports: {
      listings: async ({ query, ctx, req, res }) => {
        const d = of(ctx);
        await d.places.check(query);
        if (req.method === 'HEAD') {
          res.statusCode = 200;
          res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
          res.end();
          return { status: 'streamed' as const };
        }
        const result = await streamListings(exports.pool, d.data, query, res, exports.blocks(ctx));
        // An export that stopped early must not look complete: cut it, never end it cleanly.
        if (!result.complete && !res.destroyed) res.destroy();
        return { status: 'streamed' as const };
      },
    },
    ping: async ({ ctx }) => {
      // The chain has just read the account's quota: the service answers.
      return { status: 200 as const, body: { data: { status: 'ok' as const, time: new Date().toISOString(), version: VERSION }, meta: single(ctx) } };
    },
  });
}
