/**
 * The figures of one month of a market-history series, in SQL: one definition for the
 * stored series of cities and quarters (server/ingest/market-history.ts) and the areas
 * computed on demand (server/domain/market/history-area.ts), so both say the same thing.
 *
 * Both build `lm`: one row per listing and month it was on the market, with the month's
 * end `e` and the flags `active_end`, `is_new`, `is_removed`.
 */

/** The `priced` step over `lm`: the price in effect at the month's end (active listings) and the days on market (removed ones). */
export function historyPriced(priceHistory: string): string {
  return `SELECT lm.*,
         CASE WHEN lm.active_end THEN coalesce(
           (SELECT ph.price FROM ${priceHistory} ph WHERE ph.listing_id = lm.id AND ph.changed_at < lm.e
            ORDER BY ph.changed_at DESC, ph.id DESC LIMIT 1), lm.price) END AS price_end,
         CASE WHEN lm.is_removed THEN floor(extract(epoch FROM (lm.removed_at - lm.listed_at)) / 86400) END AS dom
  FROM lm`;
}

/** The aggregates of a group of `priced` rows (one series and month). */
export const HISTORY_AGGREGATES = `count(*) FILTER (WHERE active_end)::int AS active,
         count(*) FILTER (WHERE is_new)::int AS new,
         count(*) FILTER (WHERE is_removed AND status = 'sold')::int AS sold,
         count(*) FILTER (WHERE is_removed AND status = 'rented')::int AS rented,
         count(*) FILTER (WHERE is_removed AND status = 'withdrawn')::int AS withdrawn,
         count(dom)::int AS n_dom,
         percentile_cont(ARRAY[0.25, 0.5, 0.75]) WITHIN GROUP (ORDER BY price_end) AS q,
         count(price_end) FILTER (WHERE surface > 0)::int AS n_ppm,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY CASE WHEN surface > 0 THEN round(price_end / surface) END) AS ppm,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY dom) AS med_dom`;
