/**
 * Zod schemas of every value the API reads or writes. Types are inferred from them
 * (`TListing` from `ZListing`); the OpenAPI document is generated from them.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { PLAN_NAMES } from './plans.js';

// extendApi() annotates the schema object it is given: shared schemas are only ever
// annotated where they are defined, and a different description needs a new schema.

/** An enum whose error lists the allowed values: `must be one of: sale, rent, furnished_rent`. */
function oneOf<const T extends string>(values: readonly [T, ...T[]]) {
  return z.enum(values as [T, ...T[]], {
    errorMap: (issue, ctx) =>
      issue.code === 'invalid_enum_value' ? { message: `must be one of: ${values.join(', ')}` } : { message: ctx.defaultError },
  });
}

export const PROPERTY_TYPES = [
  'villa', 'house', 'apartment', 'studio', 'duplex', 'room', 'land', 'office', 'shop', 'warehouse',
] as const;
export const PURPOSES = ['sale', 'rent', 'furnished_rent'] as const;
export const LISTING_STATUSES = ['active', 'withdrawn', 'sold', 'rented'] as const;
export const LISTING_SORTS = ['-listed_at', 'listed_at', 'price', '-price', 'updated_at'] as const;

export const LIMIT_DEFAULT = 20;
export const LIMIT_MAX = 200;

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

const timestamp = (description: string, example: string) =>
  extendApi(z.string().datetime({ offset: true }), { description, example });

export const ZListing = z.object({
  id: extendApi(z.string(), { description: 'Stable, opaque identifier.', example: 'lst_8g2kq4m7x9c3v5b1n6d0' }),
  title: extendApi(z.string(), { description: 'Title as published.', example: 'Villa 5 chambres avec piscine à Bonapriso' }),
  price: extendApi(z.number().int(), {
    description: 'Integer amount in `currency` (XAF has no minor unit). Per month for rent purposes.',
    example: 450000000,
  }),
  currency: extendApi(z.literal('XAF'), { description: 'ISO 4217 code: Central African CFA franc.', example: 'XAF' }),
  city: extendApi(z.string(), { description: 'City.', example: 'Douala' }),
  neighborhood: extendApi(z.string(), { description: 'District within the city.', example: 'Bonapriso' }),
  surface: extendApi(z.number(), { description: 'Area in square metres (m²).', example: 420 }),
  bedrooms: extendApi(z.number().int(), { description: 'Number of bedrooms (0 for land and commercial premises).', example: 5 }),
  bathrooms: extendApi(z.number().int(), { description: 'Number of bathrooms (0 for land).', example: 4 }),
  type: ZPropertyType,
  purpose: ZPurpose,
  price_per_m2: extendApi(z.number().int().nullable(), { description: 'Price divided by surface, rounded, in XAF per m².', example: 1071429 }),
  status: ZListingStatus,
  listed_at: timestamp('When the listing was first published (UTC).', '2026-09-14T08:30:00.000Z'),
  updated_at: timestamp('Last change of any public field, status included (UTC).', '2026-11-02T17:05:00.000Z'),
  removed_at: extendApi(z.string().datetime({ offset: true }).nullable(), {
    description: 'When the listing left the market, or null while active.',
    example: null,
  }),
  days_on_market: extendApi(z.number().int(), { description: 'Whole days from `listed_at` to removal, or to now while active.', example: 69 }),
});
export type TListing = z.infer<typeof ZListing>;

export const ZPriceChange = z.object({
  date: timestamp('When this price took effect.', '2026-10-01T00:00:00.000Z'),
  price: extendApi(z.number().int(), { description: 'Price from that date, in XAF.', example: 475000000 }),
});
export type TPriceChange = z.infer<typeof ZPriceChange>;

export const ZListingDetail = ZListing.extend({
  price_history: extendApi(z.array(ZPriceChange), {
    description: 'Every price the listing has had, oldest first; the last entry is the current price.',
  }),
});
export type TListingDetail = z.infer<typeof ZListingDetail>;

export const ZQuota = z.object({
  plan: extendApi(oneOf(PLAN_NAMES), { description: "The account's plan.", example: 'starter' }),
  limit: extendApi(z.number().int().nullable(), { description: 'Calls included this month; null when unlimited.', example: 10000 }),
  used: extendApi(z.number().int(), { description: 'Calls counted this month, this one included.', example: 1234 }),
  remaining: extendApi(z.number().int().nullable(), { description: 'Calls left this month; null when unlimited.', example: 8766 }),
  resets_at: timestamp('When the count returns to zero: 00:00 UTC on the 1st of next month.', '2026-12-01T00:00:00.000Z'),
});
export type TQuota = z.infer<typeof ZQuota>;

const requestId = extendApi(z.string(), { description: 'Equals the `X-Request-Id` response header.', example: 'req_3x9f0a1b2c4d5e6f' });

export const ZSingleMeta = z.object({ quota: ZQuota, request_id: requestId });
export type TSingleMeta = z.infer<typeof ZSingleMeta>;

export const ZPageMeta = z.object({
  total: extendApi(z.number().int(), { description: 'Exact number of records matching the filters.', example: 1842 }),
  returned: extendApi(z.number().int(), { description: 'Records in this response.', example: 20 }),
  limit: extendApi(z.number().int(), { description: 'Page size applied.', example: 20 }),
  next_cursor: extendApi(z.string().nullable(), {
    description: 'Pass as `cursor` (with the same filters and sort) for the next page; null on the last page.',
    example: 'eyJ2IjoxLCJrIjpbIjIwMjYtMTEtMDFUMTA6MDA6MDAuMDAwWiIsImxzdF8xIl19',
  }),
  has_more: extendApi(z.boolean(), { description: 'Whether another page follows.', example: true }),
  quota: ZQuota,
  request_id: requestId,
});
export type TPageMeta = z.infer<typeof ZPageMeta>;

export const ZCollectionMeta = z.object({
  total: extendApi(z.number().int(), { description: 'Number of rows returned (these collections are not paginated).', example: 3 }),
  returned: extendApi(z.number().int(), { description: 'Rows in this response.', example: 3 }),
  quota: ZQuota,
  request_id: requestId,
});
export type TCollectionMeta = z.infer<typeof ZCollectionMeta>;

/* ---------------------------------------------------------------- queries */

/** A whole-number filter between 0 and `max`: beyond that no listing can match, and the database column could not hold it. */
const int = (description: string, example: number, max: number) =>
  extendApi(
    z.coerce
      .number({ invalid_type_error: 'must be a number' })
      .int('must be an integer')
      .min(0, `must be between 0 and ${max}`)
      .max(max, `must be between 0 and ${max}`),
    { description, example },
  );
const MAX_PRICE = 1_000_000_000_000_000; // 10^15 XAF
const MAX_SURFACE = 100_000_000; // 100 km²
const MAX_ROOMS = 1_000;
const text = (description: string, example: string) =>
  extendApi(z.string().trim().min(1, 'must not be empty').max(100), { description, example });

const isoDateOrTimestamp = z.union([z.string().date(), z.string().datetime({ offset: true })], {
  errorMap: () => ({ message: 'must be an ISO 8601 date (2026-11-01) or timestamp (2026-11-01T00:00:00Z)' }),
});

export const ZListingsQuery = z
  .object({
    city: text('City, matched without regard to case or accents (`yaounde` finds Yaoundé).', 'Douala').optional(),
    neighborhood: text('Neighbourhood, matched without regard to case or accents.', 'Bonapriso').optional(),
    type: ZPropertyType.optional(),
    purpose: ZPurpose.optional(),
    min_price: int('Minimum price, XAF, inclusive.', 10000000, MAX_PRICE).optional(),
    max_price: int('Maximum price, XAF, inclusive.', 500000000, MAX_PRICE).optional(),
    min_surface: int('Minimum surface, m², inclusive.', 100, MAX_SURFACE).optional(),
    max_surface: int('Maximum surface, m², inclusive.', 1000, MAX_SURFACE).optional(),
    min_bedrooms: int('Minimum number of bedrooms.', 3, MAX_ROOMS).optional(),
    min_bathrooms: int('Minimum number of bathrooms.', 2, MAX_ROOMS).optional(),
    listed_after: extendApi(isoDateOrTimestamp, { description: 'Only listings published at or after this date or instant.', example: '2026-10-01' }).optional(),
    updated_after: extendApi(isoDateOrTimestamp, {
      description: 'Only listings changed strictly after this instant: with `sort=updated_at` and `status=any`, the incremental-sync feed.',
      example: '2026-11-20T00:00:00Z',
    }).optional(),
    status: extendApi(oneOf([...LISTING_STATUSES, 'any']), {
      description: '`active` (default), one removed status, or `any` for every listing, removed ones included.',
      example: 'active',
    }).default('active'),
    sort: extendApi(oneOf(LISTING_SORTS), {
      description: 'Order of results; ties are broken by `id`. `-` means descending.',
      example: '-listed_at',
    }).default('-listed_at'),
    limit: extendApi(
      z.coerce.number({ invalid_type_error: 'must be a number' }).int('must be an integer')
        .min(1, 'must be between 1 and 200').max(LIMIT_MAX, 'must be between 1 and 200'),
      { description: `Page size, 1 to ${LIMIT_MAX}.`, example: 50 },
    ).default(LIMIT_DEFAULT),
    cursor: extendApi(z.string().min(1).max(2000), {
      description: '`meta.next_cursor` of the previous page. Valid only with the filters and sort it was issued for.',
    }).optional(),
  })
  .strict()
  .refine((q) => q.min_price === undefined || q.max_price === undefined || q.min_price <= q.max_price, {
    message: 'min_price must not exceed max_price',
    path: ['min_price'],
  })
  .refine((q) => q.min_surface === undefined || q.max_surface === undefined || q.min_surface <= q.max_surface, {
    message: 'min_surface must not exceed max_surface',
    path: ['min_surface'],
  });
export type TListingsQuery = z.input<typeof ZListingsQuery>;
export type TListingsQueryParsed = z.output<typeof ZListingsQuery>;

export const ZListingParams = z.object({
  id: extendApi(z.string().regex(/^lst_[a-z0-9]{20}$/, 'is not a listing id (lst_ followed by 20 characters)'), {
    description: 'Listing identifier.',
    example: 'lst_8g2kq4m7x9c3v5b1n6d0',
  }),
});

export const ZStatsQuery = z
  .object({
    city: text('Only this city (accent- and case-insensitive). All cities when absent.', 'Douala').optional(),
    purpose: extendApi(oneOf(PURPOSES), { description: 'Only this purpose. One row per purpose when absent.', example: 'sale' }).optional(),
    type: extendApi(oneOf(PROPERTY_TYPES), { description: 'Only this property type. Every type together when absent (`type` null).', example: 'villa' }).optional(),
  })
  .strict();
export type TStatsQuery = z.input<typeof ZStatsQuery>;

export const ZTrendsQuery = z
  .object({
    city: text('Only this city (accent- and case-insensitive).', 'Yaoundé').optional(),
    neighborhood: text('Only this neighbourhood (accent- and case-insensitive).', 'Bastos').optional(),
    type: ZPropertyType.optional(),
    purpose: ZPurpose.optional(),
  })
  .strict();
export type TTrendsQuery = z.input<typeof ZTrendsQuery>;

export const ZPingQuery = z.object({}).strict();

/* ---------------------------------------------------------------- market */

const xaf = (description: string, example: number) => extendApi(z.number().int(), { description, example });

export const ZMarketStat = z.object({
  city: extendApi(z.string(), { example: 'Douala' }),
  purpose: extendApi(oneOf(PURPOSES), { description: 'Purpose aggregated: sale prices and monthly rents are never mixed.', example: 'sale' }),
  type: extendApi(oneOf(PROPERTY_TYPES).nullable(), { description: 'Property type, or null when every type is aggregated.', example: null }),
  volume: extendApi(z.number().int(), { description: 'Active listings aggregated.', example: 5230 }),
  avg_price: xaf('Mean price, XAF.', 98000000),
  min_price: xaf('Lowest price, XAF.', 4500000),
  max_price: xaf('Highest price, XAF.', 1200000000),
  median_price: xaf('Median price, XAF.', 65000000),
  avg_price_per_m2: extendApi(z.number().int().nullable(), { description: 'Mean price per m², XAF.', example: 310000 }),
  currency: z.literal('XAF'),
  as_of: timestamp('When these figures were computed.', '2026-11-22T06:00:00.000Z'),
});
export type TMarketStat = z.infer<typeof ZMarketStat>;

export const ZMarketTrend = z.object({
  city: extendApi(z.string(), { example: 'Yaoundé' }),
  neighborhood: extendApi(z.string(), { example: 'Bastos' }),
  type: ZPropertyType,
  purpose: ZPurpose,
  new_listings: extendApi(z.number().int(), { description: 'Listings published in the period.', example: 42 }),
  avg_price: extendApi(z.number().int().nullable(), { description: 'Mean price of those listings, XAF; null when none.', example: 185000000 }),
  median_price: extendApi(z.number().int().nullable(), { description: 'Median price of those listings, XAF.', example: 170000000 }),
  avg_price_per_m2: extendApi(z.number().int().nullable(), { description: 'Mean price per m², XAF.', example: 410000 }),
  avg_price_change_pct: extendApi(z.number().nullable(), {
    description: 'Change of `avg_price` against the previous 30 days, in %; null when that period had none.',
    example: -3.4,
  }),
  new_listings_change_pct: extendApi(z.number().nullable(), {
    description: 'Change of `new_listings` against the previous 30 days, in %; null when that period had none.',
    example: 12.5,
  }),
  period_start: timestamp('Start of the 30-day period (inclusive).', '2026-10-23T00:00:00.000Z'),
  period_end: timestamp('End of the period (exclusive).', '2026-11-22T00:00:00.000Z'),
  currency: z.literal('XAF'),
});
export type TMarketTrend = z.infer<typeof ZMarketTrend>;

export const ZPing = z.object({
  status: extendApi(z.literal('ok'), { description: 'The API and its database answer.', example: 'ok' }),
  time: timestamp('Server time.', '2026-11-22T10:15:00.000Z'),
  version: extendApi(z.string(), { description: 'API build version.', example: '0.1.0' }),
});
export type TPing = z.infer<typeof ZPing>;

/* ---------------------------------------------------------------- envelopes */

export const ZListingsPage = z.object({ data: z.array(ZListing), meta: ZPageMeta });
export type TListingsPage = z.infer<typeof ZListingsPage>;
export const ZListingResponse = z.object({ data: ZListingDetail, meta: ZSingleMeta });
export type TListingResponse = z.infer<typeof ZListingResponse>;
export const ZStatsResponse = z.object({ data: z.array(ZMarketStat), meta: ZCollectionMeta });
export type TStatsResponse = z.infer<typeof ZStatsResponse>;
export const ZTrendsResponse = z.object({ data: z.array(ZMarketTrend), meta: ZCollectionMeta });
export type TTrendsResponse = z.infer<typeof ZTrendsResponse>;
export const ZPingResponse = z.object({ data: ZPing, meta: ZSingleMeta });
export type TPingResponse = z.infer<typeof ZPingResponse>;
