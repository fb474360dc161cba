/**
 * The chain every /api/v1 call goes through, in order:
 * key → account → plan → rate limit and quota (one admission) → (handler) → counted once
 * the answer is written. The common case costs one in-memory key lookup and, before the
 * handler, a slot from the account's lease (no round trip) or one admission shared with the
 * other calls of the same event-loop turn. Each refusal is an ApiError with the
 * quota headers set; every answer of an identified caller carries them.
 */
import type pg from 'pg';
import { DATASET_HEADER } from '../../contract/dataset.js';
import { PING_RATE_PER_MINUTE, PLANS, TEST_KEYS } from '../../contract/plans.js';
import { effectiveLimits, keyVerdict, secondsUntilReset } from '../accounts/policy.js';
import { hashApiKey, isWellFormedApiKey } from '../accounts/api-keys.js';
import { ApiError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { BackgroundWork } from '../platform/background-work.js';
import type { Admission, AdmissionCaller, RateState } from '../quota/admission.js';
import type { ApiRequest, ApiResponse, Chain } from './handler.js';
import { type Caller, context, type RequestContext } from './context.js';
import type { KeyCache, ResolvedKey } from './key-cache.js';
import { quotaView, setQuotaHeaders } from './quota-headers.js';
import type { AnswerHeaders } from '../http/answer-headers.js';
import { admitExplorerCall, explorerCallOf, type ExplorerSessions, previewAllowed } from './explorer.js';

export interface PipelineDeps {
  pool: pg.Pool;
  keys: KeyCache;
  admission: Admission;
  /** Work done after an answer, awaited by a shutdown before the pool closes. */
  background: BackgroundWork;
  logger: Logger;
  /** The dashboard's market explorer: its sessions may call as one of their account's keys (explorer.ts). */
  explorer?: ExplorerSessions;
  now?: () => Date;
}

/** last_used_at is written at most once a minute per key, after the answer. */
const TOUCH_SQL = 'UPDATE api_keys SET last_used_at = now() WHERE id = $1';
const TOUCH_EVERY_MS = 60_000;

const INVALID = 'The API key is not valid: it is unknown, malformed or revoked.';

function setRateHeaders(headers: AnswerHeaders, rate: RateState, now: Date): void {
  headers.setHeader('RateLimit-Policy', `"minute";q=${rate.limit};w=60`);
  headers.setHeader('RateLimit', `"minute";r=${rate.remaining};t=${rate.resetSeconds}`);
  headers.setHeader('X-RateLimit-Limit', String(rate.limit));
  headers.setHeader('X-RateLimit-Remaining', String(rate.remaining));
  headers.setHeader('X-RateLimit-Reset', String(Math.floor(now.getTime() / 1000) + rate.resetSeconds));
}

/** An API answer's headers: the API's front handler gives every request its own. */
const headersOf = (res: ApiResponse): AnswerHeaders => context(res).headers!;

/** Where more calls come from: a bigger plan, or on the largest (a contract), the account manager. */
function moreCalls(plan: Caller['plan']): string {
  const names = Object.keys(PLANS) as Array<keyof typeof PLANS>;
  return plan === names[names.length - 1] ? 'your account manager can raise the quota of your contract.' : 'upgrade your plan for more.';
}

/** The quota as it stands, on a refusal that took nothing (suspended, plan, invalid request). */
function quotaAsItStands(deps: PipelineDeps) {
  return async (res: ApiResponse, caller: Caller, at: Date) => {
    const quota = quotaView(caller, await deps.admission.peek(caller, at), at);
    context(res).quota = quota;
    setQuotaHeaders(headersOf(res), quota);
  };
}

/** For an identified caller whose request is refused before admission: `meta.quota` and X-Quota-* as they stand. */
export function apiQuotaAsItStands(deps: PipelineDeps): Chain {
  const now = deps.now ?? (() => new Date());
  const show = quotaAsItStands(deps);
  return async (_req, res) => {
    const caller = context(res).caller;
    if (caller) await show(res, caller, now());
  };
}

/** The hash of the key in the X-API-Key header. */
function keyHashOf(req: ApiRequest): string {
  const header = req.headers['x-api-key'];
  const given = Array.isArray(header) ? header[0] : header;
  if (given === undefined || given.trim() === '') throw new ApiError('missing_api_key', 'Send your API key in the X-API-Key header.');
  const key = given.trim();
  if (!isWellFormedApiKey(key)) throw new ApiError('invalid_api_key', INVALID);
  return hashApiKey(key);
}

/** The chain's first half: who calls (key, account) and whether the plan includes the route. */
export function apiIdentity(deps: PipelineDeps): Chain {
  const now = deps.now ?? (() => new Date());

  const touch = (key: ResolvedKey, at: Date) => {
    if (at.getTime() - key.touchedAt <= TOUCH_EVERY_MS) return;
    key.touchedAt = at.getTime();
    void deps.background.track(
      deps.pool.query(TOUCH_SQL, [key.keyId]).catch((err: Error) => deps.logger.warn({ err: err.message }, 'last_used_at not written')),
    );
  };

  const showQuota = quotaAsItStands(deps);

  return async (req, res, metadata) => {
    const explorer = await explorerCallOf(deps.explorer, req, now());
    const keyHash = explorer?.keyHash ?? keyHashOf(req);
    const at = now();
    context(res).failureAccount = deps.keys.lastAccountOf(keyHash);
    const resolved = await deps.keys.resolve(keyHash);
    const verdict = keyVerdict(resolved, resolved, at);
    if (verdict === 'invalid') throw new ApiError('invalid_api_key', INVALID);

    const limits = effectiveLimits(resolved!);
    const caller: Caller = {
      accountId: resolved!.accountId,
      keyId: resolved!.keyId,
      plan: resolved!.plan,
      monthlyQuota: limits.monthlyQuota,
      ratePerMinute: limits.ratePerMinute,
    };
    const ctx = context(res);
    ctx.caller = caller;
    ctx.keyHash = keyHash;
    if (explorer) ctx.explorer = explorer;
    ctx.dataset = resolved!.kind === 'test' || explorer?.preview ? 'sample' : 'live';
    headersOf(res).setHeader(DATASET_HEADER, ctx.dataset);
    if (verdict === 'suspended') {
      await showQuota(res, caller, at);
      throw new ApiError(
        'account_suspended',
        resolved!.suspensionReason === 'non_payment'
          ? 'This account is suspended for an unpaid invoice. Access returns as soon as the payment is recorded; see the Billing page of the dashboard.'
          : 'This account is suspended. Contact Mboa support to restore access.',
      );
    }
    if (verdict === 'unverified') {
      await showQuota(res, caller, at);
      throw new ApiError(
        'email_unverified',
        'Confirm the e-mail address of this account first: open the link sent to it at sign-up (logging in to the dashboard mails a new one). The key works as soon as the address is confirmed.',
      );
    }
    if (!explorer) touch(resolved!, at);

    if (!metadata.plans.includes(caller.plan) && !previewAllowed(explorer, metadata.endpoint)) {
      await showQuota(res, caller, at);
      const names = metadata.plans.map((p) => PLANS[p].label).join(', ');
      throw new ApiError(
        'plan_forbidden',
        `${req.path} is not included in the ${PLANS[caller.plan].label} plan. Plans that include it: ${names}.`,
      );
    }
  };
}

/**
 * For a call that runs long (an export): whether its key may still call a route of `plans`,
 * read as the chain's first half reads it (not revoked or expired, the account active and
 * confirmed, the plan including the route).
 */
export function apiStillAllowed(deps: PipelineDeps) {
  const now = deps.now ?? (() => new Date());
  return async (ctx: RequestContext, plans: readonly string[]): Promise<boolean> => {
    if (!ctx.keyHash) return false;
    const key = await deps.keys.resolve(ctx.keyHash);
    return keyVerdict(key, key, now()) === 'valid' && plans.includes(key!.plan);
  };
}

/**
 * `ping`: never counted nor refused by the per-minute limit it shows (as it stands, this call
 * not in it), under a generous limit of its own per account. Answers whatever the quota.
 */
async function admitApart(deps: PipelineDeps, res: ApiResponse, caller: Caller & AdmissionCaller, endpoint: string, at: Date) {
  const ctx = context(res);
  const own = await deps.admission.admit({ ...caller, ratePerMinute: PING_RATE_PER_MINUTE, rateScope: 'ping' }, endpoint, false, at);
  ctx.quota = quotaView(caller, own.used, at);
  setQuotaHeaders(headersOf(res), ctx.quota);
  if (own.outcome === 'rate_limited') {
    const wait = String(own.rate!.resetSeconds);
    setRateHeaders(headersOf(res), own.rate!, at);
    throw new ApiError('rate_limited', `More than ${PING_RATE_PER_MINUTE} pings a minute. Retry in ${wait} s.`, {
      headers: { 'Retry-After': wait },
    });
  }
  const rate = await deps.admission.rateNow(caller, at);
  if (rate) setRateHeaders(headersOf(res), rate, at);
}

/** The chain's second half, once the request is known valid: rate limit and quota. */
export function apiAdmission(deps: PipelineDeps): Chain {
  const now = deps.now ?? (() => new Date());
  return async (req, res, metadata) => {
    const at = now();
    const ctx = context(res);
    if (ctx.explorer) return admitExplorerCall(deps.explorer!, deps.admission, res, metadata.endpoint, at);
    const sample = ctx.dataset === 'sample';
    // Test keys have their own per-minute limit and are never counted.
    const caller = sample ? { ...ctx.caller!, ratePerMinute: TEST_KEYS.ratePerMinute, rateScope: 'test' as const } : ctx.caller!;
    if (!metadata.rateLimited) return admitApart(deps, res, caller, metadata.endpoint, at);
    // HEAD shows what a GET would, and is never charged; a write is counted like a read (its 2xx only).
    const counted = !sample && metadata.counted && req.method !== 'HEAD';
    // Most calls of a busy account: from this instance's lease, with no round trip.
    const admission =
      deps.admission.admitFromLease(caller, metadata.endpoint, counted, at) ??
      (await deps.admission.admit(caller, metadata.endpoint, counted, at));
    if (admission.rate) setRateHeaders(headersOf(res), admission.rate, at);
    ctx.quota = quotaView(caller, admission.used, at);
    setQuotaHeaders(headersOf(res), ctx.quota);

    if (admission.outcome === 'rate_limited') {
      const wait = String(admission.rate!.resetSeconds);
      throw new ApiError('rate_limited', `Rate limit of ${admission.rate!.limit} calls per minute reached. Retry in ${wait} s.`, {
        headers: { 'Retry-After': wait },
      });
    }
    if (admission.outcome === 'quota_exceeded') {
      throw new ApiError(
        'quota_exceeded',
        `Monthly quota of ${caller.monthlyQuota} calls used up. It resets at ${ctx.quota.resets_at}; ${moreCalls(caller.plan)}`,
        { headers: { 'Retry-After': String(secondsUntilReset(at)), 'X-Should-Retry': 'false' } },
      );
    }
    const ticket = admission.ticket;
    if (ticket) {
      ctx.ticket = ticket;
      // Counted only once the whole answer was handed to the network with a 2xx status.
      ctx.onEnd = (finished) => void deps.admission.settle(ticket, finished && res.statusCode >= 200 && res.statusCode < 300);
    }
  };
}
