/**
 * The API's values, as plain TypeScript. They mirror the contract's zod schemas
 * (`contract/schemas.ts`, `contract/errors.ts`) field for field: written out by hand so
 * the published `.d.ts` needs neither zod nor ts-rest, and checked against the inferred
 * contract types by `test/types.test.ts`, so the two cannot drift apart.
 */

import type { City } from './places.js';

/** Kind of property. */
export type PropertyType = 'villa' | 'house' | 'apartment' | 'studio' | 'duplex' | 'room' | 'land' | 'office' | 'shop' | 'warehouse';

/** Purpose of a listing. Rent prices are per month. */
export type Purpose = 'sale' | 'rent' | 'furnished_rent';

/** `active` while on the market; the others once removed (`removed_at` is then set). */
export type ListingStatus = 'active' | 'withdrawn' | 'sold' | 'rented';

/** Order of search results; ties are broken by `id`. `-` means descending. */
export type ListingSort = '-listed_at' | 'listed_at' | 'price' | '-price' | 'updated_at';

/**
 * Currency of the amounts in an answer: `XAF` (default, whole francs) or `EUR`, at the
 * fixed parity 655.957 XAF = 1 EUR, each amount rounded half up to the cent.
 */
export type Currency = 'XAF' | 'EUR';

/** A plan, as sold. */
export type PlanName = 'starter' | 'pro' | 'enterprise';

/** A stable, machine-readable problem code sent by the API in error bodies. */
export type ErrorCode =
  | 'validation_error'
  | 'malformed_request'
  | 'invalid_cursor'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'plan_forbidden'
  | 'account_suspended'
  | 'email_unverified'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'headers_too_large'
  | 'internal_error'
  | 'unavailable';

/* ------------------------------------------------------------------ listings */

/** A listing's public fields, as returned by the search. Amounts are in `currency`: whole XAF, or EUR to the cent. */
export interface Listing {
  /** Stable, opaque identifier (`lst_` and 20 characters). */
  id: string;
  /** Title as published. */
  title: string;
  /** Price in `currency` (whole XAF, or EUR to the cent). Per month for rent purposes. */
  price: number;
  /** Currency of `price` and `price_per_m2`, as asked with the `currency` parameter (XAF by default). */
  currency: Currency;
  /** City. */
  city: string;
  /** District within the city. */
  neighborhood: string;
  /** Area in square metres (m²). */
  surface: number;
  /** Number of bedrooms (0 for land and commercial premises). */
  bedrooms: number;
  /** Number of bathrooms (0 for land). */
  bathrooms: number;
  /** Kind of property. */
  type: PropertyType;
  /** Purpose of the listing. */
  purpose: Purpose;
  /** Price divided by surface (rounded to the franc, then converted), per m²; null when the surface is unknown. */
  price_per_m2: number | null;
  /** Market status; anything but `active` means the listing was removed. */
  status: ListingStatus;
  /** When the listing was first published (ISO 8601, UTC). */
  listed_at: string;
  /** Last change of any public field, status included (ISO 8601, UTC). */
  updated_at: string;
  /** When the listing left the market (ISO 8601, UTC), or null while active. */
  removed_at: string | null;
  /** Whole days from `listed_at` to removal, or to now while active. */
  days_on_market: number;
}

/** One price a listing has had. */
export interface PriceChange {
  /** When this price took effect (ISO 8601, UTC). */
  date: string;
  /** Price from that date, in the listing's `currency`. */
  price: number;
}

/** A listing as returned by `listings.get(id)`: the search fields and its price history. */
export interface ListingDetail extends Listing {
  /** Every price the listing has had, oldest first; the last entry is the current price. */
  price_history: PriceChange[];
}

/* ------------------------------------------------------------------ envelope */

/** The account's monthly quota, as it stands after the call that returned it. */
export interface Quota {
  /** The account's plan. */
  plan: PlanName;
  /** Calls included this month; null when unlimited (Enterprise). */
  limit: number | null;
  /** Calls counted this month, this one included. */
  used: number;
  /** Calls left this month; null when unlimited. */
  remaining: number | null;
  /** When the count returns to zero: 00:00 UTC on the 1st of next month (ISO 8601). */
  resets_at: string;
}

/** `meta` of a single object (listing detail, ping). */
export interface SingleMeta {
  /** The quota after this call. */
  quota: Quota;
  /** Identifier of this request (equals the `X-Request-Id` header): quote it to support. */
  request_id: string;
}

/** `meta` of a page of listings. */
export interface PageMeta {
  /** Exact number of records matching the filters. */
  total: number;
  /** Records in this page. */
  returned: number;
  /** Page size applied. */
  limit: number;
  /**
   * Pass as `cursor` (with the same filters and sort) to get the next page; null on the
   * last page. Save it to resume an interrupted walk later.
   */
  next_cursor: string | null;
  /** Whether another page follows. */
  has_more: boolean;
  /** The quota after this call. */
  quota: Quota;
  /** Identifier of this request (equals the `X-Request-Id` header). */
  request_id: string;
}

/** `meta` of the market collections, which are not paginated. */
export interface CollectionMeta {
  /** Number of rows returned. */
  total: number;
  /** Rows in this response. */
  returned: number;
  /** The quota after this call. */
  quota: Quota;
  /** Identifier of this request (equals the `X-Request-Id` header). */
  request_id: string;
}

/** Body of `GET /api/v1/listings`: one page of listings. */
export interface ListingSearchResponse {
  /** The listings of this page. */
  data: Listing[];
  /** Pagination, quota and request id. */
  meta: PageMeta;
}

/** Body of `GET /api/v1/listings/{id}`. */
export interface ListingResponse {
  /** The listing, with its price history. */
  data: ListingDetail;
  /** Quota and request id. */
  meta: SingleMeta;
}

/* ------------------------------------------------------------------ market */

/**
 * Figures over the active listings of one city (or one neighbourhood) and purpose, for
 * every type together or one type. Amounts in `currency`; percentiles are continuous
 * (interpolated), rounded to the franc before any conversion.
 */
export interface MarketStat {
  /** City. */
  city: string;
  /** Neighbourhood, or null when the row covers the whole city (no `neighborhood` asked). */
  neighborhood: string | null;
  /** Purpose aggregated: sale prices and monthly rents are never mixed. */
  purpose: Purpose;
  /** Property type, or null when every type is aggregated. */
  type: PropertyType | null;
  /** Active listings aggregated. */
  volume: number;
  /** Listings every price figure of this row rests on (equal to `volume`): read small samples with care. */
  sample_size: number;
  /** Mean price. */
  avg_price: number;
  /** Lowest price. */
  min_price: number;
  /** First quartile of price: a quarter of the listings cost less. */
  p25_price: number;
  /** Median price. */
  median_price: number;
  /** Third quartile of price: a quarter of the listings cost more. */
  p75_price: number;
  /** Highest price. */
  max_price: number;
  /** Listings with a known price per m², which the price-per-m² figures rest on. */
  price_per_m2_sample_size: number;
  /** Mean price per m²; null when no listing has one. */
  avg_price_per_m2: number | null;
  /** First quartile of price per m². */
  p25_price_per_m2: number | null;
  /** Median price per m². */
  median_price_per_m2: number | null;
  /** Third quartile of price per m². */
  p75_price_per_m2: number | null;
  /** Currency of every amount. */
  currency: Currency;
  /** When these figures were computed (ISO 8601, UTC). */
  as_of: string;
}

/** Listings published over the last 30 days in one neighbourhood, for one type and purpose. */
export interface MarketTrend {
  /** City. */
  city: string;
  /** Neighbourhood. */
  neighborhood: string;
  /** Property type. */
  type: PropertyType;
  /** Purpose. */
  purpose: Purpose;
  /** Listings published in the period. */
  new_listings: number;
  /** Listings the figures of the period rest on (equal to `new_listings`). */
  sample_size: number;
  /** Listings published in the 30 days before: what the changes compare with. */
  previous_sample_size: number;
  /** Mean price of the listings of the period; null when none. */
  avg_price: number | null;
  /** Median price of those listings; null when none. */
  median_price: number | null;
  /** Listings of the period with a known price per m². */
  price_per_m2_sample_size: number;
  /** Mean price per m² of those listings; null when none. */
  avg_price_per_m2: number | null;
  /** Change of `avg_price` against the previous 30 days, in %; null when either period has fewer than 5 listings. */
  avg_price_change_pct: number | null;
  /** Change of `new_listings` against the previous 30 days, in %; null when either period has fewer than 5 listings. */
  new_listings_change_pct: number | null;
  /** Start of the 30-day period, inclusive (ISO 8601, UTC). */
  period_start: string;
  /** End of the period, exclusive (ISO 8601, UTC). */
  period_end: string;
  /** Currency of every amount. */
  currency: Currency;
}

/** Body of `GET /api/v1/market/stats`. */
export interface MarketStatsResponse {
  /** One row per city (or neighbourhood, when asked for) and purpose, and type when filtered by type. */
  data: MarketStat[];
  /** Row count, quota and request id. */
  meta: CollectionMeta;
}

/** Body of `GET /api/v1/market/trends`. */
export interface MarketTrendsResponse {
  /** One row per city, neighbourhood, type and purpose. */
  data: MarketTrend[];
  /** Row count, quota and request id. */
  meta: CollectionMeta;
}

/** Health of the API. */
export interface Ping {
  /** The API and its database answer. */
  status: 'ok';
  /** Server time (ISO 8601, UTC). */
  time: string;
  /** API build version. */
  version: string;
}

/** Body of `GET /api/v1/ping`. */
export interface PingResponse {
  /** Health of the API. */
  data: Ping;
  /** Quota (ping itself is never counted) and request id. */
  meta: SingleMeta;
}

/* ------------------------------------------------------------------ parameters */

/**
 * Filters, sort and paging of `listings.search`. City and neighbourhood match without
 * regard to case or accents (`yaounde` finds Yaoundé). Unknown parameters are refused
 * with a `ValidationError`, so a typo never silently widens a search.
 */
export interface ListingSearchParams {
  /** City, matched without regard to case or accents. */
  city?: City | undefined;
  /** Neighbourhood, matched without regard to case or accents. */
  neighborhood?: string | undefined;
  /** Kind of property. */
  type?: PropertyType | undefined;
  /** Purpose of the listing. */
  purpose?: Purpose | undefined;
  /** Minimum price, inclusive, in `currency` (whole XAF by default; whole euros with `currency: 'EUR'`, compared with the EUR price shown). */
  min_price?: number | undefined;
  /** Maximum price, inclusive, in `currency` (as `min_price`). */
  max_price?: number | undefined;
  /** Minimum surface, m², inclusive. */
  min_surface?: number | undefined;
  /** Maximum surface, m², inclusive. */
  max_surface?: number | undefined;
  /** Minimum number of bedrooms. */
  min_bedrooms?: number | undefined;
  /** Minimum number of bathrooms. */
  min_bathrooms?: number | undefined;
  /**
   * Only listings published at or after this date (`2026-10-01`, midnight UTC) or timestamp
   * with `Z` or a UTC offset (`2026-10-01T08:30:00+01:00`); years 1970 to 2100.
   */
  listed_after?: string | undefined;
  /**
   * Only listings changed strictly after this ISO 8601 instant. With `sort: 'updated_at'`
   * and `status: 'any'` this is the incremental-sync feed, removals included.
   */
  updated_after?: string | undefined;
  /** `active` (default), one removed status, or `any` for every listing, removed ones included. */
  status?: ListingStatus | 'any' | undefined;
  /** Order of results (default `-listed_at`, newest first). */
  sort?: ListingSort | undefined;
  /** Page size, 1 to 200 (default 20). Iteration fetches pages of this size. */
  limit?: number | undefined;
  /**
   * `meta.next_cursor` of a previous page, to resume from there. Valid only with the
   * filters and sort it was issued for (otherwise `InvalidCursorError`); `currency` may change.
   */
  cursor?: string | undefined;
  /** Currency of the amounts in the answer (default `XAF`). */
  currency?: Currency | undefined;
}

/** Parameters of `listings.get`. */
export interface ListingGetParams {
  /** Currency of the amounts in the answer, price history included (default `XAF`). */
  currency?: Currency | undefined;
}

/** Filters of `market.stats`. */
export interface MarketStatsParams {
  /** Only this city (accent- and case-insensitive). All cities when absent. */
  city?: City | undefined;
  /** Only this neighbourhood (of `city` when both are given): rows per neighbourhood instead of per city. */
  neighborhood?: string | undefined;
  /** Only this purpose. One row per purpose when absent. */
  purpose?: Purpose | undefined;
  /** Only this property type. Every type together when absent (`type` null). */
  type?: PropertyType | undefined;
  /** Currency of the amounts in the answer (default `XAF`). */
  currency?: Currency | undefined;
}

/** Filters of `market.trends`. */
export interface MarketTrendsParams {
  /** Only this city (accent- and case-insensitive). */
  city?: City | undefined;
  /** Only this neighbourhood (accent- and case-insensitive). */
  neighborhood?: string | undefined;
  /** Only this property type. */
  type?: PropertyType | undefined;
  /** Only this purpose. */
  purpose?: Purpose | undefined;
  /** Currency of the amounts in the answer (default `XAF`). */
  currency?: Currency | undefined;
}

/* ------------------------------------------------------------------ errors */

/** One field at fault in a `validation_error`. */
export interface FieldError {
  /** Parameter at fault, e.g. `limit`. */
  path: string;
  /** What is wrong with it. */
  message: string;
  /** For an unknown city or neighbourhood: the closest known names, closest first. */
  suggestions?: string[];
}

/** `meta` of an error body. */
export interface ProblemMeta {
  /** Identifier of this request (equals the `X-Request-Id` header). */
  request_id: string;
  /** The quota, when the caller was identified (errors are never charged). */
  quota?: Quota;
}

/** An RFC 9457 problem details body, as the API sends for every error. */
export interface Problem {
  /** URI of the documentation of this code. */
  type: string;
  /** Short summary of the code. */
  title: string;
  /** HTTP status. */
  status: number;
  /** What happened, for a human. */
  detail: string;
  /** Stable machine-readable code. */
  code: ErrorCode;
  /** Field errors (`validation_error` only). */
  errors?: FieldError[];
  /** Request id and quota. */
  meta: ProblemMeta;
}
