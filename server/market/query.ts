/** Reads of the precomputed market tables: a few indexed rows per call. */
import type pg from 'pg';
import type { TMarketStat, TMarketTrend, TStatsQuery, TTrendsQuery } from '../../contract/schemas.js';
import { matchKey } from '../text.js';

export async function marketStats(pool: pg.Pool, q: TStatsQuery): Promise<TMarketStat[]> {
  const params: unknown[] = [];
  const where: string[] = [];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (q.city !== undefined) where.push(`city_key = ${p(matchKey(q.city))}`);
  if (q.purpose !== undefined) where.push(`purpose = ${p(q.purpose)}::"Purpose"`);
  where.push(q.type !== undefined ? `type = ${p(q.type)}::"PropertyType"` : 'type IS NULL');
  const { rows } = await pool.query(
    `SELECT city, purpose, type, volume, avg_price, min_price, max_price, median_price, avg_price_per_m2, as_of
     FROM market_stats WHERE purpose IS NOT NULL AND ${where.join(' AND ')}
     ORDER BY volume DESC, city, purpose`,
    params,
  );
  return rows.map((r) => ({
    city: r.city,
    purpose: r.purpose,
    type: r.type,
    volume: r.volume,
    avg_price: Number(r.avg_price),
    min_price: Number(r.min_price),
    max_price: Number(r.max_price),
    median_price: Number(r.median_price),
    avg_price_per_m2: r.avg_price_per_m2,
    currency: 'XAF',
    as_of: (r.as_of as Date).toISOString(),
  }));
}

export async function marketTrends(pool: pg.Pool, q: TTrendsQuery): Promise<TMarketTrend[]> {
  const params: unknown[] = [];
  const where: string[] = ['TRUE'];
  const p = (v: unknown) => `$${params.push(v)}`;
  if (q.city !== undefined) where.push(`city_key = ${p(matchKey(q.city))}`);
  if (q.neighborhood !== undefined) where.push(`neighborhood_key = ${p(matchKey(q.neighborhood))}`);
  if (q.type !== undefined) where.push(`type = ${p(q.type)}::"PropertyType"`);
  if (q.purpose !== undefined) where.push(`purpose = ${p(q.purpose)}::"Purpose"`);
  const { rows } = await pool.query(
    `SELECT city, neighborhood, type, purpose, new_listings, avg_price, median_price, avg_price_per_m2,
            avg_price_change_pct, new_listings_change_pct, period_start, period_end
     FROM market_trends WHERE ${where.join(' AND ')}
     ORDER BY city, neighborhood, type, purpose`,
    params,
  );
  const num = (v: unknown) => (v === null ? null : Number(v));
  return rows.map((r) => ({
    city: r.city,
    neighborhood: r.neighborhood,
    type: r.type,
    purpose: r.purpose,
    new_listings: r.new_listings,
    avg_price: num(r.avg_price),
    median_price: num(r.median_price),
    avg_price_per_m2: r.avg_price_per_m2,
    avg_price_change_pct: r.avg_price_change_pct,
    new_listings_change_pct: r.new_listings_change_pct,
    period_start: (r.period_start as Date).toISOString(),
    period_end: (r.period_end as Date).toISOString(),
    currency: 'XAF',
  }));
}
