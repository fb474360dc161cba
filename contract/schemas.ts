/**
 * Zod schemas of every value the API reads or writes. Types are inferred from them
 * (`TListing` from `ZListing`); the OpenAPI document is generated from them.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ADVERT_TERM_FIELDS, ADVERT_TERM_FILTERS } from './advert-terms.js';
import { MARKET_BEDROOMS_PARAMS, marketBedroomsField } from './bedrooms.js';
import { CURRENCIES } from './currency.js';
import { checkGeoParams, distanceField, GEO_PARAMS } from './geo.js';
import { LISTED_AT_FIELDS } from './listed-at.js';
import { checkStatsGrouping, statsGroupByParam } from './market-stats.js';
import { currencyParam, enumListParam, enumParam, instantParam, oneOf, textParam, wholeNumberParam } from './params.js';

// extendApi() annotates the schema object it is given: shared schemas are only ever
// annotated where they are defined, and a different description needs a new schema.

export const PROPERTY_TYPES = ['villa', 'house', 'apartment', 'studio', 'duplex', 'room', 'land', 'office', 'shop', 'warehouse'] as const;
export const PURPOSES = ['sale', 'rent', 'furnished_rent'] as const;
export const LISTING_STATUSES = ['active', 'withdrawn', 'sold', 'rented'] as const;
export const LISTING_SORTS = ['-listed_at', 'listed_at', 'price', '-price', 'updated_at', 'distance'] as const;

export const LIMIT_DEFAULT = 20;
export const LIMIT_MAX = 200;

/** Upper bounds of the numeric filters: beyond them no listing can match, and the database columns could not hold them. */
export const MAX_PRICE = 1_000_000_000_000_000; // 10^15
export const MAX_SURFACE = 100_000_000; // 100 km²
export const MAX_ROOMS = 1_000;

/**
 * Fewest listings each 30-day period needs for a trend's change in % to be given: below
 * it, a change is noise (2 listings becoming 8 is not "+300 %"), and the change is null.
 */
export const TREND_MIN_SAMPLE = 5;

export const ZPropertyType = extendApi(oneOf(PROPERTY_TYPES), {
  description: 'Kind of property.',
  example: 'villa',
});
export const ZPurpose = extendApi(oneOf(PURPOSES), {
  description: 'Purpose of the listing. Rent prices are per month.',
  example: 'sale',
});
export const ZListingStatus = extendApi(oneOf(LISTING_STATUSES), {
  description: '`active` while on the market; the others once removed (`removed_at` is then set).',
  example: 'active',
});
export const ZCurrency = extendApi(z.enum(CURRENCIES), {
  description:
    'Currency of every amount in this object: `XAF` (whole francs) or `EUR` (at 655.957 XAF = 1 EUR, rounded half up to the cent), as asked with `currency`.',
  example: 'XAF',
});

const timestamp = (description: string, example: string) => extendApi(z.string().datetime({ offset: true }), { description, example });

/** An amount of money in the answer's `currency`: whole francs, or euros to the cent. */
const money = (description: string, example: number) =>
  extendApi(z.number().min(0), { description: `${description} In \`currency\`: whole XAF, or EUR to the cent.`, example });
const nullableMoney = (description: string, example: number | null) =>
  extendApi(z.number().min(0).nullable(), { description: `${description} In \`currency\`: whole XAF, or EUR to the cent.`, example });
const count = (description: string, example: number) => extendApi(z.number().int().min(0), { description, example });

export const ZListing = z.object({
  id: extendApi(z.string(), { description: 'Stable, opaque identifier.', example: 'lst_8g2kq4m7x9c3v5b1n6d0' }),
  title: extendApi(z.string(), {
    description: 'Title as published, or written from the fields when the source gave none.',
    example: 'Villa 5 chambres avec piscine à Bonapriso',
  }),
  price: money('Price; per month for rent purposes.', 450000000),
  currency: ZCurrency,
  city: extendApi(z.string(), { description: 'City.', example: 'Douala' }),
  neighborhood: extendApi(z.string().nullable(), {
    description:
      "Quarter within the city, as Mboa's gazetteer names it (a sub-quarter keeps its own name, `Akwa I`, and is found under its parent); null when the source's quarter name is not known yet.",
    example: 'Bonapriso',
  }),
  surface: extendApi(z.number().nullable(), {
    description: 'Area in square metres (m²); null when the source did not give it.',
    example: 420,
  }),
  bedrooms: extendApi(z.number().int().nullable(), {
    description: 'Number of bedrooms (0 for land and commercial premises); null when the source did not give it.',
    example: 5,
  }),
  bathrooms: extendApi(z.number().int().nullable(), { description: 'Number of bathrooms (0 for land); null when not given.', example: 4 }),
  location: ZLocation.nullable(),
  type: ZPropertyType,
  purpose: ZPurpose,
  price_per_m2: nullableMoney(
    'Price divided by surface (rounded to the franc before any conversion); null when the surface is unknown.',
    1071429,
  ),
  status: ZListingStatus,
  listed_at: timestamp(
    'When the listing was first published (UTC), or first seen by Mboa when its source gives no date.',
    '2026-09-14T08:30:00.000Z',
  ),
  ...LISTED_AT_FIELDS,
  updated_at: timestamp('Last change of any public field, status included (UTC).', '2026-11-02T17:05:00.000Z'),
  removed_at: extendApi(z.string().datetime({ offset: true }).nullable(), {
    description: 'When the listing left the market, or null while active.',
    example: null,
  }),
  days_on_market: extendApi(z.number().int(), {
    description: 'Whole days from `listed_at` to removal, or to now while active.',
    example: 69,
  }),
  ...ADVERT_TERM_FIELDS,
  distance_m: distanceField.optional(),
});
export type TListing = z.infer<typeof ZListing>;

export const ZPriceChange = z.object({
  date: timestamp('When this price took effect.', '2026-10-01T00:00:00.000Z'),
  price: money('Price from that date.', 475000000),
});
export type TPriceChange = z.infer<typeof ZPriceChange>;

export const ZListingDetail = ZListing.extend({
  price_history: extendApi(z.array(ZPriceChange), {
    description: 'Every price the listing has had, oldest first; the last entry is the current price. Same `currency` as the listing.',
  }),
});
export type TListingDetail = z.infer<typeof ZListingDetail>;

import { ZLocation } from './location.js';
import { ZCollectionMeta, ZPageMeta, ZSingleMeta } from './meta.js';

export { ZCollectionMeta, ZPageMeta, ZQuota, ZSingleMeta } from './meta.js';
export type { TCollectionMeta, TPageMeta, TQuota, TSingleMeta } from './meta.js';
export type { TLocation } from './location.js';
export { ZPing, ZPingQuery, ZPingResponse } from './ping.js';
export type { TPing, TPingResponse } from './ping.js';

/* ---------------------------------------------------------------- queries */

const CITY_MATCHING =
  'Matched without regard to case or accents (`yaounde` finds Yaoundé); an unknown name is a 400 that suggests the closest known ones (known places: see the API description).';

/**
 * The listing filters: one schema for every endpoint that selects listings (the search,
 * and any export of the same listings), turned into SQL by one builder on the server.
 * Ranges are checked by `checkListingFilterRanges` once the endpoint's own parameters
 * are added.
 */
export const ZListingFilters = z.object({
  city: textParam(`City. ${CITY_MATCHING}`, 'Douala').optional(),
  neighborhood: textParam(
    'Neighbourhood (of `city` when both are given), matched like `city`, spellings the gazetteer knows included (`Akwa 1`); a quarter finds its sub-quarters (`Akwa` finds `Akwa I`).',
    'Bonapriso',
  ).optional(),
  type: enumListParam(PROPERTY_TYPES, 'Kind of property: listings of any of the types given.').optional(),
  purpose: enumListParam(PURPOSES, 'Purpose of the listing (rent prices are per month): listings of any of those given.').optional(),
  min_price: wholeNumberParam(
    'Minimum price, inclusive, in `currency` (XAF by default; with `currency=EUR`, whole euros, compared with the EUR price shown).',
    10000000,
    0,
    MAX_PRICE,
  ).optional(),
  max_price: wholeNumberParam('Maximum price, inclusive, in `currency` (as `min_price`).', 500000000, 0, MAX_PRICE).optional(),
  min_surface: wholeNumberParam(
    'Minimum surface, m², inclusive (a listing whose surface is unknown never matches a surface bound).',
    100,
    0,
    MAX_SURFACE,
  ).optional(),
  max_surface: wholeNumberParam('Maximum surface, m², inclusive.', 1000, 0, MAX_SURFACE).optional(),
  min_bedrooms: wholeNumberParam('Minimum number of bedrooms (unknown counts never match).', 3, 0, MAX_ROOMS).optional(),
  min_bathrooms: wholeNumberParam('Minimum number of bathrooms.', 2, 0, MAX_ROOMS).optional(),
  listed_after: instantParam('Only listings published at or after this instant.', '2026-10-01').optional(),
  updated_after: instantParam(
    'Only listings changed strictly after this instant: with `sort=updated_at` and `status=any`, the incremental-sync feed.',
    '2026-11-20T00:00:00Z',
  ).optional(),
  status: extendApi(enumParam([...LISTING_STATUSES, 'any']), {
    description: '`active` (default), one removed status, or `any` for every listing, removed ones included. In any case.',
    example: 'active',
  }).default('active'),
  ...ADVERT_TERM_FILTERS,
  ...GEO_PARAMS,
});
export type TListingFilters = z.output<typeof ZListingFilters>;

/** min ≤ max for the price and surface ranges. */
export function checkListingFilterRanges(q: Partial<TListingFilters>, ctx: z.RefinementCtx): void {
  if (q.min_price !== undefined && q.max_price !== undefined && q.min_price > q.max_price) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'min_price must not exceed max_price', path: ['min_price'] });
  }
  if (q.min_surface !== undefined && q.max_surface !== undefined && q.min_surface > q.max_surface) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'min_surface must not exceed max_surface', path: ['min_surface'] });
  }
}

export const ZListingsQuery = ZListingFilters.extend({
  sort: extendApi(enumParam(LISTING_SORTS), {
    description: 'Order of results; ties are broken by `id`. `-` means descending; `distance`, nearest first, needs `near`. In any case.',
    example: '-listed_at',
  }).default('-listed_at'),
  limit: wholeNumberParam('Page size.', 50, 1, LIMIT_MAX).default(LIMIT_DEFAULT),
  cursor: extendApi(z.string().min(1).max(2000), {
    description:
      '`meta.next_cursor` of the previous page. Valid only with the filters and sort it was issued for; `currency` is not part of it (it changes how amounts are written, not which listings match), but price bounds are, as the XAF range they denote.',
  }).optional(),
  currency: currencyParam('`price` and `price_per_m2`'),
})
  .strict()
  .superRefine(checkListingFilterRanges)
  .superRefine(checkGeoParams);
export type TListingsQuery = z.input<typeof ZListingsQuery>;
export type TListingsQueryParsed = z.output<typeof ZListingsQuery>;

/** Lines of an export per counted call (see the bulk export in the contract's description). */
export const EXPORT_LINES_PER_CALL = 1_000;

export const ZExportQuery = ZListingFilters.extend({
  currency: currencyParam('`price` and `price_per_m2`'),
  after: extendApi(z.string().regex(/^lst_[a-z0-9]{20}$/, 'is not a listing id (lst_ followed by 20 characters)'), {
    description:
      'Resume after this listing: only listings whose `id` sorts after it are sent. Give the `id` of the last complete line received to continue a broken export.',
    example: 'lst_8g2kq4m7x9c3v5b1n6d0',
  }).optional(),
})
  .strict()
  .superRefine(checkListingFilterRanges)
  .superRefine(checkGeoParams);
export type TExportQuery = z.input<typeof ZExportQuery>;
export type TExportQueryParsed = z.output<typeof ZExportQuery>;

export const ZListingParams = z.object({
  id: extendApi(z.string().regex(/^lst_[a-z0-9]{20}$/, 'is not a listing id (lst_ followed by 20 characters)'), {
    description: 'Listing identifier.',
    example: 'lst_8g2kq4m7x9c3v5b1n6d0',
  }),
});

export const ZListingQuery = z.object({ currency: currencyParam('`price`, `price_per_m2` and the price history') }).strict();
export type TListingQuery = z.input<typeof ZListingQuery>;

export const ZStatsQuery = z
  .object({
    city: textParam(`Only this city. All cities when absent. ${CITY_MATCHING}`, 'Douala').optional(),
    neighborhood: textParam(
      'Only this neighbourhood (of `city` when both are given): rows per neighbourhood instead of per city. Matched like `city`.',
      'Bonapriso',
    ).optional(),
    purpose: enumListParam(PURPOSES, 'Only these purposes: one row per purpose given, or per purpose when absent.').optional(),
    type: enumListParam(
      PROPERTY_TYPES,
      'Only these property types: one row per type given (figures of several types are never merged), or every type together when absent (`type` null).',
    ).optional(),
    bedrooms: MARKET_BEDROOMS_PARAMS.bedrooms,
    group_by: statsGroupByParam(),
    currency: currencyParam('the prices'),
  })
  .strict()
  .superRefine(checkStatsGrouping);
export type TStatsQuery = z.input<typeof ZStatsQuery>;
export type TStatsQueryParsed = z.output<typeof ZStatsQuery>;

export const ZTrendsQuery = z
  .object({
    city: textParam(`Only this city. ${CITY_MATCHING}`, 'Yaoundé').optional(),
    neighborhood: textParam('Only this neighbourhood (of `city` when both are given), matched like `city`.', 'Bastos').optional(),
    type: enumListParam(PROPERTY_TYPES, 'Only the rows of these property types.').optional(),
    purpose: enumListParam(PURPOSES, 'Only the rows of these purposes.').optional(),
    ...MARKET_BEDROOMS_PARAMS,
    currency: currencyParam('the prices'),
  })
  .strict();
export type TTrendsQuery = z.input<typeof ZTrendsQuery>;
export type TTrendsQueryParsed = z.output<typeof ZTrendsQuery>;

/* ---------------------------------------------------------------- market */

const PERCENTILES = 'Percentiles are continuous (interpolated between the two nearest prices), rounded to the franc before any conversion.';

export const ZMarketStat = z.object({
  city: extendApi(z.string(), { description: 'City.', example: 'Douala' }),
  neighborhood: extendApi(z.string().nullable(), {
    description: 'Neighbourhood, or null when the row covers the whole city (neither `neighborhood` nor `group_by=neighborhood` asked).',
    example: null,
  }),
  purpose: extendApi(oneOf(PURPOSES), {
    description: 'Purpose aggregated: sale prices and monthly rents are never mixed.',
    example: 'sale',
  }),
  type: extendApi(oneOf(PROPERTY_TYPES).nullable(), {
    description: 'Property type, or null when every type is aggregated.',
    example: null,
  }),
  bedrooms: marketBedroomsField(),
  volume: count('Active listings aggregated.', 5230),
  sample_size: count(
    'Listings every price figure of this row rests on (the active listings aggregated, so equal to `volume`): read small samples with care.',
    5230,
  ),
  avg_price: money('Mean price.', 98000000),
  min_price: money('Lowest price.', 4500000),
  p25_price: money(`First quartile of price: a quarter of the listings cost less. ${PERCENTILES}`, 32000000),
  median_price: money('Median price.', 65000000),
  p75_price: money('Third quartile of price: a quarter of the listings cost more.', 120000000),
  max_price: money('Highest price.', 1200000000),
  price_per_m2_sample_size: count('Listings with a known surface (so a price per m²), which the price-per-m² figures rest on.', 5230),
  avg_price_per_m2: nullableMoney('Mean price per m²; null when no listing has one.', 310000),
  p25_price_per_m2: nullableMoney('First quartile of price per m².', 180000),
  median_price_per_m2: nullableMoney('Median price per m².', 260000),
  p75_price_per_m2: nullableMoney('Third quartile of price per m².', 390000),
  currency: ZCurrency,
  as_of: timestamp('When these figures were computed.', '2026-11-22T06:00:00.000Z'),
});
export type TMarketStat = z.infer<typeof ZMarketStat>;

export const ZMarketTrend = z.object({
  city: extendApi(z.string(), { description: 'City.', example: 'Yaoundé' }),
  neighborhood: extendApi(z.string(), { description: 'Neighbourhood.', example: 'Bastos' }),
  type: ZPropertyType,
  purpose: ZPurpose,
  bedrooms: marketBedroomsField(),
  new_listings: count('Listings published in the period.', 42),
  sample_size: count('Listings the figures of the period rest on (those published in it, so equal to `new_listings`).', 42),
  previous_sample_size: count('Listings published in the 30 days before the period: what the changes compare with.', 37),
  avg_price: nullableMoney('Mean price of the listings of the period; null when none.', 185000000),
  median_price: nullableMoney('Median price of those listings; null when none.', 170000000),
  price_per_m2_sample_size: count('Listings of the period with a known price per m².', 42),
  avg_price_per_m2: nullableMoney('Mean price per m² of those listings; null when none.', 410000),
  avg_price_change_pct: extendApi(z.number().nullable(), {
    description: `Change of \`avg_price\` against the previous 30 days, in %, one decimal; null when either period has fewer than ${TREND_MIN_SAMPLE} listings.`,
    example: -3.4,
  }),
  new_listings_change_pct: extendApi(z.number().nullable(), {
    description: `Change of \`new_listings\` against the previous 30 days, in %, one decimal; null when either period has fewer than ${TREND_MIN_SAMPLE} listings.`,
    example: 13.5,
  }),
  period_start: timestamp('Start of the 30-day period (inclusive).', '2026-10-23T00:00:00.000Z'),
  period_end: timestamp('End of the period (exclusive).', '2026-11-22T00:00:00.000Z'),
  currency: ZCurrency,
});
export type TMarketTrend = z.infer<typeof ZMarketTrend>;

/* ---------------------------------------------------------------- envelopes */

export const ZListingsPage = z.object({ data: z.array(ZListing), meta: ZPageMeta });
export type TListingsPage = z.infer<typeof ZListingsPage>;
export const ZListingResponse = z.object({ data: ZListingDetail, meta: ZSingleMeta });
export type TListingResponse = z.infer<typeof ZListingResponse>;
export const ZStatsResponse = z.object({ data: z.array(ZMarketStat), meta: ZCollectionMeta });
export type TStatsResponse = z.infer<typeof ZStatsResponse>;
export const ZTrendsResponse = z.object({ data: z.array(ZMarketTrend), meta: ZCollectionMeta });
export type TTrendsResponse = z.infer<typeof ZTrendsResponse>;
