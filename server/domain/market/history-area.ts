/**
 * The monthly history of an area (`near` with `radius_m`), computed on demand from the
 * listings and their price history: the same figures, by the same definitions, as the
 * precomputed series of a city or quarter (server/ingest/market-history.ts), for the
 * listings of the city whose searchable point lies within the radius. The GiST index on
 * the listings' points selects them; the radius is kept small (HISTORY_RADIUS_MAX_M).
 */
import { BEDROOMS_TOP, HISTORY_MIN_SAMPLE, HISTORY_RADIUS_DEFAULT_M, type THistoryQueryParsed } from '../../../contract/history.js';
import { HISTORY_AGGREGATES, historyPriced } from './history-figures.js';
import { type Dataset, table } from '../listing/dataset.js';
import { SqlConditions } from '../listing/filters.js';
import { addGeoConditions } from '../listing/geo.js';

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
       SELECT l.id, l.price, l.surface, l.status, l.listed_at, l.listed_at_known, l.removed_at FROM ${table(data, 'listings')} l ${sql.where()}
     ), lm AS (
       -- An undated listing is active from its first import on, never new, its days on
       -- market unknown (market-history.ts says why).
       SELECT a.id, a.price, a.surface, a.status, CASE WHEN a.listed_at_known THEN a.listed_at END AS listed_at, a.removed_at,
              m.month, m.e,
              (a.removed_at IS NULL OR a.removed_at >= m.e) AS active_end,
              a.listed_at_known AND a.listed_at >= m.s AS is_new,
              (a.removed_at IS NOT NULL AND a.removed_at < m.e) AS is_removed
       FROM area a JOIN months m ON a.listed_at < m.e AND (a.removed_at IS NULL OR a.removed_at >= m.s)
     ), priced AS (
       ${historyPriced(table(data, 'price_history'))}
     ), g AS (
       SELECT month, ${HISTORY_AGGREGATES}
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
