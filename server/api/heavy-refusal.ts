/** The 429 of a heavy read refused by one of its caps (quota/heavy-reads.ts): which cap, and when to retry. */
import { ApiError } from '../platform/errors.js';
import type { HeavyCost, HeavyRefusal } from '../quota/heavy-reads.js';

export function heavyRefusal(refusal: HeavyRefusal, cost: HeavyCost): ApiError {
  const wait = String(refusal.retryAfterSeconds);
  const detail =
    refusal.cap === 'concurrent'
      ? `Concurrency cap of heavy reads: at most ${refusal.limit} heavy read${refusal.limit > 1 ? 's' : ''} of one account run at once on a server, and this account's are running (this call is ${cost.what}). Retry in ${wait} s, or when one of them ends.`
      : refusal.cap === 'rate'
        ? `Cost cap of heavy reads: ${refusal.limit} cost units a minute per account on a server, and this call (${cost.what}) costs ${cost.units}. Retry in ${wait} s.`
        : `Every heavy-read slot of this server (${refusal.limit}) is in use by other calls (this call is ${cost.what}). Retry in ${wait} s.`;
  return new ApiError('rate_limited', detail, { headers: { 'Retry-After': wait } });
}
