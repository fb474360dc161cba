/**
 * Rebuilds the precomputed market tables from `listings`. Run after every data load
 * (seed, import) and periodically by the server, so that `/market/stats` and
 * `/market/trends` read a few indexed rows instead of scanning listings per call.
 * One transaction: readers see the old figures until the new ones are complete.
 */
import type pg from 'pg';

const TREND_DAYS = 30;
const DAY_MS = 86_400_000;
/** Serialises refreshes across server instances and CLI runs. */
const REFRESH_LOCK = 0x6d626f61; // "mboa"

const STATS_SQL = `
INSERT INTO market_stats
  (city, city_key, purpose, type, volume, avg_price, min_price, max_price, median_price, avg_price_per_m2, as_of)
SELECT min(city), city_key, purpose, type, count(*)::int,
       round(avg(price))::bigint, min(price), max(price),
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price))::bigint,
       round(avg(price_per_m2))::int, $1
FROM listings
WHERE status = 'active'
GROUP BY GROUPING SETS ((city_key, purpose), (city_key, purpose, type))`;

const TRENDS_SQL = `
WITH cur AS (
  SELECT city_key, neighborhood_key, type, purpose, min(city) AS city, min(neighborhood) AS neighborhood,
         count(*)::int AS n, avg(price) AS avg_price,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY price) AS median_price,
         avg(price_per_m2) AS avg_ppm
  FROM listings WHERE listed_at >= $1 AND listed_at < $2
  GROUP BY city_key, neighborhood_key, type, purpose
), prev AS (
  SELECT city_key, neighborhood_key, type, purpose, min(city) AS city, min(neighborhood) AS neighborhood,
         count(*)::int AS n, avg(price) AS avg_price
  FROM listings WHERE listed_at >= $3 AND listed_at < $1
  GROUP BY city_key, neighborhood_key, type, purpose
)
INSERT INTO market_trends
  (city, city_key, neighborhood, neighborhood_key, type, purpose, new_listings, previous_new_listings,
   avg_price, median_price, avg_price_per_m2, previous_avg_price,
   avg_price_change_pct, new_listings_change_pct, period_start, period_end)
SELECT coalesce(cur.city, prev.city), coalesce(cur.city_key, prev.city_key),
       coalesce(cur.neighborhood, prev.neighborhood), coalesce(cur.neighborhood_key, prev.neighborhood_key),
       coalesce(cur.type, prev.type), coalesce(cur.purpose, prev.purpose),
       coalesce(cur.n, 0), coalesce(prev.n, 0),
       round(cur.avg_price)::bigint, round(cur.median_price)::bigint, round(cur.avg_ppm)::int,
       round(prev.avg_price)::bigint,
       CASE WHEN prev.avg_price > 0 AND cur.avg_price IS NOT NULL
            THEN round(((cur.avg_price - prev.avg_price) / prev.avg_price * 100)::numeric, 1)::float8 END,
       CASE WHEN prev.n > 0
            THEN round(((coalesce(cur.n, 0) - prev.n)::numeric / prev.n * 100), 1)::float8 END,
       $1, $2
FROM cur
FULL JOIN prev USING (city_key, neighborhood_key, type, purpose)`;

export async function refreshMarketFigures(pool: pg.Pool, now = new Date()): Promise<void> {
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
    await client.query(TRENDS_SQL, [start, end, previousStart]);
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
