/** `GET /ping`: the service answers, with the caller's quota (never counted). */
import type { contract } from '../../../contract/router.js';
import { VERSION } from '../../platform/version.js';
import type { RouteHandler } from '../handler.js';
import { callMeta } from '../context.js';

// The chain has just read the account's quota: the service answers.
export const ping: RouteHandler<typeof contract.ping> = async ({ ctx }) => ({
  status: 200 as const,
  body: { data: { status: 'ok' as const, time: new Date().toISOString(), version: VERSION }, meta: callMeta(ctx) },
});
