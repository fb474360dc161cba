/** `GET /market/trends`: the last 30 days against the 30 before, per neighbourhood, type and purpose. */
import type { contract } from '../../../contract/router.js';
import type { RouteHandler } from '../handler.js';
import { marketTrends } from '../market/query.js';
import { callMeta, type Readers } from './readers.js';

export const trends =
  (of: Readers): RouteHandler<typeof contract.market.trends> =>
  async ({ query, ctx }) => {
    const d = of(ctx);
    await d.places.check(query);
    const data = await d.cached(`trends:${JSON.stringify(query)}`, () => marketTrends(d.data, query));
    return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...callMeta(ctx) } } };
  };
