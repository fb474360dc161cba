import type { ServerResponse } from 'node:http';
import type { TQuota } from '../../contract/schemas.js';
import { quotaView as view } from '../accounts/policy.js';
import type { Caller } from './context.js';

export function quotaView(caller: Caller, used: number, now: Date): TQuota {
  return view(caller.plan, caller.monthlyQuota, used, now);
}

/** X-Quota-* headers; the reset as Unix seconds, like X-RateLimit-Reset. */
export function setQuotaHeaders(res: ServerResponse, quota: TQuota): void {
  const reset = Math.floor(Date.parse(quota.resets_at) / 1000);
  res.setHeader('X-Quota-Limit', quota.limit === null ? 'unlimited' : String(quota.limit));
  res.setHeader('X-Quota-Remaining', quota.remaining === null ? 'unlimited' : String(quota.remaining));
  res.setHeader('X-Quota-Reset', String(reset));
}
