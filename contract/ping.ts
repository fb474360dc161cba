/** `GET /ping`: the API and its database answer, with the caller's quota. */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ZSingleMeta } from './meta.js';

export const ZPingQuery = z.object({}).strict();

export const ZPing = z.object({
  status: extendApi(z.literal('ok'), { description: 'The API and its database answer.', example: 'ok' }),
  time: extendApi(z.string().datetime({ offset: true }), { description: 'Server time.', example: '2026-11-22T10:15:00.000Z' }),
  version: extendApi(z.string(), { description: 'API build version.', example: '0.1.0' }),
});
export type TPing = z.infer<typeof ZPing>;

export const ZPingResponse = z.object({ data: ZPing, meta: ZSingleMeta });
export type TPingResponse = z.infer<typeof ZPingResponse>;
