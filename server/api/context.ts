/** What the request chain learns about a request, kept on `res.locals`. */
import type { ServerResponse } from 'node:http';
import type { PlanName } from '../../contract/plans.js';
import type { TQuota } from '../../contract/schemas.js';
import type { StartedRequest } from '../http/request-start.js';
import type { Ticket } from '../quota/admission.js';
import type { HeavyCost } from '../quota/heavy-reads.js';

export interface Caller {
  accountId: string;
  keyId: string;
  plan: PlanName;
  monthlyQuota: number | null;
  ratePerMinute: number | null;
}

/** A call of the dashboard's market explorer (explorer.ts): what its credential stands for. */
export interface ExplorerCall {
  /** The dashboard session, whose window the call counts in. */
  sessionId: string;
  /** The hash of the account's key the session acts as. */
  keyHash: string;
  /** Read the public sample whatever the key (and, for the routes explorer.ts names, whatever the plan). */
  preview: boolean;
}

export interface RequestContext extends StartedRequest {
  caller?: Caller;
  /** The hash of the caller's key, to read it again while a long call (an export) runs. */
  keyHash?: string;
  /** What the call reads: the listings (live keys) or the fixed public sample (test keys). */
  dataset?: 'live' | 'sample';
  /** The quota after this call, once known (sent in `meta.quota`). */
  quota?: TQuota;
  /** The live-key account a failed answer counts against when the key could not be resolved (database unreachable). */
  failureAccount?: string;
  /** Made by the dashboard's market explorer: never counted, limited per dashboard session. */
  explorer?: ExplorerCall;
  /** A counted call's place in the quota, settled when its answer is known. */
  ticket?: Ticket;
  /** A heavy read (api/costs.ts): what it costs; absent for a cheap one. */
  heavy?: HeavyCost;
  /** Its statement ran past the timeout of its kind (ms): a 503 whose cause is the read's own cost when heavy. */
  timedOutAfterMs?: number;
}

export function context(res: ServerResponse & { locals?: unknown }): RequestContext {
  return res.locals as RequestContext;
}

/** The part of `meta` every answer carries: the caller's quota, the request id and the dataset read. */
export function callMeta(ctx: RequestContext) {
  return { quota: ctx.quota!, request_id: ctx.requestId, dataset: ctx.dataset! };
}
