/**
 * Calls from the dashboard's market explorer (`/dashboard/market`). The page reads
 * `/api/v1` as a customer's code does, so plan gates and figures are the same, but it
 * holds no key: it sends `X-Mboa-Explorer`, naming its dashboard session and the key of the
 * account the session acts as. The chain then resolves that key as if it had been sent
 * (revoked, suspended, unconfirmed, plan: the same refusals, the same dataset), and admits
 * the call here instead of through the quota: never counted in the monthly quota, limited
 * per dashboard session rather than by the plan's per-minute limit.
 *
 * `preview`: a valuation on the public sample for a plan that does not include valuations,
 * so the page can show what the answer looks like; the sample is what every test key reads.
 *
 * The dashboard implements `ExplorerSessions` (server/dashboard/explorer-access.ts); the
 * server passes it to the chain (start/create-server.ts).
 */
import type { EndpointName } from '../../contract/plans.js';
import { ApiError } from '../platform/errors.js';
import type { Admission } from '../quota/admission.js';
import { type Caller, context, type ExplorerCall } from './context.js';
import type { ApiRequest, ApiResponse } from './handler.js';
import { quotaView, setQuotaHeaders } from './quota-headers.js';

export const EXPLORER_HEADER = 'x-mboa-explorer';

export type { ExplorerCall };

export interface ExplorerSessions {
  /** The session and key a credential names; null when it is malformed, unknown, expired or names another account's key. */
  resolve(credential: string, at: Date): Promise<ExplorerCall | null>;
  /** Counts one call in the session's window: null when it may go ahead, else the seconds to wait. */
  take(sessionId: string): Promise<number | null>;
  /** Calls a session may make per window, and the window's length in seconds (for the refusal's words). */
  readonly limit: { points: number; windowSeconds: number };
}

/** Routes a preview may call on the sample whatever the plan: what the page shows as "what the answer looks like". */
const PREVIEW_ENDPOINTS: readonly EndpointName[] = ['valuations.get'];

const INVALID = 'The dashboard session of this page has ended or does not hold this key: reload the page (log in again if asked).';

/** The explorer call a request makes, or null for an ordinary call with a key. */
export async function explorerCallOf(sessions: ExplorerSessions | undefined, req: ApiRequest, at: Date): Promise<ExplorerCall | null> {
  const header = req.headers[EXPLORER_HEADER];
  if (!sessions || header === undefined) return null;
  const credential = Array.isArray(header) ? header[0] : header;
  const call = await sessions.resolve(credential, at);
  if (!call) throw new ApiError('invalid_api_key', INVALID);
  return call;
}

/** Whether a preview may call this route whatever the plan. */
export const previewAllowed = (call: ExplorerCall | null, endpoint: EndpointName): boolean =>
  call?.preview === true && PREVIEW_ENDPOINTS.includes(endpoint);

/**
 * How long one reading of an account's quota serves its explorer calls: a city's map by
 * 12-month change sends one call per quarter at once, and none of them changes the count.
 */
const QUOTA_READ_MS = 1_000;
const quotaReads = new WeakMap<Admission, Map<string, { at: number; used: Promise<number> }>>();

/** The account's count as it stands, read at most once a second for its explorer calls (they take nothing from it). */
function quotaNow(admission: Admission, caller: Caller, at: Date): Promise<number> {
  let reads = quotaReads.get(admission);
  if (!reads) quotaReads.set(admission, (reads = new Map()));
  const hit = reads.get(caller.accountId);
  if (hit && at.getTime() - hit.at < QUOTA_READ_MS) return hit.used;
  for (const [account, read] of reads) if (at.getTime() - read.at >= QUOTA_READ_MS) reads.delete(account);
  const used = admission.peek(caller, at);
  reads.set(caller.accountId, { at: at.getTime(), used });
  void used.catch(() => reads.delete(caller.accountId));
  return used;
}

/**
 * Admits an explorer call: the quota as it stands in `meta` and the headers (this call
 * takes nothing from it; read at most once a second per account), then the session's
 * window. Every route but the bulk export, which is charged by blocks of lines.
 */
export async function admitExplorerCall(
  sessions: ExplorerSessions,
  admission: Admission,
  res: ApiResponse,
  endpoint: EndpointName,
  at: Date,
): Promise<void> {
  const ctx = context(res);
  const caller = ctx.caller!;
  // A bulk export is charged per block of lines: never through the page, which has no use for one.
  if (endpoint === 'exports.listings') {
    throw new ApiError('plan_forbidden', 'The market explorer does not export: call /api/v1/exports/listings with your API key.');
  }
  ctx.quota = quotaView(caller, await quotaNow(admission, caller, at), at);
  setQuotaHeaders(ctx.headers!, ctx.quota);
  const wait = await sessions.take(ctx.explorer!.sessionId);
  if (wait !== null) {
    const { points, windowSeconds } = sessions.limit;
    throw new ApiError(
      'rate_limited',
      `The market explorer makes at most ${points} calls per ${windowSeconds} s for one dashboard session. Retry in ${wait} s.`,
      { headers: { 'Retry-After': String(wait) } },
    );
  }
}
