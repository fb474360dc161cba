/** The OpenAPI document's example answers of `/market/stats` and `/market/trends` with `group_by=bedrooms`. */
import { type Currency, fromXaf } from '../currency.js';
import type { TMarketStat, TMarketTrend, TQuota, TStatsResponse, TTrendsResponse } from '../schemas.js';

/** Apartment rents in one quarter by bedrooms: few adverts give a surface, so the per-m² figures rest on a handful. */
function stat(bedrooms: number, n: number, median: number, ppm: { n: number; median: number } | null, currency: Currency): TMarketStat {
  const m = (v: number) => fromXaf(v, currency);
  const perM2 = (v: number) => (ppm === null ? null : m(v));
  return {
    city: 'Douala',
    neighborhood: 'Bonamoussadi',
    purpose: 'rent',
    type: 'apartment',
    bedrooms,
    volume: n,
    sample_size: n,
    avg_price: m(median + 8_000),
    min_price: m(median / 2),
    p25_price: m(median - 25_000),
    median_price: m(median),
    p75_price: m(median + 30_000),
    max_price: m(median * 2),
    price_per_m2_sample_size: ppm?.n ?? 0,
    avg_price_per_m2: perM2((ppm?.median ?? 0) + 60),
    p25_price_per_m2: perM2((ppm?.median ?? 0) - 250),
    median_price_per_m2: perM2(ppm?.median ?? 0),
    p75_price_per_m2: perM2((ppm?.median ?? 0) + 300),
    currency,
    as_of: '2026-11-22T06:00:00.000Z',
  };
}

export function statsByBedroomsExample(quota: TQuota, requestId: string): TStatsResponse {
  const data = [
    stat(2, 64, 150_000, { n: 9, median: 2_100 }, 'XAF'),
    stat(1, 38, 100_000, { n: 4, median: 2_400 }, 'XAF'),
    stat(3, 21, 225_000, null, 'XAF'),
  ];
  return { data, meta: { total: data.length, returned: data.length, quota, request_id: requestId, dataset: 'live' } };
}

function trend(bedrooms: number, n: number, previous: number, avg: number, change: number | null): TMarketTrend {
  const enough = n >= 5 && previous >= 5;
  return {
    city: 'Yaoundé',
    neighborhood: 'Bastos',
    type: 'apartment',
    purpose: 'rent',
    bedrooms,
    new_listings: n,
    sample_size: n,
    previous_sample_size: previous,
    avg_price: avg,
    median_price: avg - 10_000,
    price_per_m2_sample_size: 0,
    avg_price_per_m2: null,
    avg_price_change_pct: enough ? change : null,
    new_listings_change_pct: enough ? Math.round(((n - previous) / previous) * 1000) / 10 : null,
    period_start: '2026-10-23T06:00:00.000Z',
    period_end: '2026-11-22T06:00:00.000Z',
    currency: 'XAF',
  };
}

export function trendsByBedroomsExample(quota: TQuota, requestId: string): TTrendsResponse {
  const data = [trend(2, 17, 12, 310_000, 4.2), trend(3, 6, 3, 455_000, null)];
  return { data, meta: { total: data.length, returned: data.length, quota, request_id: requestId, dataset: 'live' } };
}
