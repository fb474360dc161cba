/**
 * Example answers for the OpenAPI document: one or more per response, each a body the
 * API could send (the tests parse every one with the contract's own schemas, and the
 * linter checks them against the document's).
 */
import { type Currency, fromXaf } from '../currency.js';
import { statsByBedroomsExample, trendsByBedroomsExample } from './bedrooms-example.js';
import { historyExample } from './history-example.js';
import { pushExamples } from './push-examples.js';
import { valuationBatchExample, valuationExample } from './valuation-example.js';
import { QUOTA, REQUEST_ID } from './example-meta.js';
import type {
  TListing,
  TListingResponse,
  TListingsPage,
  TMarketStat,
  TMarketTrend,
  TPingResponse,
  TStatsResponse,
  TTrendsResponse,
} from '../schemas.js';

const VILLA = {
  id: 'lst_8g2kq4m7x9c3v5b1n6d0',
  title: 'Villa 5 chambres avec piscine à Bonapriso',
  price: 450_000_000,
  city: 'Douala',
  neighborhood: 'Bonapriso',
  surface: 420,
  bedrooms: 5,
  bathrooms: 4,
  location: { lat: 4.0256, lng: 9.693, precision: 'neighborhood' },
  type: 'villa',
  purpose: 'sale',
  price_per_m2: 1_071_429,
  status: 'active',
  listed_at: '2026-09-14T08:30:00.000Z',
  listed_at_precision: 'day',
  updated_at: '2026-11-02T17:05:00.000Z',
  removed_at: null,
  days_on_market: 69,
  furnished: null,
  advance_months: null,
  deposit_months: null,
  land_title: 'titled',
  standing: 'high',
} as const;

const APARTMENT = {
  id: 'lst_2m9xq7c4v1b8n3k6d5f0',
  title: 'Appartement meublé 3 pièces à Bonamoussadi',
  price: 350_000,
  city: 'Douala',
  neighborhood: 'Bonamoussadi',
  surface: 110,
  bedrooms: 2,
  bathrooms: 2,
  location: { lat: 4.094, lng: 9.741, precision: 'street' },
  type: 'apartment',
  purpose: 'furnished_rent',
  price_per_m2: 3_182,
  status: 'active',
  listed_at: '2026-11-20T10:12:00.000Z',
  listed_at_precision: 'day',
  updated_at: '2026-11-20T10:12:00.000Z',
  removed_at: null,
  days_on_market: 2,
  furnished: true,
  advance_months: 6,
  deposit_months: 2,
  land_title: null,
  standing: null,
} as const;

function listing(base: typeof VILLA | typeof APARTMENT, currency: Currency): TListing {
  return { ...base, currency, price: fromXaf(base.price, currency), price_per_m2: fromXaf(base.price_per_m2, currency) };
}

function page(currency: Currency): TListingsPage {
  return {
    data: [listing(APARTMENT, currency), listing(VILLA, currency)],
    meta: {
      total: 1842,
      returned: 2,
      limit: 2,
      next_cursor:
        'eyJ2IjoxLCJmIjoiVjJ4a1pXNWhiV1VpIiwiayI6WyIyMDI2LTA5LTE0VDA4OjMwOjAwLjAwMFoiLCJsc3RfOGcya3E0bTd4OWMzdjViMW42ZDAiXSwidCI6MTg0Mn0.Qm9uYXByaXNvVmlsbGE1Q2g',
      has_more: true,
      quota: QUOTA,
      request_id: REQUEST_ID,
      dataset: 'live',
    },
  };
}

const HISTORY_XAF = [
  { date: '2026-09-14T08:30:00.000Z', price: 475_000_000 },
  { date: '2026-10-01T00:00:00.000Z', price: 450_000_000 },
];

function detail(currency: Currency): TListingResponse {
  return {
    data: {
      ...listing(VILLA, currency),
      price_history: HISTORY_XAF.map((h) => ({ date: h.date, price: fromXaf(h.price, currency) })),
    },
    meta: { quota: QUOTA, request_id: REQUEST_ID, dataset: 'live' },
  };
}

const AS_OF = '2026-11-22T06:00:00.000Z';

function stat(
  place: { city: string; neighborhood: string | null },
  n: number,
  xaf: { avg: number; min: number; p25: number; median: number; p75: number; max: number },
  ppm: { avg: number; p25: number; median: number; p75: number },
  currency: Currency,
): TMarketStat {
  const m = (v: number) => fromXaf(v, currency);
  return {
    ...place,
    purpose: 'sale',
    type: place.neighborhood === null ? null : 'villa',
    bedrooms: null,
    volume: n,
    sample_size: n,
    avg_price: m(xaf.avg),
    min_price: m(xaf.min),
    p25_price: m(xaf.p25),
    median_price: m(xaf.median),
    p75_price: m(xaf.p75),
    max_price: m(xaf.max),
    price_per_m2_sample_size: n,
    avg_price_per_m2: m(ppm.avg),
    p25_price_per_m2: m(ppm.p25),
    median_price_per_m2: m(ppm.median),
    p75_price_per_m2: m(ppm.p75),
    currency,
    as_of: AS_OF,
  };
}

function stats(kind: 'city' | 'neighborhood', currency: Currency): TStatsResponse {
  const row =
    kind === 'city'
      ? stat(
          { city: 'Douala', neighborhood: null },
          5230,
          { avg: 98_000_000, min: 4_500_000, p25: 32_000_000, median: 65_000_000, p75: 120_000_000, max: 1_200_000_000 },
          { avg: 310_000, p25: 180_000, median: 260_000, p75: 390_000 },
          currency,
        )
      : stat(
          { city: 'Douala', neighborhood: 'Bonapriso' },
          48,
          { avg: 512_000_000, min: 260_000_000, p25: 390_000_000, median: 480_000_000, p75: 610_000_000, max: 1_150_000_000 },
          { avg: 1_120_000, p25: 930_000, median: 1_080_000, p75: 1_290_000 },
          currency,
        );
  return { data: [row], meta: { total: 1, returned: 1, quota: QUOTA, request_id: REQUEST_ID, dataset: 'live' } };
}

function trend(neighborhood: string, n: number, previous: number, currency: Currency): TMarketTrend {
  const enough = n >= 5 && previous >= 5;
  return {
    city: 'Yaoundé',
    neighborhood,
    type: 'villa',
    purpose: 'sale',
    bedrooms: null,
    new_listings: n,
    sample_size: n,
    previous_sample_size: previous,
    avg_price: fromXaf(185_000_000, currency),
    median_price: fromXaf(170_000_000, currency),
    price_per_m2_sample_size: n,
    avg_price_per_m2: fromXaf(410_000, currency),
    avg_price_change_pct: enough ? -3.4 : null,
    new_listings_change_pct: enough ? Math.round(((n - previous) / previous) * 1000) / 10 : null,
    period_start: '2026-10-23T06:00:00.000Z',
    period_end: '2026-11-22T06:00:00.000Z',
    currency,
  };
}

function trends(currency: Currency): TTrendsResponse {
  const data = [trend('Bastos', 42, 37, currency), trend('Golf', 8, 2, currency)];
  return { data, meta: { total: data.length, returned: data.length, quota: QUOTA, request_id: REQUEST_ID, dataset: 'live' } };
}

const PING: TPingResponse = {
  data: { status: 'ok', time: '2026-11-22T10:15:00.000Z', version: '0.1.0' },
  meta: { quota: QUOTA, request_id: REQUEST_ID, dataset: 'live' },
};

type NamedExample = { summary: string; value: unknown };

/** Success examples per endpoint (the contract's endpoint names). */
export const SUCCESS_EXAMPLES: Record<string, Record<string, NamedExample>> = {
  'listings.search': {
    xaf: { summary: 'A page of listings (amounts in XAF)', value: page('XAF') },
    eur: { summary: 'The same page with currency=EUR', value: page('EUR') },
  },
  'listings.get': {
    xaf: { summary: 'A listing whose price dropped once', value: detail('XAF') },
    eur: { summary: 'The same listing with currency=EUR', value: detail('EUR') },
  },
  'market.stats': {
    city: { summary: 'A city, every type together', value: stats('city', 'XAF') },
    neighborhood: { summary: 'One neighbourhood and type, in EUR', value: stats('neighborhood', 'EUR') },
    bedrooms: { summary: 'Apartment rents of a quarter, group_by=bedrooms', value: statsByBedroomsExample(QUOTA, REQUEST_ID) },
  },
  'market.trends': {
    xaf: { summary: 'Two neighbourhoods: the second sample is too small for a change', value: trends('XAF') },
    bedrooms: { summary: 'Apartment rents of a quarter, group_by=bedrooms', value: trendsByBedroomsExample(QUOTA, REQUEST_ID) },
  },
  'market.history': {
    rent: {
      summary: 'Two months of 2-bedroom flat rents in a quarter (the price per m² rests on too few listings)',
      value: historyExample(QUOTA, REQUEST_ID),
    },
  },
  'valuations.get': {
    villa: {
      summary: 'A 5-bedroom villa in Bonapriso, valued from the adverts of its quarter (one comparable shown)',
      value: valuationExample(QUOTA, REQUEST_ID, listing(VILLA, 'XAF')),
    },
  },
  'valuations.batch': {
    two: {
      summary: 'Two subjects: the first valued, the second refused as the single call would refuse it',
      value: valuationBatchExample(QUOTA, REQUEST_ID, listing(VILLA, 'XAF')),
    },
  },
  ...pushExamples({ quota: QUOTA, request_id: REQUEST_ID, dataset: 'live' }, page('XAF')),
  'exports.listings': {
    line: { summary: 'One line of the NDJSON body: a Listing, exactly as in a search page', value: listing(VILLA, 'XAF') },
  },
  ping: { ok: { summary: 'Healthy, with the quota', value: PING } },
};
