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
export type { Fetch, RequestOptions } from './core/http.js';
export { CursorPage, PagePromise, type ToArrayOptions } from './core/pagination.js';
export type { QuotaListener, QuotaWarningListener } from './core/quota.js';
export {
  MboaError,
  APIError,
  BadRequestError,
  ValidationError,
  InvalidCursorError,
  AuthenticationError,
  PermissionDeniedError,
  PlanForbiddenError,
  AccountSuspendedError,
  NotFoundError,
  RateLimitError,
  QuotaExceededError,
  ServerError,
  ConnectionError,
  TimeoutError,
  RequestAbortedError,
  type ClientErrorCode,
} from './core/errors.js';
export type { Listings } from './resources/listings.js';
export type { Market } from './resources/market.js';
export type * from './types.js';
export { VERSION } from './version.js';
