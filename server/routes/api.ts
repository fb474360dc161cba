/** The /api/v1 handlers. Each builds its body from the contract's shapes; `meta` comes from the chain. */
import type { Response } from 'express';
import { initServer } from '@ts-rest/express';
import type pg from 'pg';
import { contract } from '../../contract/router.js';
import { ApiError } from '../errors.js';
import { context } from '../http/context.js';
import { getListing } from '../listings/detail.js';
import type { CursorCodec } from '../listings/cursor.js';
import { searchListings } from '../listings/search.js';
import { marketStats, marketTrends } from '../market/query.js';
import { VERSION } from '../version.js';

function single(res: Response) {
  const ctx = context(res);
  return { quota: ctx.quota!, request_id: ctx.requestId };
}

export function apiRouter(deps: { pool: pg.Pool; cursors: CursorCodec }) {
  const s = initServer();
  return s.router(contract, {
    listings: {
      search: async ({ query, res }) => {
        const result = await searchListings(deps.pool, deps.cursors, query);
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
              ...single(res),
            },
          },
        };
      },
      get: async ({ params, res }) => {
        const listing = await getListing(deps.pool, params.id);
        if (!listing) throw new ApiError('not_found', `No listing with id ${params.id}.`);
        return { status: 200 as const, body: { data: listing, meta: single(res) } };
      },
    },
    market: {
      stats: async ({ query, res }) => {
        const data = await marketStats(deps.pool, query);
        return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...single(res) } } };
      },
      trends: async ({ query, res }) => {
        const data = await marketTrends(deps.pool, query);
        return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...single(res) } } };
      },
    },
    ping: async ({ res }) => {
      await deps.pool.query('SELECT 1');
      return { status: 200 as const, body: { data: { status: 'ok' as const, time: new Date().toISOString(), version: VERSION }, meta: single(res) } };
    },
  });
}
