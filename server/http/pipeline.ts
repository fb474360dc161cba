/**
 * The chain every /api/v1 call goes through, in order:
 * key → account → plan → rate limit → quota → (handler) → meta.
 * Each step either records what it learnt on the request context or throws an ApiError.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type pg from 'pg';
import { PLANS } from '../../contract/plans.js';
import type { RouteMetadata } from '../../contract/router.js';
import { hashApiKey, isWellFormedApiKey } from '../accounts/api-keys.js';
import { nextMonthStart } from '../accounts/quota-month.js';
import { ApiError } from '../errors.js';
import type { Logger } from '../logger.js';
import { type Caller, context } from './context.js';
import { quotaView, setQuotaHeaders } from './quota-view.js';
import type { AccountRateLimiter } from './rate-limit.js';
import type { UsageMeter } from './usage-meter.js';

export interface PipelineDeps {
  pool: pg.Pool;
  meter: UsageMeter;
  rateLimiter: AccountRateLimiter;
  logger: Logger;
  now?: () => Date;
}

interface KeyRow {
  key_id: string;
  account_id: string;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  plan: Caller['plan'];
  status: 'active' | 'suspended';
  monthly_quota_override: number | null;
  rate_limit_override: number | null;
}

const KEY_SQL = `
SELECT k.id AS key_id, k.account_id, k.revoked_at, k.expires_at, k.last_used_at,
       a.plan, a.status, a.monthly_quota_override, a.rate_limit_override
FROM api_keys k JOIN accounts a ON a.id = k.account_id
WHERE k.hash = $1`;

/** last_used_at is written at most once a minute per key, after the answer. */
const TOUCH_SQL = `UPDATE api_keys SET last_used_at = now() WHERE id = $1`;
const TOUCH_EVERY_MS = 60_000;

const wrap =
  (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  (req, res, next: NextFunction) => {
    fn(req, res).then(() => next(), next);
  };

export function apiPipeline(deps: PipelineDeps): RequestHandler[] {
  const now = deps.now ?? (() => new Date());

  const authenticate = wrap(async (req, res) => {
    const key = req.get('x-api-key');
    if (key === undefined || key.trim() === '') {
      throw new ApiError('missing_api_key', 'Send your API key in the X-API-Key header.');
    }
    const invalid = new ApiError('invalid_api_key', 'The API key is not valid: it is unknown, malformed or revoked.');
    if (!isWellFormedApiKey(key.trim())) throw invalid;
    const { rows } = await deps.pool.query<KeyRow>(KEY_SQL, [hashApiKey(key.trim())]);
    const row = rows[0];
    const at = now();
    if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= at)) throw invalid;
    if (row.status === 'suspended') {
      throw new ApiError('account_suspended', 'This account is suspended. Contact Mboa support to restore access.');
    }
    const plan = PLANS[row.plan];
    context(res).caller = {
      accountId: row.account_id,
      keyId: row.key_id,
      plan: row.plan,
      monthlyQuota: row.monthly_quota_override ?? plan.monthlyQuota,
      ratePerMinute: row.rate_limit_override ?? plan.ratePerMinute,
    };
    if (!row.last_used_at || at.getTime() - row.last_used_at.getTime() > TOUCH_EVERY_MS) {
      res.once('finish', () => {
        deps.pool.query(TOUCH_SQL, [row.key_id]).catch((err: Error) => deps.logger.warn({ err: err.message }, 'last_used_at not written'));
      });
    }
  });

  const authorizePlan = wrap(async (req, res) => {
    const caller = context(res).caller!;
    const metadata = routeMetadata(req);
    if (!metadata.plans.includes(caller.plan)) {
      const at = now();
      context(res).quota = quotaView(caller, await deps.meter.used(caller.accountId, at), at);
      const names = metadata.plans.map((p) => PLANS[p].label).join(', ');
      throw new ApiError('plan_forbidden', `${req.path} is not included in the ${PLANS[caller.plan].label} plan. Plans that include it: ${names}.`);
    }
  });

  const rateLimit = wrap(async (_req, res) => {
    const caller = context(res).caller!;
    if (caller.ratePerMinute === null) return;
    const d = await deps.rateLimiter.consume(caller.accountId, caller.ratePerMinute);
    res.setHeader('RateLimit-Policy', `"minute";q=${d.limit};w=60`);
    res.setHeader('RateLimit', `"minute";r=${d.remaining};t=${d.resetSeconds}`);
    res.setHeader('X-RateLimit-Limit', String(d.limit));
    res.setHeader('X-RateLimit-Remaining', String(d.remaining));
    res.setHeader('X-RateLimit-Reset', String(Math.floor(now().getTime() / 1000) + d.resetSeconds));
    if (!d.allowed) {
      // The quota is unchanged by a refused call: show it as it stands.
      const at = now();
      context(res).quota = quotaView(caller, await deps.meter.used(caller.accountId, at), at);
      throw new ApiError('rate_limited', `Rate limit of ${d.limit} calls per minute reached. Retry in ${d.resetSeconds} s.`, {
        headers: { 'Retry-After': String(d.resetSeconds) },
      });
    }
  });

  const meterQuota = wrap(async (req, res) => {
    const ctx = context(res);
    const caller = ctx.caller!;
    const metadata = routeMetadata(req);
    const at = now();
    if (!metadata.counted) {
      ctx.quota = quotaView(caller, await deps.meter.used(caller.accountId, at), at);
      setQuotaHeaders(res, ctx.quota);
      return;
    }
    const { used, reservation } = await deps.meter.reserve({
      accountId: caller.accountId,
      keyId: caller.keyId,
      endpoint: metadata.endpoint,
      limit: caller.monthlyQuota,
      now: at,
    });
    ctx.quota = quotaView(caller, used, at);
    setQuotaHeaders(res, ctx.quota);
    if (!reservation) {
      const retryAfter = Math.max(1, Math.ceil((nextMonthStart(at).getTime() - at.getTime()) / 1000));
      throw new ApiError(
        'quota_exceeded',
        `Monthly quota of ${caller.monthlyQuota} calls used up. It resets at ${ctx.quota.resets_at}; upgrade your plan for more.`,
        { headers: { 'Retry-After': String(retryAfter), 'X-Should-Retry': 'false' } },
      );
    }
    ctx.reservation = reservation;
    // Whatever path the answer takes, a call not answered 2xx is given back.
    res.once('finish', () => {
      if (res.statusCode >= 300 && !reservation.released) {
        deps.meter.release(reservation).catch((err: Error) => deps.logger.error({ err: err.message }, 'usage not released'));
      }
    });
    res.once('close', () => {
      if (!res.writableFinished && !reservation.released) {
        deps.meter.release(reservation).catch((err: Error) => deps.logger.error({ err: err.message }, 'usage not released'));
      }
    });
  });

  return [authenticate, authorizePlan, rateLimit, meterQuota];
}

export function routeMetadata(req: Request): RouteMetadata {
  return (req as Request & { tsRestRoute: { metadata: RouteMetadata } }).tsRestRoute.metadata;
}
