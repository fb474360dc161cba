/** The `Mboa` client: options, resources, quota. */
import type { APIPromise } from './core/api-promise.js';
import { readEnv } from './core/env.js';
import { MboaError } from './core/errors.js';
import { type AppInfo, type ExtraHeaders, checkHeaders, userAgent } from './core/headers.js';
import { type Fetch, HttpCore, type RequestOptions } from './core/http.js';
import { type LogLevel, type Logger, createLog } from './core/logger.js';
import { type QuotaListener, QuotaTracker, type QuotaWarningListener, warnOnConsole } from './core/quota.js';
import { Exports } from './resources/exports.js';
import { Listings } from './resources/listings.js';
import { Market } from './resources/market.js';
import { SavedSearches } from './resources/saved-searches.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';
import { type Webhooks, webhooks } from './resources/webhooks.js';
import { Valuations } from './resources/valuations.js';
import type { PingResponse, Quota } from './types.js';

/** Where the client sends requests when neither `baseUrl` nor `MBOA_BASE_URL` says otherwise: the production API. */
export const DEFAULT_BASE_URL = 'https://api.mboa.cm';
/** Milliseconds each attempt may take by default. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Retries of a failed call by default (so up to 3 attempts). */
export const DEFAULT_MAX_RETRIES = 2;

/** Options of `new Mboa(options)`. Every one is optional. */
export interface ClientOptions {
  /**
   * Your API key (`mboa_live_...`), from the dashboard. Defaults to the `MBOA_API_KEY`
   * environment variable. Keep it on your servers: it bills your account.
   */
  apiKey?: string | undefined;
  /**
   * Origin of the API, without `/api/v1`. Defaults to the `MBOA_BASE_URL` environment
   * variable, else the production API, `https://api.mboa.cm`. For a local server:
   * `http://localhost:3000`.
   */
  baseUrl?: string | undefined;
  /** Milliseconds to wait for each attempt's answer (default 60 000). A timed-out attempt is retried. */
  timeout?: number | undefined;
  /**
   * Retries after a connection error, a timeout, a 429 `rate_limited` or a 5xx (default 2).
   * `quota_exceeded` and other 4xx answers are never retried. 0 disables retries.
   */
  maxRetries?: number | undefined;
  /**
   * A `fetch` to use instead of the global one (for a proxy agent, logging, tests).
   * Without it the global `fetch` is looked up at each call, never captured early.
   */
  fetch?: Fetch | undefined;
  /** Called with the quota after each answer that reports it, errors included. */
  onQuota?: QuotaListener | undefined;
  /**
   * Warn once per quota month when `used / limit` reaches this fraction, e.g. `0.9`.
   * Unlimited plans (Enterprise) never warn. Off by default.
   */
  quotaWarningAt?: number | undefined;
  /** How to warn when `quotaWarningAt` is reached (default: one `console.warn` line). */
  onQuotaWarning?: QuotaWarningListener | undefined;
  /**
   * Headers sent with every request, e.g. `{ 'X-Team': 'valuation' }`. A call's own
   * `headers` option goes over them (`null` there removes one for that call). They may
   * replace `Accept` and `User-Agent`, never `X-API-Key` (use `apiKey`).
   */
  defaultHeaders?: ExtraHeaders | undefined;
  /**
   * Your application, added to the `User-Agent` of every request: `{ name: 'loan-valuer',
   * version: '1.2.0' }` sends `mboa-sdk-js/0.1.0 loan-valuer/1.2.0`, so Mboa support can
   * tell your calls apart. Not sent from browsers, which set their own `User-Agent`.
   */
  appInfo?: AppInfo | undefined;
  /**
   * `'debug'` logs one line per request (method, URL, status, request id, duration,
   * attempt), per retry and per export resume; `'off'` logs nothing. Defaults to the
   * `MBOA_LOG` environment variable (`MBOA_LOG=debug`), else `'off'`. The API key and
   * request headers are never logged.
   */
  logLevel?: LogLevel | undefined;
  /** Where debug lines go (default `console`): anything with a `debug(message, details)` method. */
  logger?: Logger | undefined;
}

/**
 * Client of the Mboa real estate data API.
 *
 * ```ts
 * import { Mboa } from '@mboa/sdk';
 * const mboa = new Mboa({ apiKey: process.env.MBOA_API_KEY, baseUrl: 'https://api.example.cm' });
 * for await (const listing of mboa.listings.search({ city: 'Douala' })) console.log(listing.title);
 * console.log(mboa.quota?.remaining);
 * ```
 */
export class Mboa {
  /** Listing search (auto-paginating) and detail. */
  readonly listings: Listings;
  /** Market statistics and trends. */
  readonly market: Market;
  /** Valuations of one property from comparable adverts (Enterprise). */
  readonly valuations: Valuations;
  /** Bulk exports (Enterprise plan): every listing of a search in one resumable stream. */
  readonly exports: Exports;
  /** Saved searches (Pro and Enterprise). */
  readonly savedSearches: SavedSearches;
  /** Webhook endpoints (Pro and Enterprise). */
  readonly webhookEndpoints: WebhookEndpoints;
  /** Verifying deliveries: `verify(body, headers, secret)`, `unwrap(body, headers, secret)`. */
  readonly webhooks: Webhooks = webhooks;
  /** Origin the client calls, without `/api/v1`. */
  readonly baseUrl: string;
  /** Milliseconds each attempt may take, unless a call says otherwise. */
  readonly timeout: number;
  /** Retries of a failed call, unless a call says otherwise. */
  readonly maxRetries: number;

  readonly #http: HttpCore;
  readonly #quota: QuotaTracker;

  /**
   * @throws {MboaError} `configuration_error` when no API key is given nor in `MBOA_API_KEY`,
   * or when an option is out of range.
   */
  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? readEnv('MBOA_API_KEY');
    if (typeof apiKey !== 'string' || apiKey.trim() === '') {
      throw new MboaError(
        'No API key: pass `new Mboa({ apiKey })` or set the MBOA_API_KEY environment variable. Keys are created in the Mboa dashboard.',
        { code: 'configuration_error' },
      );
    }
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? readEnv('MBOA_BASE_URL') ?? DEFAULT_BASE_URL);
    this.timeout = checkNumber('timeout', options.timeout ?? DEFAULT_TIMEOUT_MS, 1);
    this.maxRetries = checkNumber('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES, 0, true);
    this.#quota = new QuotaTracker(options.onQuota, options.quotaWarningAt, options.onQuotaWarning ?? warnOnConsole);
    this.#http = new HttpCore({
      apiKey: apiKey.trim(),
      baseUrl: this.baseUrl,
      timeout: this.timeout,
      maxRetries: this.maxRetries,
      fetch: options.fetch,
      quota: this.#quota,
      defaultHeaders: checkHeaders(options.defaultHeaders, 'defaultHeaders', 'configuration_error'),
      userAgent: userAgent(options.appInfo),
      log: createLog(options.logLevel, options.logger),
    });
    this.listings = new Listings(this.#http);
    this.market = new Market(this.#http);
    this.valuations = new Valuations(this.#http);
    this.exports = new Exports(this.#http);
    this.savedSearches = new SavedSearches(this.#http);
    this.webhookEndpoints = new WebhookEndpoints(this.#http);
  }

  /**
   * The quota reported by the latest answer (plan, limit, used, remaining, resets_at),
   * or undefined before the first call. `ping()` reads it without spending a call.
   */
  get quota(): Quota | undefined {
    return this.#quota.current;
  }

  /**
   * Health of the API and your quota (`GET /api/v1/ping`). Never counted in the quota,
   * so it is the free way to read how many calls are left this month.
   * `.withResponse()` adds the status, headers and request id.
   */
  ping(options?: RequestOptions): APIPromise<PingResponse> {
    return this.#http.get<PingResponse>('/ping', undefined, options);
  }
}

/** Accepts `https://host`, `https://host/` and `https://host/api/v1`: the client adds `/api/v1` itself. */
function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MboaError(`baseUrl must be an absolute http(s) URL such as ${DEFAULT_BASE_URL}; got "${raw}".`, {
      code: 'configuration_error',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MboaError(`baseUrl must use http or https; got "${raw}".`, { code: 'configuration_error' });
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

function checkNumber(name: string, value: unknown, min: number, integer = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new MboaError(`${name} must be ${integer ? 'a whole number' : 'a number'} of at least ${min}; got ${String(value)}.`, {
      code: 'configuration_error',
    });
  }
  return value;
}
