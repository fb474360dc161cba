/**
 * Reads of the precomputed market tables: a few indexed rows per call, filtered through
 * the listing filters' own WHERE builder (the tables carry the same place, type and
 * purpose columns), amounts converted to the asked currency.
 */
import { type Dataset, table } from '../listing/dataset.js';
import { fromXaf } from '../../../contract/currency.js';
import type { TMarketStat, TMarketTrend, TStatsQueryParsed, TTrendsQueryParsed } from '../../../contract/schemas.js';
import { type EffectiveFilters, listingFilterSql, type SqlConditions } from '../listing/filters.js';

/** numeric columns arrive as strings (exact), integers as numbers. */
type Amount = string | null;

interface StatRow {
  city: string;
  neighborhood: TMarketStat['neighborhood'];
  purpose: TMarketStat['purpose'];
  type: TMarketStat['type'];
  bedrooms: number | null;
  volume: number;
  avg_price: string;
  min_price: string;
  p25_price: string;
  median_price: string;
  p75_price: string;
  max_price: string;
  price_per_m2_volume: number;
  avg_price_per_m2: Amount;
  p25_price_per_m2: Amount;
  median_price_per_m2: Amount;
  p75_price_per_m2: Amount;
  as_of: Date;
}

interface TrendRow {
  city: string;
  neighborhood: TMarketTrend['neighborhood'];
  type: TMarketTrend['type'];
  purpose: TMarketTrend['purpose'];
  bedrooms: number | null;
  new_listings: number;
  previous_new_listings: number;
  avg_price: Amount;
  median_price: Amount;
  price_per_m2_volume: number;
  avg_price_per_m2: Amount;
  avg_price_change_pct: number | null;
  new_listings_change_pct: number | null;
  period_start: Date;
  period_end: Date;
}

/**
 * The rows of one bedrooms bucket, of every bucket (`group_by=bedrooms`), or for every
 * count together (bedrooms null: listings without a count are only there).
 */
function bedroomsCondition(sql: SqlConditions, alias: string, q: Pick<TStatsQueryParsed, 'bedrooms' | 'group_by'>): void {
  if (q.bedrooms !== undefined) sql.add(`${alias}.bedrooms = ${sql.param(q.bedrooms)}`);
  else sql.add(`${alias}.bedrooms IS ${q.group_by === 'bedrooms' ? 'NOT NULL' : 'NULL'}`);
}

/** `filters`: the query's place, type and purpose, as `effectiveFilters` works them out. */
export async function marketStats(data: Dataset, q: TStatsQueryParsed, filters: EffectiveFilters): Promise<TMarketStat[]> {
  const sql = listingFilterSql(filters, 's');
  // Rows aggregate every neighbourhood (every type, every bedroom count) unless one is asked
  // for; `group_by=neighborhood` reads each neighbourhood's row, the one its own call reads.
  if (filters.neighborhoodKey === undefined) sql.add(`s.neighborhood_key IS ${q.group_by === 'neighborhood' ? 'NOT NULL' : 'NULL'}`);
  if (filters.type === undefined) sql.add('s.type IS NULL');
  sql.add('s.purpose IS NOT NULL');
  bedroomsCondition(sql, 's', q);
  const { rows } = await data.pool.query<StatRow>(
    `SELECT s.city, s.neighborhood, s.purpose, s.type, s.bedrooms, s.volume, s.avg_price, s.min_price, s.p25_price, s.median_price,
            s.p75_price, s.max_price, s.price_per_m2_volume, s.avg_price_per_m2, s.p25_price_per_m2,
            s.median_price_per_m2, s.p75_price_per_m2, s.as_of
     FROM ${table(data, 'market_stats')} s ${sql.where()}
     ORDER BY s.volume DESC, s.city, s.neighborhood, s.purpose, s.type, s.bedrooms`,
    sql.params,
  );
  const money = (v: string) => fromXaf(v, q.currency);
  const maybe = (v: Amount) => (v === null ? null : fromXaf(v, q.currency));
  return rows.map((r) => ({
    city: r.city,
    neighborhood: r.neighborhood,
    purpose: r.purpose,
    type: r.type,
    bedrooms: r.bedrooms,
    volume: r.volume,
    sample_size: r.volume,
    avg_price: money(r.avg_price),
    min_price: money(r.min_price),
    p25_price: money(r.p25_price),
    median_price: money(r.median_price),
    p75_price: money(r.p75_price),
    max_price: money(r.max_price),
    price_per_m2_sample_size: r.price_per_m2_volume,
    avg_price_per_m2: maybe(r.avg_price_per_m2),
    p25_price_per_m2: maybe(r.p25_price_per_m2),
    median_price_per_m2: maybe(r.median_price_per_m2),
    p75_price_per_m2: maybe(r.p75_price_per_m2),
    currency: q.currency,
    as_of: r.as_of.toISOString(),
  }));
}

export async function marketTrends(data: Dataset, q: TTrendsQueryParsed, filters: EffectiveFilters): Promise<TMarketTrend[]> {
  const sql = listingFilterSql(filters, 't');
  bedroomsCondition(sql, 't', q);
  const { rows } = await data.pool.query<TrendRow>(
    `SELECT t.city, t.neighborhood, t.type, t.purpose, t.bedrooms, t.new_listings, t.previous_new_listings, t.avg_price,
            t.median_price, t.price_per_m2_volume, t.avg_price_per_m2, t.avg_price_change_pct,
            t.new_listings_change_pct, t.period_start, t.period_end
     FROM ${table(data, 'market_trends')} t ${sql.where()}
     ORDER BY t.city, t.neighborhood, t.type, t.purpose, t.bedrooms`,
    sql.params,
  );
  const maybe = (v: Amount) => (v === null ? null : fromXaf(v, q.currency));
  return rows.map((r) => ({
    city: r.city,
    neighborhood: r.neighborhood,
    type: r.type,
    purpose: r.purpose,
    bedrooms: r.bedrooms,
    new_listings: r.new_listings,
    sample_size: r.new_listings,
    previous_sample_size: r.previous_new_listings,
    avg_price: maybe(r.avg_price),
    median_price: maybe(r.median_price),
    price_per_m2_sample_size: r.price_per_m2_volume,
    avg_price_per_m2: maybe(r.avg_price_per_m2),
    avg_price_change_pct: r.avg_price_change_pct,
    new_listings_change_pct: r.new_listings_change_pct,
    period_start: r.period_start.toISOString(),
    period_end: r.period_end.toISOString(),
    currency: q.currency,
  }));
}
