/**
 * Reads of the precomputed monthly history (`market_history`): one series, the asked
 * months and the year before them (for the year-on-year change), one indexed range scan.
 * An area around `near` is computed on demand alike (history-area.ts). Months without a
 * row had no listing of the series: zeros and nulls.
 */
import { fromXaf } from '../../../contract/currency.js';
import type { THistoryPoint, THistoryQueryParsed } from '../../../contract/history.js';
import { ApiError } from '../../platform/errors.js';
import { GAZETTEER, resolveNeighborhood } from '../places/gazetteer.js';
import { type Dataset, table } from '../listing/dataset.js';
import type { EffectiveFilters } from '../listing/filters.js';
import { areaHistoryRows, type HistoryRow } from './history-area.js';

type Amount = string | null;
type StoredRow = HistoryRow & { city: string; neighborhood: string | null };

/** `YYYY-MM` of the month `n` months after `month` (`YYYY-MM`). */
function shift(month: string, n: number): string {
  const d = new Date(`${month}-01T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + n);
  return d.toISOString().slice(0, 7);
}

/** Change in %, one decimal, of `now` against `before` (amounts in XAF); null without both. */
function changePct(now: Amount, before: Amount): number | null {
  if (now === null || before === null || Number(before) === 0) return null;
  return Math.round(((Number(now) - Number(before)) / Number(before)) * 1000) / 10;
}

/** The series' place names when it has no row at all: as the places table knows them. */
async function placeNames(
  data: Dataset,
  cityKey: string,
  neighborhoodKey: string | undefined,
  city: string,
): Promise<{ city: string; neighborhood: string | null }> {
  const { rows } = await data.pool.query<{ city: string; neighborhood: string }>(
    `SELECT city, neighborhood FROM ${table(data, 'places')} WHERE city_key = $1 AND ($2::text IS NULL OR neighborhood_key = $2) LIMIT 1`,
    [cityKey, neighborhoodKey ?? null],
  );
  return { city: rows[0]?.city ?? city, neighborhood: neighborhoodKey === undefined ? null : (rows[0]?.neighborhood ?? null) };
}

/** The stored series of the city or quarter, months `from` to `to` (`YYYY-MM`). */
async function storedRows(data: Dataset, q: THistoryQueryParsed, f: EffectiveFilters, from: string, to: string): Promise<StoredRow[]> {
  const params: unknown[] = [f.cityKey, q.purpose, `${from}-01`, `${to}-01`];
  const eq = (column: string, value: string | number | undefined) => {
    if (value === undefined) return `h.${column} IS NULL`;
    params.push(value);
    return `h.${column} = $${params.length}`;
  };
  const where = [eq('neighborhood_key', f.neighborhoodKey), eq('type', q.type), eq('bedrooms', q.bedrooms)].join(' AND ');
  const { rows } = await data.pool.query<StoredRow>(
    `SELECT to_char(h.month, 'YYYY-MM') AS month, h.city, h.neighborhood, h.active_listings, h.new_listings, h.sold, h.rented,
            h.withdrawn, h.p25_price, h.median_price, h.p75_price, h.price_per_m2_sample_size, h.median_price_per_m2,
            h.median_days_on_market
     FROM ${table(data, 'market_history')} h
     WHERE h.city_key = $1 AND h.purpose = $2 AND h.month >= $3 AND h.month <= $4 AND ${where}
     ORDER BY h.month`,
    params,
  );
  return rows;
}

/** `filters`: the query's city and quarter as `effectiveFilters` works them out (checked places). */
export async function marketHistory(data: Dataset, q: THistoryQueryParsed, f: EffectiveFilters): Promise<THistoryPoint[]> {
  if (f.subNeighborhood !== undefined) {
    const city = GAZETTEER.get(f.cityKey!);
    const parent = city ? resolveNeighborhood(city, f.subNeighborhood)?.neighborhood : undefined;
    const ask = parent ? `ask for ${parent}` : 'ask for the quarter it is part of';
    throw new ApiError(
      'validation_error',
      `History is kept per quarter: ${f.subNeighborhood} is part of ${parent ?? 'a quarter'}; ${ask}.`,
      {
        errors: [
          {
            path: 'neighborhood',
            message: `${f.subNeighborhood} is a sub-quarter of ${parent ?? 'a quarter'}: history is kept for ${parent ?? 'its quarter'}`,
            suggestions: parent ? [parent] : [],
          },
        ],
      },
    );
  }
  const { rows: latest } = await data.pool.query<{ last: string | null }>(
    `SELECT to_char(max(month), 'YYYY-MM') AS last FROM ${table(data, 'market_history')}`,
  );
  const last = latest[0]?.last ?? null;
  if (last === null) return [];
  const first = shift(last, -(q.months - 1));
  const cityKey = f.cityKey!;
  let rows: HistoryRow[];
  let names: { city: string; neighborhood: string | null };
  if (q.near !== undefined) {
    rows = await areaHistoryRows(data, q, cityKey, shift(first, -12), last);
    names = await placeNames(data, cityKey, undefined, q.city);
  } else {
    const stored = await storedRows(data, q, f, shift(first, -12), last);
    rows = stored;
    names = stored.length > 0 ? stored[stored.length - 1] : await placeNames(data, cityKey, f.neighborhoodKey, q.city);
  }
  const byMonth = new Map(rows.map((r) => [r.month, r]));
  const maybe = (v: Amount | number) => (v === null ? null : fromXaf(v, q.currency));
  const points: THistoryPoint[] = [];
  for (let i = 0; i < q.months; i++) {
    const month = shift(first, i);
    const r = byMonth.get(month);
    const yearBefore = byMonth.get(shift(month, -12));
    const removed = r ? r.sold + r.rented + r.withdrawn : 0;
    points.push({
      city: names.city,
      neighborhood: names.neighborhood,
      near: q.near === undefined ? null : `${q.near.lat},${q.near.lng}`,
      radius_m: q.near === undefined ? null : (q.radius_m ?? null),
      purpose: q.purpose,
      type: q.type ?? null,
      bedrooms: q.bedrooms ?? null,
      month,
      active_listings: r?.active_listings ?? 0,
      new_listings: r?.new_listings ?? 0,
      removed_listings: { sold: r?.sold ?? 0, rented: r?.rented ?? 0, withdrawn: r?.withdrawn ?? 0 },
      sample_size: r?.active_listings ?? 0,
      p25_price: maybe(r?.p25_price ?? null),
      median_price: maybe(r?.median_price ?? null),
      p75_price: maybe(r?.p75_price ?? null),
      price_per_m2_sample_size: r?.price_per_m2_sample_size ?? 0,
      median_price_per_m2: maybe(r?.median_price_per_m2 ?? null),
      days_on_market_sample_size: removed,
      median_days_on_market: r?.median_days_on_market ?? null,
      median_price_change_pct: changePct(r?.median_price ?? null, yearBefore?.median_price ?? null),
      currency: q.currency,
    });
  }
  return points;
}
