/** What the middleware chain learns about a request, kept on `res.locals`. */
import type { Response } from 'express';
import type { TQuota } from '../../contract/schemas.js';
import type { PlanName } from '../../contract/plans.js';
import type { Reservation } from './usage-meter.js';

export interface Caller {
  accountId: string;
  keyId: string;
  plan: PlanName;
  monthlyQuota: number | null;
  ratePerMinute: number | null;
}

export interface RequestContext {
  requestId: string;
  caller?: Caller;
  /** The quota after this call, once known (sent in `meta.quota`). */
  quota?: TQuota;
  /** A counted call's place in the monthly count, given back if the answer is not 2xx. */
  reservation?: Reservation;
}

export function context(res: Response): RequestContext {
  return res.locals as RequestContext;
}
