/**
 * The `/api/v1` contract. Each route names, in its metadata, the endpoint (as counted in
 * usage) and the plans that include it; the server's plan check reads that metadata.
 */
import { initContract } from '@ts-rest/core';
import { ZProblem } from './errors.js';
import { RADIUS_DEFAULT_M } from './geo.js';
import { HISTORY_MIN_SAMPLE, HISTORY_RADIUS_DEFAULT_M, ZHistoryQuery, ZHistoryResponse } from './history.js';
import { type EndpointName, PING_RATE_PER_MINUTE, type PlanName, plansIncluding } from './plans.js';
import {
  EXPORT_LINES_PER_CALL,
  ZExportQuery,
  ZListing,
  ZListingParams,
  ZListingQuery,
  ZListingResponse,
  ZListingsPage,
  ZListingsQuery,
  ZPingQuery,
  ZPingResponse,
  ZStatsQuery,
  ZStatsResponse,
  ZTrendsQuery,
  ZTrendsResponse,
  TREND_MIN_SAMPLE,
} from './schemas.js';
import { savedSearchRoutes } from './saved-searches-routes.js';
import { webhookEndpointRoutes } from './webhooks-routes.js';
import { valuationBatchRoute } from './valuations-batch-route.js';
import {
  VALUATION_CONFIDENCE_LEVEL,
  VALUATION_FSD_BANDS,
  VALUATION_LABEL_PE10,
  VALUATION_MIN_COMPARABLES,
  pct,
  ZValuationQuery,
  ZValuationResponse,
} from './valuations.js';

const c = initContract();

export interface RouteMetadata {
  endpoint: EndpointName;
  plans: PlanName[];
  /** Counted in the monthly quota (every 2xx answer but ping's). */
  counted: boolean;
  /**
   * Under the plan's per-minute limit (every route but ping's, which shows that limit
   * without taking from it, under a limit of its own: `PING_RATE_PER_MINUTE`).
   */
  rateLimited: boolean;
  /** What the front door resolves for the route before its handler runs, once (none: nothing). */
  inputs?: RouteInputs;
  /** Largest body taken (bytes), when more than the writes' 16 kB. */
  bodyLimitBytes?: number;
  /** Takes its body as NDJSON too (`application/x-ndjson`): each line one item of this array field. */
  ndjsonField?: string;
}

/**
 * The resolved input a route declares: the front door checks and works it out once, with the
 * other parameters and before admission, and hands it to the handler typed. A route never
 * receives what another route would need.
 */
export interface RouteInputs {
  /**
   * Its query's `city` and `neighborhood` are checked against the data and the gazetteer (an
   * unknown one is a 400 with suggestions, in the same answer as every other mistake) and
   * its filters worked out as the database applies them. `lenient`: a `neighborhood` Mboa
   * does not know is kept rather than refused (a valuation values it at its city's level).
   */
  places: 'checked' | 'lenient';
  /** The radius, metres, of a `near` given without `radius_m`. */
  radiusDefault: number;
}

const meta = (endpoint: EndpointName, counted = true, inputs?: RouteInputs): RouteMetadata => ({
  endpoint,
  plans: plansIncluding(endpoint),
  counted,
  rateLimited: counted,
  ...(inputs ? { inputs } : {}),
});
/** A route of the listings' filters: its places checked, a `near` of RADIUS_DEFAULT_M. */
const FILTERED: RouteInputs = { places: 'checked', radiusDefault: RADIUS_DEFAULT_M };

const problems = {
  400: ZProblem,
  401: ZProblem,
  403: ZProblem,
  404: ZProblem,
  405: ZProblem,
  429: ZProblem,
  500: ZProblem,
  503: ZProblem,
};

export const contract = c.router(
  {
    listings: c.router({
      search: {
        method: 'GET',
        path: '/listings',
        query: ZListingsQuery,
        responses: { 200: ZListingsPage },
        summary: 'Search listings',
        description:
          'Paginated search with filters. Follow `meta.next_cursor` for the next page; `meta.total` is exact. Unknown parameters are refused.',
        metadata: meta('listings.search', true, FILTERED),
      },
      get: {
        method: 'GET',
        path: '/listings/:id',
        pathParams: ZListingParams,
        query: ZListingQuery,
        responses: { 200: ZListingResponse },
        summary: 'Get one listing',
        description:
          'Public fields of one listing, with its price history. Removed listings stay readable. `currency` is the only parameter; any other is refused.',
        metadata: meta('listings.get'),
      },
    }),
    market: c.router({
      stats: {
        method: 'GET',
        path: '/market/stats',
        query: ZStatsQuery,
        responses: { 200: ZStatsResponse },
        summary: 'Market statistics per city or neighbourhood',
        description:
          'Volume; mean, minimum, quartiles, median and maximum of price; mean, quartiles and median of price per m² (and how many listings have one); of active listings, per city (or per neighbourhood: one with `neighborhood`, every one of the city in one call with `group_by=neighborhood`) and purpose (and type with `type`, number of bedrooms with `bedrooms` or `group_by=bedrooms`), with the sample size of every row. Read from figures precomputed after every data load and periodically (`as_of`).',
        metadata: meta('market.stats', true, FILTERED),
      },
      trends: {
        method: 'GET',
        path: '/market/trends',
        query: ZTrendsQuery,
        responses: { 200: ZTrendsResponse },
        summary: 'Market trends over 30 days',
        description: `Per city, neighbourhood, type and purpose (and number of bedrooms with \`bedrooms\` or \`group_by=bedrooms\`): listings published in the last 30 days and their prices, with the change against the 30 days before. Each row carries the sample size of both periods; a change is null when either period has fewer than ${TREND_MIN_SAMPLE} listings.`,
        metadata: meta('market.trends', true, FILTERED),
      },
      history: {
        method: 'GET',
        path: '/market/history',
        query: ZHistoryQuery,
        responses: { 200: ZHistoryResponse },
        summary: 'Monthly market history of a city or quarter',
        description: [
          "One point per calendar month (UTC), oldest first, for `months` months ending with the last complete month: active listings at the month's end, listings published and removed (by outcome) during it, quartiles and median of the prices in effect at its end (from the price history), median price per m², median days on market of the listings removed, and the median's change against the same month a year before.",
          '',
          `**Small samples.** A figure resting on fewer than ${HISTORY_MIN_SAMPLE} listings is null, never a median of two adverts; every figure comes with the count it rests on.`,
          '',
          '**CSV.** With `Accept: text/csv` the answer is CSV (`text/csv; charset=utf-8`): a header row, then one line per month, `removed_listings` flattened to `removed_sold`, `removed_rented`, `removed_withdrawn`, null figures as empty fields. Counted like the JSON answer, which stays the default.',
          '',
          'Read from figures precomputed after every data load. Pro and Enterprise.',
        ].join('\n'),
        metadata: meta('market.history', true, { places: 'checked', radiusDefault: HISTORY_RADIUS_DEFAULT_M }),
      },
    }),
    exports: c.router({
      listings: {
        method: 'GET',
        path: '/exports/listings',
        query: ZExportQuery,
        responses: {
          200: c.otherResponse({ contentType: 'application/x-ndjson', body: ZListing }),
        },
        summary: 'Export listings in bulk (NDJSON)',
        description: [
          "Every listing matching the search's filters, streamed as NDJSON: one JSON object per line, each exactly a search result (a Listing), ordered by `id`, in constant memory whatever the size. Compressed (gzip or br) when `Accept-Encoding` allows.",
          '',
          `**Counting.** One call of the quota per started block of ${EXPORT_LINES_PER_CALL.toLocaleString('en-US')} lines: the first block is taken before the first line, each next one before its first line. Once the quota is used up mid-export the connection is cut, and the resumed request gets 429 \`quota_exceeded\`. An export of nothing costs one call.`,
          '',
          "**Resuming.** A complete export ends with the end of the body; a failure cuts the connection instead. To continue, call again with `after` = the `id` of the last complete line received: no line is lost or sent twice. The SDK's `exports.listings()` does this by itself.",
          '',
          "**Limits.** An export in flight is cut within seconds of its key's revocation or expiry, of its account's suspension or closure, or of a plan change that drops exports: the resumed request gets the refusal. A client that reads nothing for 30 s is cut too, and so is one that takes less than 64 kB in 30 s of the server waiting on it (a slot is held only while the reader keeps pace). One account streams at most half of a server's exports at once, and a server four; a further one gets 429 `rate_limited` with `Retry-After`, never charged.",
          '',
          'The quota is in the `X-Quota-*` headers (there is no `meta`). Enterprise only.',
        ].join('\n'),
        metadata: meta('exports.listings', true, FILTERED),
      },
    }),
    valuations: c.router({
      get: {
        method: 'GET',
        path: '/valuations',
        query: ZValuationQuery,
        responses: { 200: ZValuationResponse, 422: ZProblem },
        summary: 'Value a property from comparable adverts',
        description: `An estimate of the asking price (or asked rent) of one property, with a range holding the price with probability ${VALUATION_CONFIDENCE_LEVEL} (as measured on held-out adverts), a forecast standard deviation and a confidence band, the comparables it rests on (most similar first, each with the price it implies for the subject) and the method. Describe the subject (\`city\`, \`neighborhood\` or \`lat\`+\`lng\`, \`type\`, \`purpose\`, and what is known of it) or name a listing (\`listing_id\`). Mboa sees adverts, not deeds: \`basis\` is \`asking_prices\`. Fewer than ${VALUATION_MIN_COMPARABLES} usable comparables is a 422 \`insufficient_data\` naming what is missing. Right after an instance started, while it fits its model, a 503 \`valuations_warming_up\` with \`Retry-After\` (never charged). Enterprise only.\n\nAccuracy, measured on 50,000 generated adverts (a fifth held out, each valued from the rest): median absolute error 17.0 % (rents 16.0 %, sales 21.1 %) where a model knowing the generator's exact formula reaches 15.0 %, against 61.1 % for the quarter's median and 22.2 % for the quarter's median of the same type and bedrooms; 78.4 % of held-out prices inside the ${VALUATION_CONFIDENCE_LEVEL * 100} % range. \`npm run admin -- valuations evaluate\` measures it on the loaded data; docs/api.md has the table by purpose and type.\n\nOn real adverts (basis: asking rents of adverts, not deeds; run 2026-11-27): 724 distinct rent adverts of Douala and Yaoundé crawled from koutchoumi.com, cross-validated in 5 folds by distinct advert (\`valuations evaluate --feed\`): median absolute error 30.1 % (Douala 30.2 %, Yaoundé 28.4 %; furnished rents 47.7 %), 18.4 % within 10 % and 35.4 % within 20 %, all valued, against 54.5 % for the city's median, 40.0 % for the quarter's and 33.3 % for the quarter's median of the same bedrooms and furnishing. Such adverts state no surface: bedrooms, bathrooms, furnishing and quarter carry the estimate. The range is calibrated on held-out residuals per method, pool and city (split-conformal): ${pct(0.802)} of prices inside the ${VALUATION_CONFIDENCE_LEVEL * 100} % range (Douala ${pct(0.801)}, Yaoundé ${pct(0.82)}). \`confidence\` is a band of the calibrated fsd (\`high\` ≤ ${VALUATION_FSD_BANDS.high}, \`medium\` ≤ ${VALUATION_FSD_BANDS.medium}); the share of prices within 10 % of the estimate is ${pct(VALUATION_LABEL_PE10.high)} for \`high\`, ${pct(VALUATION_LABEL_PE10.medium)} for \`medium\` and ${pct(VALUATION_LABEL_PE10.low)} for \`low\` answers. docs/valuations.md has the tables.\n\nA point (\`lat\`, \`lng\`) outside the named city is a 400 saying so (and when \`lat\` and \`lng\` look swapped); a quarter the gazetteer lacks is valued at the city's level, its name echoed; a type with too few adverts is valued through the nearest type (\`valued_as_type\`) with a wider range.`,
        metadata: meta('valuations.get', true, { places: 'lenient', radiusDefault: RADIUS_DEFAULT_M }),
      },
      batch: valuationBatchRoute(meta),
    }),
    savedSearches: c.router(savedSearchRoutes(meta)),
    webhookEndpoints: c.router(webhookEndpointRoutes(meta)),
    ping: {
      method: 'GET',
      path: '/ping',
      query: ZPingQuery,
      responses: { 200: ZPingResponse },
      summary: 'Health and remaining quota',
      description: `Your quota and per-minute limit as they stand, in \`meta.quota\` and the headers. Authenticated, but never counted in the quota nor in the per-minute limit, and never refused by either: it answers even when they are used up (only more than ${PING_RATE_PER_MINUTE} pings a minute per account are refused, 429 \`rate_limited\`). Takes no parameters; any is refused.`,
      metadata: meta('ping', false),
    },
  },
  { pathPrefix: '/api/v1', strictStatusCodes: true, commonResponses: problems },
);
