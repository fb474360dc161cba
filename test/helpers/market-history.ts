/**
 * The monthly history figures of GET /market/history worked out directly from the
 * listings and their price history, one month at a time, for the tests to compare with.
 */
import type pg from 'pg';
import { expect } from 'vitest';
import { HISTORY_MIN_SAMPLE } from '../../contract/history.js';
import { get, type ServerWithAccount } from './server.js';

/** Month `YYYY-MM` → [start, end) in UTC. */
function bounds(month: string): [Date, Date] {
  const s = new Date(`${month}-01T00:00:00Z`);
  const e = new Date(s);
  e.setUTCMonth(e.getUTCMonth() + 1);
  return [s, e];
}

/** One month of a history series, from listings and price_history directly (SQL written for the tests, not the server's). `series` is a WHERE clause over `l` using $3... */
export async function directMonth(pool: pg.Pool, month: string, series: string, params: unknown[]) {
  const [s, e] = bounds(month);
  const { rows } = await pool.query(
    `WITH at_end AS (
       SELECT l.surface,
              coalesce((SELECT ph.price FROM price_history ph WHERE ph.listing_id = l.id AND ph.changed_at < $2
                        ORDER BY ph.changed_at DESC, ph.id DESC LIMIT 1), l.price) AS p
       FROM listings l WHERE ${series} AND l.listed_at < $2 AND (l.removed_at IS NULL OR l.removed_at >= $2)
     ), gone AS (
       SELECT l.status::text AS status, floor(extract(epoch FROM l.removed_at - l.listed_at) / 86400) AS days
       FROM listings l WHERE ${series} AND l.removed_at >= $1 AND l.removed_at < $2
     )
     SELECT (SELECT count(*)::int FROM at_end) AS active,
            (SELECT count(*)::int FROM listings l WHERE ${series} AND l.listed_at >= $1 AND l.listed_at < $2) AS new,
            (SELECT count(*)::int FROM gone WHERE status = 'sold') AS sold,
            (SELECT count(*)::int FROM gone WHERE status = 'rented') AS rented,
            (SELECT count(*)::int FROM gone WHERE status = 'withdrawn') AS withdrawn,
            (SELECT count(*)::int FROM gone) AS gone,
            (SELECT round(percentile_cont(0.25) WITHIN GROUP (ORDER BY p))::float8 FROM at_end) AS p25,
            (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p))::float8 FROM at_end) AS median,
            (SELECT round(percentile_cont(0.75) WITHIN GROUP (ORDER BY p))::float8 FROM at_end) AS p75,
            (SELECT count(*)::int FROM at_end WHERE surface > 0) AS n_ppm,
            (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY round(p / surface)))::float8 FROM at_end WHERE surface > 0) AS ppm,
            (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY days))::float8 FROM gone) AS dom`,
    [s, e, ...params],
  );
  return rows[0] as Record<string, number>;
}

export interface HistoryPoint {
  month: string;
  [k: string]: unknown;
}

const floor = (n: number, v: number | null) => (n >= HISTORY_MIN_SAMPLE ? v : null);

/**
 * Gets `path` with `t`'s key and checks every month of the answer against `directMonth`
 * over `series`; at least half the months must rest on `minActive` listings or more (the
 * series is not empty). Returns the points.
 */
export async function expectHistoryEqualsDirect(
  t: ServerWithAccount,
  path: string,
  series: string,
  params: unknown[],
  minActive: number,
): Promise<HistoryPoint[]> {
  const res = await get(t.baseUrl, path, t.key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const points = res.body.data as HistoryPoint[];
  expect(points).toHaveLength(res.body.meta.total);
  let checked = 0;
  for (const p of points) {
    const d = await directMonth(t.db.pool, p.month, series, params);
    expect(p, p.month).toMatchObject({
      active_listings: d.active,
      sample_size: d.active,
      new_listings: d.new,
      removed_listings: { sold: d.sold, rented: d.rented, withdrawn: d.withdrawn },
      p25_price: floor(d.active, d.p25),
      median_price: floor(d.active, d.median),
      p75_price: floor(d.active, d.p75),
      price_per_m2_sample_size: d.n_ppm,
      median_price_per_m2: floor(d.n_ppm, d.ppm),
      days_on_market_sample_size: d.gone,
      median_days_on_market: floor(d.gone, d.dom),
      currency: 'XAF',
    });
    if (d.active >= minActive) checked++;
  }
  // The series is not empty: most months have a real sample.
  expect(checked).toBeGreaterThan(points.length / 2);
  return points;
}
