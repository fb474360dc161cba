/**
 * The monthly history of an area (`near` with `radius_m`), computed on demand from the
 * listings and their price history: the same figures, by the same definitions, as the
 * precomputed series of a city or quarter (server/ingest/market-history.ts), for the
 * listings of the city whose searchable point lies within the radius. The GiST index on
 * the listings' points selects them; the radius is kept small (HISTORY_RADIUS_MAX_M).
 */
import { BEDROOMS_TOP, HISTORY_MIN_SAMPLE, HISTORY_RADIUS_DEFAULT_M, type THistoryQueryParsed } from '../../../contract/history.js';
import { type Dataset, table } from '../dataset.js';
import { SqlConditions } from '../listings/filters.js';
import { addGeoConditions } from '../listings/geo.js';

type Amount = string | null;

/** One month of a series, as stored in market_history (or computed alike). */
export interface HistoryRow {
  month: string;
  active_listings: number;
  new_listings: number;
  sold: number;
  rented: number;
  withdrawn: number;
  p25_price: Amount;
  median_price: Amount;
  p75_price: Amount;
  price_per_m2_sample_size: number;
  median_price_per_m2: number | null;
  median_days_on_market: number | null;
}

/** The months `from` to `to` (`YYYY-MM`) of the area's series in the city `cityKey`. */
export async function areaHistoryRows(
  data: Dataset,
  q: THistoryQueryParsed,
  cityKey: string,
  from: string,
  to: string,
): Promise<HistoryRow[]> {
  const sql = new SqlConditions();
  const [fromParam, toParam, minParam] = [sql.param(`${from}-01`), sql.param(`${to}-01`), sql.param(HISTORY_MIN_SAMPLE)];
  sql.add(`l.city_key = ${sql.param(cityKey)}`);
  sql.add(`l.purpose = ${sql.param(q.purpose)}::"Purpose"`);
  if (q.type !== undefined) sql.add(`l.type = ${sql.param(q.type)}::"PropertyType"`);
  if (q.bedrooms !== undefined) sql.add(`l.bedrooms ${q.bedrooms >= BEDROOMS_TOP ? '>=' : '='} ${sql.param(q.bedrooms)}::int`);
  addGeoConditions({ nearLat: q.near!.lat, nearLng: q.near!.lng, radiusM: q.radius_m ?? HISTORY_RADIUS_DEFAULT_M }, sql, 'l');
  const { rows } = await data.pool.query<HistoryRow>(
    `WITH months AS (
       SELECT to_char(m, 'YYYY-MM') AS month, (m AT TIME ZONE 'UTC') AS s, ((m + interval '1 month') AT TIME ZONE 'UTC') AS e
       FROM generate_series(${fromParam}::date::timestamp, ${toParam}::date::timestamp, interval '1 month') m
     ), area AS (
       SELECT l.id, l.price, l.surface, l.status, l.listed_at, l.removed_at FROM ${table(data, 'listings')} l ${sql.where()}
     ), lm AS (
       SELECT a.*, m.month, m.e,
              (a.removed_at IS NULL OR a.removed_at >= m.e) AS active_end,
              a.listed_at >= m.s AS is_new,
              (a.removed_at IS NOT NULL AND a.removed_at < m.e) AS is_removed
       FROM area a JOIN months m ON a.listed_at < m.e AND (a.removed_at IS NULL OR a.removed_at >= m.s)
     ), priced AS (
       SELECT lm.*,
              CASE WHEN lm.active_end THEN coalesce(
                (SELECT ph.price FROM ${table(data, 'price_history')} ph WHERE ph.listing_id = lm.id AND ph.changed_at < lm.e
                 ORDER BY ph.changed_at DESC, ph.id DESC LIMIT 1), lm.price) END AS price_end,
              CASE WHEN lm.is_removed THEN floor(extract(epoch FROM (lm.removed_at - lm.listed_at)) / 86400) END AS dom
       FROM lm
     ), g AS (
       SELECT month,
              count(*) FILTER (WHERE active_end)::int AS active,
              count(*) FILTER (WHERE is_new)::int AS new,
              count(*) FILTER (WHERE is_removed AND status = 'sold')::int AS sold,
              count(*) FILTER (WHERE is_removed AND status = 'rented')::int AS rented,
              count(*) FILTER (WHERE is_removed AND status = 'withdrawn')::int AS withdrawn,
              count(dom)::int AS n_dom,
              percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY price_end) AS q,
              count(price_end) FILTER (WHERE surface > 0)::int AS n_ppm,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY CASE WHEN surface > 0 THEN round(price_end / surface) END) AS ppm,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY dom) AS med_dom
       FROM priced GROUP BY month
     )
     SELECT month, active AS active_listings, new AS new_listings, sold, rented, withdrawn,
            CASE WHEN active >= ${minParam} THEN round(q[1])::bigint::text END AS p25_price,
            CASE WHEN active >= ${minParam} THEN round(q[2])::bigint::text END AS median_price,
            CASE WHEN active >= ${minParam} THEN round(q[3])::bigint::text END AS p75_price,
            n_ppm AS price_per_m2_sample_size,
            CASE WHEN n_ppm >= ${minParam} THEN round(ppm)::int END AS median_price_per_m2,
            CASE WHEN n_dom >= ${minParam} THEN round(med_dom)::int END AS median_days_on_market
     FROM g ORDER BY month`,
    sql.params,
  );
  return rows;
}
