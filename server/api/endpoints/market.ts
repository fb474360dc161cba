/**
 * `GET /market/stats` (price figures per city and purpose, per type or neighborhood on
 * request) and `GET /market/trends` (the last 30 days against the 30 before, per
 * neighborhood, type and purpose): one shape, two reads of the precomputed tables. Every
 * row is one page; answers go through the dataset's cache, as they change only with the data.
 */
import type { contract } from '../../../contract/router.js';
import type { TMarketStat, TMarketTrend } from '../../../contract/schemas.js';
import { callMeta, type RequestContext } from '../context.js';
import type { Dataset } from '../../domain/listing/dataset.js';
import type { RouteHandler } from '../handler.js';
import type { EffectiveFilters } from '../../domain/listing/filters.js';
import { marketStats, marketTrends } from '../../domain/market/query.js';
import type { Reader } from '../reader.js';

type MarketRead<Q, Row> = (data: Dataset, query: Q, filters: EffectiveFilters) => Promise<Row[]>;

/** What an answer depends on besides its filters. */
interface MarketQuery {
  currency: string;
  bedrooms?: number;
  group_by?: string;
}

/**
 * What an answer depends on, and all it depends on: the place, type and purpose as applied
 * (two spellings of a place share an answer), the bedrooms asked or grouped by and the
 * currency. A matching key holds no `-`; lists are sorted and distinct, so `sale,rent` and
 * `rent,sale` share an answer.
 */
function cacheKey(name: string, q: MarketQuery, f: EffectiveFilters): string {
  const place = `${f.cityKey ?? '-'}:${f.neighborhoodKey ?? '-'}`;
  const bedrooms = `${q.bedrooms ?? '-'}:${q.group_by ?? '-'}`;
  return `${name}:${q.currency}:${place}:${f.type?.join(',') ?? '-'}:${f.purpose?.join(',') ?? '-'}:${bedrooms}`;
}

function marketFigures<Q extends MarketQuery, Row>(name: string, read: MarketRead<Q, Row>) {
  return async ({ query, filters, reader, ctx }: { query: Q; filters: EffectiveFilters; reader: Reader; ctx: RequestContext }) => {
    const data = await reader.cached(cacheKey(name, query, filters), () => read(reader.data, query, filters));
    return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...callMeta(ctx) } } };
  };
}

export const stats: RouteHandler<typeof contract.market.stats> = marketFigures<Parameters<typeof marketStats>[1], TMarketStat>(
  'stats',
  marketStats,
);
export const trends: RouteHandler<typeof contract.market.trends> = marketFigures<Parameters<typeof marketTrends>[1], TMarketTrend>(
  'trends',
  marketTrends,
);
