/** The OpenAPI document's example answers of `GET /market/history` (JSON and CSV). */
import { type Currency, fromXaf } from '../currency.js';
import { historyCsvOf, type THistoryPoint, type THistoryResponse } from '../history.js';
import type { TQuota } from '../schemas.js';

function point(month: string, active: number, median: number | null, change: number | null, currency: Currency): THistoryPoint {
  const money = (v: number | null) => (v === null ? null : fromXaf(v, currency));
  return {
    city: 'Douala',
    neighborhood: 'Bonamoussadi',
    near: null,
    radius_m: null,
    purpose: 'rent',
    type: 'apartment',
    bedrooms: 2,
    month,
    active_listings: active,
    new_listings: 9,
    removed_listings: { sold: 0, rented: 4, withdrawn: 1 },
    sample_size: active,
    p25_price: money(median === null ? null : median - 25_000),
    median_price: money(median),
    p75_price: money(median === null ? null : median + 30_000),
    price_per_m2_sample_size: 3,
    median_price_per_m2: null,
    days_on_market_sample_size: 5,
    median_days_on_market: 38,
    median_price_change_pct: change,
    currency,
  };
}

const POINTS = [point('2026-09', 41, 150_000, 7.1, 'XAF'), point('2026-10', 44, 155_000, 3.3, 'XAF')];

export function historyExample(quota: TQuota, requestId: string): THistoryResponse {
  return { data: POINTS, meta: { total: 2, returned: 2, quota, request_id: requestId, dataset: 'live' } };
}

export const HISTORY_CSV_EXAMPLE = historyCsvOf(POINTS);
