/**
 * `GET /exports/listings`: every matching listing as NDJSON, streamed in id order and
 * charged per started block of lines (`blocks`, from the quota).
 */
import type pg from 'pg';
import type { contract } from '../../../contract/router.js';
import type { RequestContext } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { type ExportBlocks, streamListings } from '../listings/export.js';
import type { Readers } from './readers.js';

export interface ExportDeps {
  pool: pg.Pool;
  blocks(ctx: RequestContext): ExportBlocks;
}

export const exportListings =
  (of: Readers, deps: ExportDeps): RouteHandler<typeof contract.exports.listings> =>
  async ({ query, ctx, req, res }) => {
    const d = of(ctx);
    await d.places.check(query);
    if (req.method === 'HEAD') {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
      res.end();
      return { status: 'streamed' as const };
    }
    const result = await streamListings(deps.pool, d.data, query, res, deps.blocks(ctx));
    // An export that stopped early must not look complete: cut it, never end it cleanly.
    if (!result.complete && !res.destroyed) res.destroy();
    return { status: 'streamed' as const };
  };
