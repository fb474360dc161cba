/**
 * The names the SDK gives to the contract's values: the public names its users import
 * (`Listing`, `ListingSearchParams`...), which must not change when the contract does.
 * Shapes and documentation come from the contract; only the names (and, for a schema
 * the contract does not describe, a one-line summary) are written here.
 *
 * A new route needs nothing here: its types are named from its key in the router
 * (`valuations.estimate` → `ValuationsEstimateParams`, `ValuationsEstimateResponse`).
 */
import type { ZodTypeAny } from 'zod';
import { LAND_TITLES, STANDINGS } from '../../contract/advert-terms.js';
import { CURRENCIES } from '../../contract/currency.js';
import { ERROR_CODE_NAMES, ZFieldError, ZProblem, ZProblemMeta } from '../../contract/errors.js';
import { PLAN_NAMES } from '../../contract/plans.js';
import { ZSavedSearch } from '../../contract/saved-searches.js';
import { ZWebhookEndpoint, ZWebhookEvent } from '../../contract/webhooks.js';
import * as S from '../../contract/schemas.js';

export interface NamedEnumSpec {
  name: string;
  values: readonly string[];
  /** What the type is (the contract describes the fields that use it, each in its own words). */
  summary: string;
}

/** String enums, recognised by their values wherever the contract spells them out. */
export const ENUMS: readonly NamedEnumSpec[] = [
  { name: 'PropertyType', values: S.PROPERTY_TYPES, summary: 'Kind of property.' },
  { name: 'Purpose', values: S.PURPOSES, summary: 'Purpose of a listing. Rent prices are per month.' },
  {
    name: 'ListingStatus',
    values: S.LISTING_STATUSES,
    summary: '`active` while on the market; the others once removed (`removed_at` is then set).',
  },
  {
    name: 'LandTitle',
    values: LAND_TITLES,
    summary: 'Land title (titre foncier) of a property: issued, none, procedure under way, or not said.',
  },
  {
    name: 'Standing',
    values: STANDINGS,
    summary: 'The standing an advert claims in its words: upscale, ordinary modern, or basic.',
  },
  { name: 'ListingSort', values: S.LISTING_SORTS, summary: 'Order of search results; ties are broken by `id`. `-` means descending.' },
  {
    name: 'Currency',
    values: CURRENCIES,
    summary: 'Currency of the amounts in an answer: `XAF` (whole francs) or `EUR`, at the fixed parity 655.957 XAF = 1 EUR.',
  },
  { name: 'PlanName', values: PLAN_NAMES, summary: 'A plan, as sold.' },
  { name: 'ErrorCode', values: ERROR_CODE_NAMES, summary: 'A stable, machine-readable problem code sent by the API in error bodies.' },
];

export interface NamedObjectSpec {
  name: string;
  schema: ZodTypeAny;
  summary: string;
}

/** Object schemas the SDK names; any other object is written out where it is used. */
export const OBJECTS: readonly NamedObjectSpec[] = [
  { name: 'Listing', schema: S.ZListing, summary: "A listing's public fields, as returned by the search and the bulk export." },
  { name: 'PriceChange', schema: S.ZPriceChange, summary: 'One price a listing has had.' },
  {
    name: 'ListingDetail',
    schema: S.ZListingDetail,
    summary: 'A listing as returned by `listings.get(id)`: the search fields and its price history.',
  },
  { name: 'Quota', schema: S.ZQuota, summary: "The account's monthly quota, as it stands after the call that returned it." },
  { name: 'SingleMeta', schema: S.ZSingleMeta, summary: '`meta` of a single object (listing detail, ping).' },
  { name: 'PageMeta', schema: S.ZPageMeta, summary: '`meta` of a page of listings.' },
  { name: 'CollectionMeta', schema: S.ZCollectionMeta, summary: '`meta` of the market collections, which are not paginated.' },
  {
    name: 'MarketStat',
    schema: S.ZMarketStat,
    summary: 'Figures over the active listings of one city (or one neighbourhood) and purpose, for every type together or one type.',
  },
  {
    name: 'MarketTrend',
    schema: S.ZMarketTrend,
    summary: 'Listings published over the last 30 days in one neighbourhood, for one type and purpose.',
  },
  { name: 'Ping', schema: S.ZPing, summary: 'Health of the API.' },
  { name: 'WebhookEndpoint', schema: ZWebhookEndpoint, summary: 'A webhook endpoint (its secret is shown only when created or rotated).' },
  {
    name: 'WebhookEvent',
    schema: ZWebhookEvent,
    summary: 'An event as delivered to a webhook endpoint: verify it with `webhooks.unwrap()`.',
  },
  { name: 'SavedSearch', schema: ZSavedSearch, summary: 'A saved search: the filters of `GET /listings` under a name.' },
  { name: 'FieldError', schema: ZFieldError, summary: 'One field at fault in a `validation_error`.' },
  { name: 'ProblemMeta', schema: ZProblemMeta, summary: '`meta` of an error body.' },
  { name: 'Problem', schema: ZProblem, summary: 'An RFC 9457 problem details body, as the API sends for every error.' },
];

export interface RouteNames {
  /** The query, as the SDK method takes it. */
  params?: string;
  /** The path parameters. */
  pathParams?: string;
  /** The 2xx JSON body. */
  response?: string;
}

/** The routes whose SDK names predate the generator; the others are named by `routeNames`. */
const ROUTES: Readonly<Record<string, RouteNames>> = {
  'listings.search': { params: 'ListingSearchParams', response: 'ListingSearchResponse' },
  'listings.get': { params: 'ListingGetParams', pathParams: 'ListingGetPathParams', response: 'ListingResponse' },
  'exports.listings': { params: 'ListingExportParams' },
};

const pascal = (key: string) =>
  key
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** The SDK's names for a route's types, from its key in the router (`market.stats` → `MarketStatsParams`...). */
export function routeNames(key: string): Required<RouteNames> {
  const base = pascal(key);
  return { params: `${base}Params`, pathParams: `${base}PathParams`, response: `${base}Response`, ...ROUTES[key] };
}

/** Query fields typed by the places the SDK knows (editors suggest them; any string still passes). */
export const INPUT_FIELDS: Readonly<Record<string, string>> = { city: 'City', neighborhood: 'Neighborhood' };
