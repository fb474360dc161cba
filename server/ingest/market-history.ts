/**
 * The monthly market history behind `GET /market/history`, precomputed in `market_history`:
 * per calendar month (UTC), city or quarter, purpose, type or every type, bedrooms (0 to
 * 5, 5 meaning 5 or more) or every count:
 * - active listings at the month's end E (listed_at < E and not removed before E), the
 *   quartiles and median of the prices in effect at E (the last price_history entry before
 *   E, else the listing's price), the median price per m² of those with a surface;
 * - listings published during the month, listings removed during it by outcome, and the
 *   median days on market of the removed ones.
 * A figure resting on fewer than HISTORY_MIN_SAMPLE listings is stored as null.
 *
 * An undated listing (`listed_at_known` false: the feed gave no date and the import named
 * none) is dated from the import that first saw it: it is active from that month on, never
 * earlier, and is never a new listing of any month (Mboa does not know when it was
 * published); its days on market are unknown, so it stays out of their median.
 *
 * Incremental: triggers on listings and price_history note the earliest instant each write
 * may have changed (market_history_dirty); a refresh recomputes the months from that
 * instant's month on, plus the months completed since the last refresh, and nothing else.
 * `full` recomputes every stored month. Runs inside the market refresh's transaction.
 */
import { BEDROOMS_TOP, HISTORY_MAX_MONTHS, HISTORY_MIN_SAMPLE } from '../../contract/history.js';
import { HISTORY_AGGREGATES, historyPriced } from '../domain/market/history-figures.js';
import { neighborhoodName } from '../domain/places/neighborhood-name.js';

/** Months kept: the longest answer and the year before it (for the year-on-year change). */
export const HISTORY_STORED_MONTHS = HISTORY_MAX_MONTHS + 12;

interface Client {
  query<R extends object = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * $1, $2: the first and last months to compute (dates, first of the month); $3: the
 * minimum sample; $4: the top bedrooms bucket. One row per listing and month it was on
 * the market in (from its publication's month to its removal's), then one pass of
 * grouping sets for the eight series shapes.
 */
const HISTORY_SQL = `
WITH months AS (
  SELECT m::date AS month, (m::timestamp AT TIME ZONE 'UTC') AS s, ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC') AS e
  FROM generate_series($1::date::timestamp, $2::date::timestamp, interval '1 month') m
), lm AS (
  SELECT l.id, l.city, l.city_key, l.neighborhood, l.neighborhood_key, l.purpose, l.type,
         -- least() skips NULLs: an unknown count must stay unknown, not join the top bucket.
         CASE WHEN l.bedrooms IS NOT NULL THEN least(l.bedrooms, $4::int) END AS bedrooms, l.surface, l.price, l.status,
         -- An undated listing's days on market are unknown (historyPriced's dom is null).
         CASE WHEN l.listed_at_known THEN l.listed_at END AS listed_at, l.removed_at,
         m.month, m.s, m.e,
         (l.removed_at IS NULL OR l.removed_at >= m.e) AS active_end,
         l.listed_at_known AND l.listed_at >= m.s AS is_new,
         (l.removed_at IS NOT NULL AND l.removed_at < m.e) AS is_removed
  FROM listings l
  JOIN months m ON l.listed_at < m.e AND (l.removed_at IS NULL OR l.removed_at >= m.s)
  WHERE l.listed_at < (SELECT max(e) FROM months) AND (l.removed_at IS NULL OR l.removed_at >= (SELECT min(s) FROM months))
), priced AS (
  ${historyPriced('price_history')}
), g AS (
  SELECT min(city) AS city, city_key, min(neighborhood) AS neighborhood, neighborhood_key, purpose, type, bedrooms, month,
         GROUPING(neighborhood_key) = 1 AS city_wide, GROUPING(bedrooms) = 1 AS all_bedrooms,
         ${HISTORY_AGGREGATES}
  FROM priced
  GROUP BY month, city_key, purpose, GROUPING SETS (
    (), (type), (bedrooms), (type, bedrooms),
    (neighborhood_key), (neighborhood_key, type), (neighborhood_key, bedrooms), (neighborhood_key, type, bedrooms))
)
INSERT INTO market_history
  (city, city_key, neighborhood, neighborhood_key, purpose, type, bedrooms, month, active_listings, new_listings,
   sold, rented, withdrawn, p25_price, median_price, p75_price, price_per_m2_sample_size, median_price_per_m2,
   median_days_on_market)
SELECT city, city_key, CASE WHEN city_wide THEN NULL ELSE ${neighborhoodName('g.city_key', 'g.neighborhood_key', 'neighborhood')} END,
       neighborhood_key, purpose, type, bedrooms, month, active, new, sold, rented, withdrawn,
       CASE WHEN active >= $3 THEN round(q[1])::bigint END, CASE WHEN active >= $3 THEN round(q[2])::bigint END,
       CASE WHEN active >= $3 THEN round(q[3])::bigint END,
       n_ppm, CASE WHEN n_ppm >= $3 THEN round(ppm)::int END, CASE WHEN n_dom >= $3 THEN round(med_dom)::int END
FROM g
-- Rows filed under their city alone count in the city's figures, in no quarter's; listings
-- without a bedroom count only in the every-count series.
WHERE (city_wide OR neighborhood_key IS NOT NULL) AND (all_bedrooms OR bedrooms IS NOT NULL)`;

/** The first of the month of `d` (UTC), as `YYYY-MM-01`. */
export function monthOf(d: Date): string {
  return `${d.toISOString().slice(0, 7)}-01`;
}

function addMonths(month: string, n: number): string {
  const d = new Date(`${month}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return monthOf(d);
}

export interface HistoryRefresh {
  /** The months recomputed, first and last (`YYYY-MM-01`), or null when none was. */
  from: string | null;
  to: string;
  months: number;
}

/**
 * Recomputes the months that need it, up to the last month complete at `now`. The caller
 * holds the market refresh's transaction and lock.
 */
export async function refreshMarketHistory(client: Client, now: Date, full = false): Promise<HistoryRefresh> {
  const last = addMonths(monthOf(now), -1);
  const first = addMonths(last, -(HISTORY_STORED_MONTHS - 1));
  // What writes marked since the last refresh (rows committed later stay for the next one).
  const dirty = await client.query<{ from: Date | null }>(
    'WITH d AS (DELETE FROM market_history_dirty RETURNING dirty_from) SELECT min(dirty_from) AS "from" FROM d',
  );
  const stored = await client.query<{ last: string | null }>(`SELECT to_char(max(month), 'YYYY-MM-DD') AS last FROM market_history`);
  const storedLast = stored.rows[0]?.last ?? null;
  const dirtyFrom = dirty.rows[0]?.from ?? null;
  let from = full || storedLast === null ? first : addMonths(storedLast, 1);
  if (dirtyFrom !== null && monthOf(dirtyFrom) < from) from = monthOf(dirtyFrom);
  if (from < first) from = first;
  await client.query('DELETE FROM market_history WHERE month < $1 OR month >= $2 OR month > $3', [first, from, last]);
  if (from > last) return { from: null, to: last, months: 0 };
  await client.query(HISTORY_SQL, [from, last, HISTORY_MIN_SAMPLE, BEDROOMS_TOP]);
  const months = (Number(last.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(last.slice(5, 7)) - Number(from.slice(5, 7)) + 1;
  return { from, to: last, months };
}
