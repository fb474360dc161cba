/**
 * The API's values, as plain TypeScript. They mirror the contract's zod schemas
 * (`contract/schemas.ts`, `contract/errors.ts`) field for field: written out by hand so
 * the published `.d.ts` needs neither zod nor ts-rest, and checked against the inferred
 * contract types by `test/types.test.ts`, so the two cannot drift apart.
 */

/** Kind of property. */
export type PropertyType =
  | 'villa'
  | 'house'
  | 'apartment'
  | 'studio'
  | 'duplex'
  | 'room'
  | 'land'
  | 'office'
  | 'shop'
  | 'warehouse';

/** Purpose of a listing. Rent prices are per month. */
export type Purpose = 'sale' | 'rent' | 'furnished_rent';

/** `active` while on the market; the others once removed (`removed_at` is then set). */
export type ListingStatus = 'active' | 'withdrawn' | 'sold' | 'rented';

/** Order of search results; ties are broken by `id`. `-` means descending. */
export type ListingSort = '-listed_at' | 'listed_at' | 'price' | '-price' | 'updated_at';

/** A plan, as sold. */
export type PlanName = 'starter' | 'pro' | 'enterprise';

/** A stable, machine-readable problem code sent by the API in error bodies. */
export type ErrorCode =
  | 'validation_error'
  | 'invalid_cursor'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'plan_forbidden'
  | 'account_suspended'
  | 'not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'quota_exceeded'
  | 'internal_error'
  | 'unavailable';

/* ------------------------------------------------------------------ listings */

/** A listing's public fields, as returned by the search. Money is an integer number of XAF. */
export interface Listing {
  /** Stable, opaque identifier (`lst_` and 20 characters). */
  id: string;
  /** Title as published. */
  title: string;
  /** Integer amount in `currency` (XAF has no minor unit). Per month for rent purposes. */
  price: number;
  /** ISO 4217 code: Central African CFA franc. */
  currency: 'XAF';
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
  /** Price divided by surface, rounded, in XAF per m²; null when the surface is unknown. */
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
  /** Price from that date, in XAF. */
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

/** Figures over the active listings of one city (and purpose, and type when asked for). */
export interface MarketStat {
  /** City. */
  city: string;
  /** Purpose aggregated: sale prices and monthly rents are never mixed. */
  purpose: Purpose;
  /** Property type, or null when every type is aggregated. */
  type: PropertyType | null;
  /** Active listings aggregated. */
  volume: number;
  /** Mean price, XAF. */
  avg_price: number;
  /** Lowest price, XAF. */
  min_price: number;
  /** Highest price, XAF. */
  max_price: number;
  /** Median price, XAF. */
  median_price: number;
  /** Mean price per m², XAF; null when no surface is known. */
  avg_price_per_m2: number | null;
  /** Currency of every amount. */
  currency: 'XAF';
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
  /** Mean price of those listings, XAF; null when none. */
  avg_price: number | null;
  /** Median price of those listings, XAF; null when none. */
  median_price: number | null;
  /** Mean price per m², XAF; null when none. */
  avg_price_per_m2: number | null;
  /** Change of `avg_price` against the previous 30 days, in %; null when that period had none. */
  avg_price_change_pct: number | null;
  /** Change of `new_listings` against the previous 30 days, in %; null when that period had none. */
  new_listings_change_pct: number | null;
  /** Start of the 30-day period, inclusive (ISO 8601, UTC). */
  period_start: string;
  /** End of the period, exclusive (ISO 8601, UTC). */
  period_end: string;
  /** Currency of every amount. */
  currency: 'XAF';
}

/** Body of `GET /api/v1/market/stats`. */
export interface MarketStatsResponse {
  /** One row per city and purpose (and type when filtered by type). */
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
  city?: string | undefined;
  /** Neighbourhood, matched without regard to case or accents. */
  neighborhood?: string | undefined;
  /** Kind of property. */
  type?: PropertyType | undefined;
  /** Purpose of the listing. */
  purpose?: Purpose | undefined;
  /** Minimum price, XAF, inclusive. */
  min_price?: number | undefined;
  /** Maximum price, XAF, inclusive. */
  max_price?: number | undefined;
  /** Minimum surface, m², inclusive. */
  min_surface?: number | undefined;
  /** Maximum surface, m², inclusive. */
  max_surface?: number | undefined;
  /** Minimum number of bedrooms. */
  min_bedrooms?: number | undefined;
  /** Minimum number of bathrooms. */
  min_bathrooms?: number | undefined;
  /** Only listings published at or after this ISO 8601 date (`2026-10-01`) or instant. */
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
   * filters and sort it was issued for (otherwise `InvalidCursorError`).
   */
  cursor?: string | undefined;
}

/** Filters of `market.stats`. */
export interface MarketStatsParams {
  /** Only this city (accent- and case-insensitive). All cities when absent. */
  city?: string | undefined;
  /** Only this purpose. One row per purpose when absent. */
  purpose?: Purpose | undefined;
  /** Only this property type. Every type together when absent (`type` null). */
  type?: PropertyType | undefined;
}

/** Filters of `market.trends`. */
export interface MarketTrendsParams {
  /** Only this city (accent- and case-insensitive). */
  city?: string | undefined;
  /** Only this neighbourhood (accent- and case-insensitive). */
  neighborhood?: string | undefined;
  /** Only this property type. */
  type?: PropertyType | undefined;
  /** Only this purpose. */
  purpose?: Purpose | undefined;
}

/* ------------------------------------------------------------------ errors */

/** One field at fault in a `validation_error`. */
export interface FieldError {
  /** Parameter at fault, e.g. `limit`. */
  path: string;
  /** What is wrong with it. */
  message: string;
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
