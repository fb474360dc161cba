/** `GET /valuations`: one property valued from comparable adverts (Enterprise). */
import type { contract } from '../../../contract/router.js';
import { callMeta } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { valuation as valueOne } from '../../domain/valuations/valuation.js';

export const valuation: RouteHandler<typeof contract.valuations.get> = async ({ query, filters, reader, ctx }) => {
  // The model in hand, or a 503 valuations_warming_up at once (never a fit on a request).
  const model = reader.valuations.model();
  const data = await valueOne(reader.data, query, filters, model);
  return { status: 200 as const, body: { data, meta: callMeta(ctx) } };
};
