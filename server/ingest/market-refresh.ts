/**
 * Rebuilds the precomputed market tables, and the places listings are in, from
 * `listings`. Run after every data load (seed, import) and periodically by the server,
 * so that `/market/stats` and `/market/trends` read a few indexed rows instead of
 * scanning listings per call.
 * One transaction: readers see the old figures until the new ones are complete.
 */
import type pg from 'pg';
import { TREND_MIN_SAMPLE } from '../../contract/schemas.js';
import { refreshMarketHistory } from './market-history.js';
import { syncGazetteer } from './quarters.js';
import { quarterName } from './quarter-name.js';

const TREND_DAYS = 30;
const DAY_MS = 86_400_000;
/** Serialises refreshes across server instances and CLI runs. */
const REFRESH_LOCK = 0x6d626f61; // "mboa"

/**
 * One pass over the active listings for the four groupings (city or neighbourhood, each
 * for every type together and per type). Quartiles and median come from one
 * percentile_cont over an array of fractions; ordered-set aggregates skip nulls, so the
 * price-per-m² figures rest on the listings that have one (counted beside them).
 */
const STATS_SQL = `
WITH g AS (
  SELECT min(city) AS city, city_key, min(neighborhood) AS neighborhood, neighborhood_key, purpose, type,
         GROUPING(neighborhood_key) = 1 AS city_wide,
         count(*)::int AS n, avg(price) AS avg_price, min(price) AS min_price, max(price) AS max_price,
         percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY price) AS q,
         count(price_per_m2)::int AS n_ppm, avg(price_per_m2) AS avg_ppm,
         percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY price_per_m2) AS q_ppm
  FROM listings
  WHERE status = 'active'
  GROUP BY GROUPING SETS (
    (city_key, purpose), (city_key, purpose, type),
    (city_key, neighborhood_key, purpose), (city_key, neighborhood_key, purpose, type))
)
INSERT INTO market_stats
  (city, city_key, neighborhood, neighborhood_key, purpose, type, volume,
   avg_price, min_price, p25_price, median_price, p75_price, max_price,
   price_per_m2_volume, avg_price_per_m2, p25_price_per_m2, median_price_per_m2, p75_price_per_m2, as_of)
SELECT city, city_key, CASE WHEN city_wide THEN NULL ELSE ${quarterName('g.city_key', 'g.neighborhood_key', 'neighborhood')} END, neighborhood_key, purpose, type, n,
       round(avg_price)::bigint, min_price, round(q[1])::bigint, round(q[2])::bigint, round(q[3])::bigint, max_price,
       n_ppm, round(avg_ppm)::int, round(q_ppm[1])::int, round(q_ppm[2])::int, round(q_ppm[3])::int, $1
FROM g
-- Rows filed under their city alone count in the city's figures, in no quarter's.
WHERE city_wide OR neighborhood_key IS NOT NULL`;

/**
 * Both 30-day periods per (city, neighbourhood, type, purpose). A change in % is given
 * only when each period has at least $4 listings: below that it is noise, not a trend.
 */
const TRENDS_SQL = `
WITH cur AS (
  SELECT city_key, neighborhood_key, type, purpose, min(city) AS city, min(neighborhood) AS neighborhood,
         count(*)::int AS n, avg(price) AS avg_price,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median_price,
         count(price_per_m2)::int AS n_ppm, avg(price_per_m2) AS avg_ppm
  FROM listings WHERE listed_at >= $1 AND listed_at < $2 AND neighborhood_key IS NOT NULL
  GROUP BY city_key, neighborhood_key, type, purpose
), prev AS (
  SELECT city_key, neighborhood_key, type, purpose, min(city) AS city, min(neighborhood) AS neighborhood,
         count(*)::int AS n, avg(price) AS avg_price
  FROM listings WHERE listed_at >= $3 AND listed_at < $1 AND neighborhood_key IS NOT NULL
  GROUP BY city_key, neighborhood_key, type, purpose
)
INSERT INTO market_trends
  (city, city_key, neighborhood, neighborhood_key, type, purpose, new_listings, previous_new_listings,
   avg_price, median_price, price_per_m2_volume, avg_price_per_m2, previous_avg_price,
   avg_price_change_pct, new_listings_change_pct, period_start, period_end)
SELECT coalesce(cur.city, prev.city), coalesce(cur.city_key, prev.city_key),
       ${quarterName('city_key', 'neighborhood_key', 'coalesce(cur.neighborhood, prev.neighborhood)')}, coalesce(cur.neighborhood_key, prev.neighborhood_key),
       coalesce(cur.type, prev.type), coalesce(cur.purpose, prev.purpose),
       coalesce(cur.n, 0), coalesce(prev.n, 0),
       round(cur.avg_price)::bigint, round(cur.median_price)::bigint, coalesce(cur.n_ppm, 0), round(cur.avg_ppm)::int,
       round(prev.avg_price)::bigint,
       CASE WHEN cur.n >= $4 AND prev.n >= $4 AND prev.avg_price > 0
            THEN round(((cur.avg_price - prev.avg_price) / prev.avg_price * 100)::numeric, 1)::float8 END,
       CASE WHEN cur.n >= $4 AND prev.n >= $4
            THEN round(((cur.n - prev.n)::numeric / prev.n * 100), 1)::float8 END,
       $1, $2
FROM cur
FULL JOIN prev USING (city_key, neighborhood_key, type, purpose)`;

/** The places listings are in, whatever their status: what the API knows beyond the catalog. */
const PLACES_SQL = `
INSERT INTO places (city_key, neighborhood_key, city, neighborhood, listings)
SELECT l.city_key, l.neighborhood_key, min(l.city), ${quarterName('l.city_key', 'l.neighborhood_key', 'min(l.neighborhood)')}, count(*)::int
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
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [REFRESH_LOCK]);
    await client.query('DELETE FROM market_stats');
    await client.query(STATS_SQL, [now]);
    await client.query('DELETE FROM market_trends');
    await client.query(TRENDS_SQL, [start, end, previousStart, TREND_MIN_SAMPLE]);
    await client.query('DELETE FROM places');
    await client.query(PLACES_SQL);
    await refreshMarketHistory(client, now, opts.fullHistory);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** When the figures were last computed, or null if never. */
export async function marketFiguresAsOf(pool: pg.Pool): Promise<Date | null> {
  const { rows } = await pool.query<{ as_of: Date | null }>('SELECT max(as_of) AS as_of FROM market_stats');
  return rows[0]?.as_of ?? null;
}
