/**
 * `GET /exports/listings`: every matching listing as NDJSON, streamed in id order and
 * charged per started block of lines (`blocks`, from the quota).
 *
 * An export holds one of the instance's few export connections for as long as it streams,
 * so it holds it only while it may: its key is checked again every `checkMs` and the
 * connection is cut as soon as the key is revoked or expired, the account suspended or
 * closed, or the plan no longer includes exports (the SDK then resumes and gets the
 * refusal); a client that reads nothing for `idleMs` is cut too, and so is one that keeps
 * too slow a pace (`pace`: less than `minBytes` taken in `windowMs` of the export waiting
 * on it); one account streams at most `perAccount` exports at once on an instance, and
 * the instance `slots` in all (a 429 `rate_limited` with `Retry-After` beyond either), so
 * no customer can hold every slot and a customer finding them full is told when to retry.
 */
import type pg from 'pg';
import { contract } from '../../../contract/router.js';
import type { Admission } from '../../quota/admission.js';
import { ApiError } from '../../platform/errors.js';
import type { Logger } from '../../platform/logger.js';
import type { RequestContext } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { type ExportBlocks, type ExportPace, streamListings } from '../listings/export.js';

export interface ExportLimits {
  /** Exports one account may stream at once on an instance. */
  perAccount: number;
  /** Exports streaming at once on an instance (its export pool's connections). */
  slots: number;
  /** A client that reads nothing this long (ms) is cut. */
  idleMs: number;
  /** A client slower than this is cut: a slot is held only while the reader keeps pace. */
  pace: ExportPace;
  /** How often (ms) an export in flight checks that its key may still export. */
  checkMs: number;
}

export interface ExportDeps {
  /** The exports' own small pool: a bulk export holds its connection for as long as it streams. */
  pool: pg.Pool;
  admission: Admission;
  /** Whether the caller's key may still call a route of these plans (read again, as the chain does). */
  stillAllowed(ctx: RequestContext, plans: readonly string[]): Promise<boolean>;
  limits: ExportLimits;
  logger: Logger;
}

const PLANS = contract.exports.listings.metadata.plans;

/** Exports streaming at once per instance (its export pool's connections); the next gets 429 with Retry-After. */
export const EXPORT_SLOTS = 4;
/**
 * Half the export slots at most for one account; cut after 30 s unread, or when the client
 * takes less than 64 kB in 30 s of the export waiting on it; the key checked every second.
 */
export const EXPORT_LIMITS: ExportLimits = {
  perAccount: Math.max(1, Math.floor(EXPORT_SLOTS / 2)),
  slots: EXPORT_SLOTS,
  idleMs: 30_000,
  pace: { windowMs: 30_000, minBytes: 64 * 1024 },
  checkMs: 1_000,
};

/**
 * How a bulk export is charged: its first block is the call the chain admitted, counted
 * as soon as its first line goes out; each next block of lines takes one more call of the
 * quota (not of the per-minute limit) before its first line, and stops the export when the
 * quota is used up. Test keys' exports are never counted.
 */
function exportBlocks(admission: Admission, ctx: RequestContext): ExportBlocks {
  return {
    async start(index) {
      if (ctx.dataset === 'sample' || !ctx.caller) return true;
      // Counted as its first line goes out; the count is not waited for (it goes with the
      // instance's next batch to Redis): the slot the block holds until then keeps the quota exact.
      if (index === 0) {
        if (ctx.ticket) void admission.settle(ctx.ticket, true);
        return true;
      }
      const block = await admission.admit({ ...ctx.caller, ratePerMinute: null }, 'exports.listings', true, new Date());
      if (block.outcome !== 'admitted') return false;
      if (block.ticket) void admission.settle(block.ticket, true);
      return true;
    },
  };
}

export const exportListings = (deps: ExportDeps): RouteHandler<typeof contract.exports.listings> => {
  /** Exports streaming now on this instance, by account, and in all. */
  const streaming = new Map<string, number>();
  let inFlight = 0;
  return async ({ query, filters, reader, ctx, req, res }) => {
    if (req.method === 'HEAD') {
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
      res.end();
      return { status: 'streamed' as const };
    }
    const account = ctx.caller!.accountId;
    const mine = streaming.get(account) ?? 0;
    if (mine >= deps.limits.perAccount) {
      throw new ApiError(
        'rate_limited',
        `At most ${deps.limits.perAccount} exports of one account stream at once on a server, and this account's are running: retry when one of them ends.`,
        { headers: { 'Retry-After': '5' } },
      );
    }
    if (inFlight >= deps.limits.slots) {
      throw new ApiError(
        'rate_limited',
        `Every export slot of this server (${deps.limits.slots}) is streaming other customers' exports: retry in a few seconds. Not charged.`,
        { headers: { 'Retry-After': '5' } },
      );
    }
    streaming.set(account, mine + 1);
    inFlight++;
    const cut = (why: string) => {
      if (res.destroyed) return;
      deps.logger.info({ request_id: ctx.requestId, account }, `export cut: ${why}`);
      res.destroy();
    };
    let checking = false;
    const watch = setInterval(() => {
      if (checking || res.destroyed) return;
      checking = true;
      deps
        .stillAllowed(ctx, PLANS)
        .then((ok) => !ok && cut('its key or account may no longer export'))
        // The database not answering stops the export by itself; a check that failed decides nothing.
        .catch(() => {})
        .finally(() => (checking = false));
    }, deps.limits.checkMs);
    watch.unref();
    try {
      const result = await streamListings(deps.pool, reader.data, query, filters, res, exportBlocks(deps.admission, ctx), {
        idleMs: deps.limits.idleMs,
        pace: deps.limits.pace,
      });
      // An export that stopped early must not look complete: cut it, never end it cleanly.
      if (!result.complete) cut(result.stopped ?? 'stopped');
    } finally {
      clearInterval(watch);
      inFlight--;
      const left = (streaming.get(account) ?? 1) - 1;
      if (left > 0) streaming.set(account, left);
      else streaming.delete(account);
    }
    return { status: 'streamed' as const };
  };
};
