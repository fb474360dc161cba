/**
 * The transport every resource goes through: one GET with the key, a timeout per
 * attempt, cancellation, retries of what can be recovered from, and the quota of every
 * answer handed to the quota tracker.
 */
import {
  APIError,
  ConnectionError,
  MboaError,
  RequestAbortedError,
  TimeoutError,
} from './errors.js';
import { inBrowser } from './env.js';
import type { QuotaTracker } from './quota.js';
import { MAX_RETRY_AFTER_MS, backoffDelayMs, serverRetryDelayMs, shouldRetryResponse } from './retry.js';
import type { Quota } from '../types.js';
import { VERSION } from '../version.js';

/**
 * A `fetch` implementation: the global one of Node 18+, browsers, Deno and Bun fits, as
 * do wrappers around it (for proxies, logging or tests).
 */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** Options of a single call, given as the last argument of any method. They override the client's. */
export interface RequestOptions {
  /** Milliseconds to wait for each attempt's answer before giving up on it (client default: 60 000). */
  timeout?: number | undefined;
  /** Retries after a connection error, timeout, 429 `rate_limited` or 5xx (client default: 2). */
  maxRetries?: number | undefined;
  /** Cancels the call, retries and backoff included; the call then throws `RequestAbortedError`. */
  signal?: AbortSignal | undefined;
}

/** @internal What the transport needs from the client. */
export interface HttpCoreConfig {
  apiKey: string;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  fetch: Fetch | undefined;
  quota: QuotaTracker;
}

/** Query values the API understands; `undefined` and `null` mean "not given". */
export type QueryParams = object;

/** @internal */
export class HttpCore {
  // A true private field: the API key must not show when a client is logged or inspected.
  readonly #config: HttpCoreConfig;

  constructor(config: HttpCoreConfig) {
    this.#config = config;
  }

  /** GETs `/api/v1{path}` and returns the parsed body of a 2xx answer, or throws an `MboaError`. */
  async get<T>(path: string, query: QueryParams | undefined, options: RequestOptions = {}): Promise<T> {
    const url = this.url(path, query);
    const timeout = options.timeout ?? this.#config.timeout;
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    const { signal } = options;
    if (typeof timeout !== 'number' || !(timeout > 0) || !Number.isFinite(timeout)) {
      throw new MboaError(`timeout must be a positive number of milliseconds; got ${String(timeout)}.`, { code: 'invalid_argument' });
    }
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new MboaError(`maxRetries must be a whole number, 0 or more; got ${String(maxRetries)}.`, { code: 'invalid_argument' });
    }

    for (let retriesDone = 0; ; retriesDone++) {
      if (signal?.aborted) throw new RequestAbortedError(signal.reason);
      const canRetry = retriesDone < maxRetries;

      let answer: Answer;
      try {
        answer = await this.attempt(url, timeout, signal);
      } catch (err) {
        // Only connection errors and timeouts reach here as retriable; an abort is final.
        if (err instanceof ConnectionError && canRetry) {
          await sleep(backoffDelayMs(retriesDone), signal);
          continue;
        }
        throw err;
      }

      const { status, headers, body, text } = answer;
      if (status >= 200 && status < 300) {
        if (body === undefined) {
          throw new MboaError(`The API answered ${status} with a body that is not JSON.`, {
            status,
            code: 'invalid_response',
            requestId: headers['x-request-id'],
          });
        }
        this.reportQuota((body as { meta?: { quota?: unknown } }).meta?.quota);
        return body as T;
      }

      const error = APIError.generate(status, body, headers, text);
      this.reportQuota(error.meta?.quota);
      if (canRetry && shouldRetryResponse(status, headers, error.code)) {
        const delay = serverRetryDelayMs(headers) ?? backoffDelayMs(retriesDone);
        if (delay <= MAX_RETRY_AFTER_MS) {
          await sleep(delay, signal);
          continue;
        }
      }
      throw error;
    }
  }

  /** The full URL: base, `/api/v1`, path, and the query without its unset values. */
  private url(path: string, query: QueryParams | undefined): string {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) search.append(key, String(value));
    }
    const qs = search.toString();
    return `${this.#config.baseUrl}/api/v1${path}${qs ? `?${qs}` : ''}`;
  }

  /** One HTTP exchange, body included, within `timeout`. Throws connection errors only. */
  private async attempt(url: string, timeout: number, signal: AbortSignal | undefined): Promise<Answer> {
    // Looked up at each call, never captured at import or construction: test tools (msw)
    // and instrumentation replace the global fetch after the client is built.
    const fetchImpl = this.#config.fetch ?? (globalThis.fetch as Fetch | undefined);
    if (typeof fetchImpl !== 'function') {
      throw new MboaError('No global fetch: use Node.js 18 or later, or pass the `fetch` option.', { code: 'configuration_error' });
    }

    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeout);

    try {
      const response = await fetchImpl(url, {
        method: 'GET',
        headers: {
          'X-API-Key': this.#config.apiKey,
          Accept: 'application/json',
          ...(inBrowser() ? {} : { 'User-Agent': `mboa-sdk-js/${VERSION}` }),
        },
        signal: controller.signal,
      });
      // The body is read inside the timeout too: a server can stall after the headers.
      const text = await response.text();
      return { status: response.status, headers: headerRecord(response.headers), body: parseJson(text), text };
    } catch (err) {
      if (err instanceof MboaError) throw err;
      if (signal?.aborted) throw new RequestAbortedError(signal.reason);
      if (timedOut) throw new TimeoutError(timeout);
      throw new ConnectionError(`Connection error: ${describe(err)}`, err);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private reportQuota(quota: unknown): void {
    if (quota && typeof quota === 'object' && 'used' in quota && 'resets_at' in quota) {
      this.#config.quota.report(quota as Quota);
    }
  }
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  body: unknown;
  text: string;
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, key) => {
    record[key.toLowerCase()] = value;
  });
  return record;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The innermost reason of a fetch failure (`ECONNREFUSED`...), which Node hides in `cause`. */
function describe(err: unknown): string {
  let current: unknown = err;
  let message = 'request failed';
  for (let depth = 0; current && depth < 5; depth++) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    if (typeof e.message === 'string' && e.message) message = typeof e.code === 'string' ? `${e.message} (${e.code})` : e.message;
    current = e.cause;
  }
  return message;
}

/** Waits `ms`, or rejects with `RequestAbortedError` as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new RequestAbortedError(signal.reason));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new RequestAbortedError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
