import type { Response } from 'express';
import type { TQuota } from '../../contract/schemas.js';
import { nextMonthStart } from '../accounts/quota-month.js';
import type { Caller } from './context.js';

export function quotaView(caller: Caller, used: number, now: Date): TQuota {
  const limit = caller.monthlyQuota;
  return {
    plan: caller.plan,
    limit,
    used,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resets_at: nextMonthStart(now).toISOString(),
  };
}

/** X-Quota-* headers; the reset as Unix seconds, like X-RateLimit-Reset. */
export function setQuotaHeaders(res: Response, quota: TQuota): void {
  const reset = Math.floor(Date.parse(quota.resets_at) / 1000);
  res.setHeader('X-Quota-Limit', quota.limit === null ? 'unlimited' : String(quota.limit));
  res.setHeader('X-Quota-Remaining', quota.remaining === null ? 'unlimited' : String(quota.remaining));
  res.setHeader('X-Quota-Reset', String(reset));
}
