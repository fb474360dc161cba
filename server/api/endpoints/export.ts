/**
 * `GET /exports/listings`: every matching listing as NDJSON, streamed in id order and
 * charged per started block of lines (`blocks`, from the quota).
 */
import type pg from 'pg';
import type { contract } from '../../../contract/router.js';
import type { RequestContext } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { type ExportBlocks, streamListings } from '../listings/export.js';

export interface ExportDeps {
  /** The exports' own small pool: a bulk export holds its connection for as long as it streams. */
  pool: pg.Pool;
  blocks(ctx: RequestContext): ExportBlocks;
}

export const exportListings =
  (deps: ExportDeps): RouteHandler<typeof contract.exports.listings> =>
  async ({ query, filters, reader, ctx, req, res }) => {
    if (req.method === 'HEAD') {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
      res.end();
      return { status: 'streamed' as const };
    }
    const result = await streamListings(deps.pool, reader.data, query, filters, res, deps.blocks(ctx));
    // An export that stopped early must not look complete: cut it, never end it cleanly.
    if (!result.complete && !res.destroyed) res.destroy();
    return { status: 'streamed' as const };
  };
