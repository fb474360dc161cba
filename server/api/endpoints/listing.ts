/** `GET /listings/{id}`: one listing with its price history. */
import type { contract } from '../../../contract/router.js';
import { ApiError } from '../../platform/errors.js';
import { callMeta } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { getListing } from '../listings/detail.js';

export const listing: RouteHandler<typeof contract.listings.get> = async ({ params, query, reader, ctx }) => {
  const found = await getListing(reader.data, params.id, query.currency);
  if (!found) throw new ApiError('not_found', `No listing with id ${params.id}.`);
  return { status: 200 as const, body: { data: found, meta: callMeta(ctx) } };
};
