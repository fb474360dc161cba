/** `GET /market/stats`: price figures per city and purpose (per type or neighbourhood on request). */
import type { contract } from '../../../contract/router.js';
import type { RouteHandler } from '../handler.js';
import { marketStats } from '../market/query.js';
import { callMeta, type Readers } from './readers.js';

export const stats =
  (of: Readers): RouteHandler<typeof contract.market.stats> =>
  async ({ query, ctx }) => {
    const d = of(ctx);
    await d.places.check(query);
    const data = await d.cached(`stats:${JSON.stringify(query)}`, () => marketStats(d.data, query));
    return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...callMeta(ctx) } } };
  };
