/** What every example answer of the document shares: its request id, and the quota of a Pro account. */
import type { TQuota } from '../schemas.js';

export const REQUEST_ID = 'req_3x9f0a1b2c4d5e6f';
export const QUOTA: TQuota = { plan: 'pro', limit: 100000, used: 1235, remaining: 98765, resets_at: '2026-12-01T00:00:00.000Z' };
