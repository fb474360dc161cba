/**
 * Rebuilds the precomputed market tables, and the places listings are in, from
 * `listings`. Run after every data load (seed, import) and periodically by the server,
 * so that `/market/stats` and `/market/trends` read a few indexed rows instead of
 * scanning listings per call.
 * One transaction: readers see the old figures until the new ones are complete.
 */
import type pg from 'pg';
import { inTransaction } from '../platform/transaction.js';
import { BEDROOMS_TOP } from '../../contract/bedrooms.js';
import { TREND_MIN_SAMPLE } from '../../contract/schemas.js';
import { refreshMarketHistory } from './market-history.js';
import { syncGazetteer } from './neighborhoods.js';
import { neighborhoodName } from '../domain/places/neighborhood-name.js';

const TREND_DAYS = 30;
const DAY_MS = 86_400_000;
/** Serialises refreshes across server instances and CLI runs. */
const REFRESH_LOCK = 0x6d626f61; // "mboa"

/**
 * The bedrooms bucket of a listing (alias `l`) as `bedrooms`, 0 to `top` (the top bucket
 * meaning that many or more); null when unknown (least() alone skips nulls: an unknown
 * count would join the top bucket).
 */
const bedroomsBucket = (top: string) => `CASE WHEN l.bedrooms IS NOT NULL THEN least(l.bedrooms, ${top}::int) END AS bedrooms`;

/**
 * One pass over the active listings for the eight groupings (city or neighbourhood, each
 * for every type together and per type, each for every bedroom count together and per
 * bucket of $2). Quartiles and median come from one percentile_cont over an array of
 * fractions; ordered-set aggregates skip nulls, so the price-per-m² figures rest on the
 * listings that have one (counted beside them).
 */
const STATS_SQL = `
WITH a AS (
  SELECT l.city, l.city_key, l.neighborhood, l.neighborhood_key, l.purpose, l.type, l.price, l.price_per_m2, ${bedroomsBucket('$2')}
  FROM listings l
  WHERE l.status = 'active'
), g AS (
  SELECT min(city) AS city, city_key, min(neighborhood) AS neighborhood, neighborhood_key, purpose, type, bedrooms,
         GROUPING(neighborhood_key) = 1 AS city_wide, GROUPING(bedrooms) = 1 AS all_bedrooms,
         count(*)::int AS n, avg(price) AS avg_price, min(price) AS min_price, max(price) AS max_price,
         percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY price) AS q,
         count(price_per_m2)::int AS n_ppm, avg(price_per_m2) AS avg_ppm,
         percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY price_per_m2) AS q_ppm
  FROM a
  GROUP BY city_key, purpose, GROUPING SETS ((), (type), (neighborhood_key), (neighborhood_key, type)), GROUPING SETS ((), (bedrooms))
)
INSERT INTO market_stats
  (city, city_key, neighborhood, neighborhood_key, purpose, type, bedrooms, volume,
   avg_price, min_price, p25_price, median_price, p75_price, max_price,
   price_per_m2_volume, avg_price_per_m2, p25_price_per_m2, median_price_per_m2, p75_price_per_m2, as_of)
SELECT city, city_key, CASE WHEN city_wide THEN NULL ELSE ${neighborhoodName('g.city_key', 'g.neighborhood_key', 'neighborhood')} END, neighborhood_key, purpose, type, bedrooms, n,
       round(avg_price)::bigint, min_price, round(q[1])::bigint, round(q[2])::bigint, round(q[3])::bigint, max_price,
       n_ppm, round(avg_ppm)::int, round(q_ppm[1])::int, round(q_ppm[2])::int, round(q_ppm[3])::int, $1
FROM g
-- Rows filed under their city alone count in the city's figures, in no quarter's; listings
-- without a bedroom count only in the every-count rows.
WHERE (city_wide OR neighborhood_key IS NOT NULL) AND (all_bedrooms OR bedrooms IS NOT NULL)`;

/**
 * The listings published from `from` to `to` per (city, neighbourhood, type, purpose) and
 * per bedrooms bucket of $5 or every count (`rooms` -1: a key both periods can be joined
 * on); listings without a bedroom count only in the every-count groups. Undated listings
 * (`listed_at_known` false) are in neither period: when they were published is unknown.
 */
const periodGroups = (from: string, to: string, figures: string) => `
  SELECT city_key, neighborhood_key, type, purpose, CASE WHEN GROUPING(bedrooms) = 1 THEN -1 ELSE bedrooms END AS rooms,
         min(city) AS city, min(neighborhood) AS neighborhood, count(*)::int AS n, avg(price) AS avg_price${figures}
  FROM (SELECT l.city, l.city_key, l.neighborhood, l.neighborhood_key, l.type, l.purpose, l.price, l.price_per_m2, ${bedroomsBucket('$5')}
        FROM listings l WHERE l.listed_at >= ${from} AND l.listed_at < ${to} AND l.listed_at_known AND l.neighborhood_key IS NOT NULL) l
  GROUP BY city_key, neighborhood_key, type, purpose, GROUPING SETS ((), (bedrooms))
  HAVING GROUPING(bedrooms) = 1 OR bedrooms IS NOT NULL`;

/**
 * Both 30-day periods per (city, neighbourhood, type, purpose, bedrooms or every count). A
 * change in % is given only when each period has at least $4 listings: below that it is
 * noise, not a trend.
 */
const TRENDS_SQL = `
WITH cur AS (${periodGroups(
  '$1',
  '$2',
  `,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median_price,
         count(price_per_m2)::int AS n_ppm, avg(price_per_m2) AS avg_ppm`,
)}
), prev AS (${periodGroups('$3', '$1', '')}
)
INSERT INTO market_trends
  (city, city_key, neighborhood, neighborhood_key, type, purpose, bedrooms, new_listings, previous_new_listings,
   avg_price, median_price, price_per_m2_volume, avg_price_per_m2, previous_avg_price,
   avg_price_change_pct, new_listings_change_pct, period_start, period_end)
SELECT coalesce(cur.city, prev.city), coalesce(cur.city_key, prev.city_key),
       ${neighborhoodName('city_key', 'neighborhood_key', 'coalesce(cur.neighborhood, prev.neighborhood)')}, coalesce(cur.neighborhood_key, prev.neighborhood_key),
       coalesce(cur.type, prev.type), coalesce(cur.purpose, prev.purpose), nullif(rooms, -1),
       coalesce(cur.n, 0), coalesce(prev.n, 0),
       round(cur.avg_price)::bigint, round(cur.median_price)::bigint, coalesce(cur.n_ppm, 0), round(cur.avg_ppm)::int,
       round(prev.avg_price)::bigint,
       CASE WHEN cur.n >= $4 AND prev.n >= $4 AND prev.avg_price > 0
            THEN round(((cur.avg_price - prev.avg_price) / prev.avg_price * 100)::numeric, 1)::float8 END,
       CASE WHEN cur.n >= $4 AND prev.n >= $4
            THEN round(((cur.n - prev.n)::numeric / prev.n * 100), 1)::float8 END,
       $1, $2
FROM cur
FULL JOIN prev USING (city_key, neighborhood_key, type, purpose, rooms)`;

/** The places listings are in, whatever their status: what the API knows beyond the catalog. */
const PLACES_SQL = `
INSERT INTO places (city_key, neighborhood_key, city, neighborhood, listings)
SELECT l.city_key, l.neighborhood_key, min(l.city), ${neighborhoodName('l.city_key', 'l.neighborhood_key', 'min(l.neighborhood)')}, count(*)::int
FROM listings l
WHERE l.neighborhood_key IS NOT NULL
GROUP BY l.city_key, l.neighborhood_key`;

/** `fullHistory`: recompute every month of the history, not only those writes touched. */
export async function refreshMarketFigures(pool: pg.Pool, now = new Date(), opts: { fullHistory?: boolean } = {}): Promise<void> {
  // The figures name quarters from the gazetteer's table: keep it equal to the files first.
  await syncGazetteer(pool);
  // After a bulk load the planner's statistics and the visibility map are stale: searches
  // would pick poor plans and exact counts could not be index-only. (Outside a transaction.)
  await pool.query('VACUUM (ANALYZE) listings, price_history');
  const end = now;
  const start = new Date(end.getTime() - TREND_DAYS * DAY_MS);
  const previousStart = new Date(start.getTime() - TREND_DAYS * DAY_MS);
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [REFRESH_LOCK]);
    await client.query('DELETE FROM market_stats');
    await client.query(STATS_SQL, [now, BEDROOMS_TOP]);
    await client.query('DELETE FROM market_trends');
    await client.query(TRENDS_SQL, [start, end, previousStart, TREND_MIN_SAMPLE, BEDROOMS_TOP]);
    await client.query('DELETE FROM places');
    await client.query(PLACES_SQL);
    await refreshMarketHistory(client, now, opts.fullHistory);
  });
}

/** When the figures were last computed, or null if never. */
export async function marketFiguresAsOf(pool: pg.Pool): Promise<Date | null> {
  const { rows } = await pool.query<{ as_of: Date | null }>('SELECT max(as_of) AS as_of FROM market_stats');
  return rows[0]?.as_of ?? null;
}
