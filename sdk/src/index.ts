/**
 * `@mboa/sdk`: the official client of the Mboa real estate data API (Cameroon).
 *
 * ```ts
 * import { Mboa } from '@mboa/sdk';
 * const mboa = new Mboa(); // key from MBOA_API_KEY
 * for await (const listing of mboa.listings.search({ city: 'Douala' })) console.log(listing.title);
 * ```
 */
export { Mboa, DEFAULT_BASE_URL, DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type ClientOptions } from './client.js';
export { APIPromise, type ResponseInfo, type WithResponse } from './core/api-promise.js';
export type { AppInfo, ExtraHeaders } from './core/headers.js';
export type { Fetch, RequestOptions } from './core/http.js';
export type { LogDetails, LogLevel, Logger } from './core/logger.js';
export { CursorPage, PagePromise, type ToArrayOptions } from './core/pagination.js';
export type { QuotaListener, QuotaWarningListener } from './core/quota.js';
export type { QuotaHeaders } from './core/quota-headers.js';
export {
  MboaError,
  APIError,
  BadRequestError,
  MalformedRequestError,
  ValidationError,
  InvalidCursorError,
  AuthenticationError,
  MissingApiKeyError,
  InvalidApiKeyError,
  PermissionDeniedError,
  PlanForbiddenError,
  AccountSuspendedError,
  EmailUnverifiedError,
  PlanLimitReachedError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  NotFoundError,
  InsufficientDataError,
  MethodNotAllowedError,
  RequestTimeoutError,
  RateLimitError,
  QuotaExceededError,
  HeadersTooLargeError,
  ServerError,
  InternalServerError,
  ServiceUnavailableError,
  ValuationsWarmingUpError,
  ERROR_CLASSES,
  type APIErrorClass,
  ConnectionError,
  TimeoutError,
  RequestAbortedError,
  type ClientErrorCode,
} from './core/errors.js';
export type { Exports } from './resources/exports.js';
export { ListingExport } from './resources/exports.js';
export type { Listings } from './resources/listings.js';
export type { HistoryOptions, Market } from './resources/market.js';
export type { SavedSearches, SavedSearchFilters } from './resources/saved-searches.js';
export type { WebhookEndpoints } from './resources/webhook-endpoints.js';
export { webhooks, WebhookVerificationError, type WebhookHeaders, type Webhooks } from './resources/webhooks.js';
export type { ValuationBatchItem, ValuationBatchResult, Valuations } from './resources/valuations.js';
export { VALUATION_BATCH_SIZE } from './resources/valuations.js';
export type * from './types.js';
export type * from './export-types.js';
export type * from './places.js';
export { VERSION } from './version.js';
