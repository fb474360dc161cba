import type { AnswerHeaders } from '../http/answer-headers.js';
import type { TQuota } from '../../contract/schemas.js';
import { quotaView as view } from '../accounts/policy.js';
import type { Caller } from './context.js';

export function quotaView(caller: Caller, used: number, now: Date): TQuota {
  return view(caller.plan, caller.monthlyQuota, used, now);
}

/** X-Quota-* headers; the reset as Unix seconds, like X-RateLimit-Reset. */
export function setQuotaHeaders(headers: AnswerHeaders, quota: TQuota): void {
  const reset = Math.floor(Date.parse(quota.resets_at) / 1000);
  headers.setHeader('X-Quota-Limit', quota.limit === null ? 'unlimited' : String(quota.limit));
  headers.setHeader('X-Quota-Remaining', quota.remaining === null ? 'unlimited' : String(quota.remaining));
  headers.setHeader('X-Quota-Reset', String(reset));
}
