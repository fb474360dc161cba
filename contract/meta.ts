/**
 * The `meta` objects of the API's answers: the caller's quota, the request id, the dataset read, and the
 * page or collection counts. Re-exported by schemas.ts, where the answers are built.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { oneOf } from './params.js';
import { PLAN_NAMES } from './plans.js';
import { ZDataset } from './dataset.js';

const timestamp = (description: string, example: string) => extendApi(z.string().datetime({ offset: true }), { description, example });

export const ZQuota = z.object({
  plan: extendApi(oneOf(PLAN_NAMES), { description: "The account's plan.", example: 'starter' }),
  limit: extendApi(z.number().int().nullable(), { description: 'Calls included this month; null when unlimited.', example: 10000 }),
  used: extendApi(z.number().int(), { description: 'Calls counted this month, this one included.', example: 1234 }),
  remaining: extendApi(z.number().int().nullable(), { description: 'Calls left this month; null when unlimited.', example: 8766 }),
  resets_at: timestamp('When the count returns to zero: 00:00 UTC on the 1st of next month.', '2026-12-01T00:00:00.000Z'),
});
export type TQuota = z.infer<typeof ZQuota>;

const requestId = extendApi(z.string(), { description: 'Equals the `X-Request-Id` response header.', example: 'req_3x9f0a1b2c4d5e6f' });

/** What every successful answer's `meta` ends with: the quota, the request id, the dataset read. */
const CALL_META = { quota: ZQuota, request_id: requestId, dataset: ZDataset };

export const ZSingleMeta = z.object(CALL_META);
export type TSingleMeta = z.infer<typeof ZSingleMeta>;

export const ZPageMeta = z.object({
  total: extendApi(z.number().int(), { description: 'Exact number of records matching the filters.', example: 1842 }),
  returned: extendApi(z.number().int(), { description: 'Records in this response.', example: 20 }),
  limit: extendApi(z.number().int(), { description: 'Page size applied.', example: 20 }),
  next_cursor: extendApi(z.string().nullable(), {
    description: 'Pass as `cursor` (with the same filters and sort) for the next page; null on the last page.',
    example: 'eyJ2IjoxLCJrIjpbIjIwMjYtMTEtMDFUMTA6MDA6MDAuMDAwWiIsImxzdF8xIl19',
  }),
  has_more: extendApi(z.boolean(), { description: 'Whether another page follows.', example: true }),
  ...CALL_META,
});
export type TPageMeta = z.infer<typeof ZPageMeta>;

export const ZCollectionMeta = z.object({
  total: extendApi(z.number().int(), { description: 'Number of rows returned (these collections are not paginated).', example: 3 }),
  returned: extendApi(z.number().int(), { description: 'Rows in this response.', example: 3 }),
  ...CALL_META,
});
export type TCollectionMeta = z.infer<typeof ZCollectionMeta>;
