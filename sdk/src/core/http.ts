/**
 * The transport every resource goes through: one GET with the key, a timeout per
 * attempt, cancellation, retries of what can be recovered from, the quota of every
 * answer handed to the quota tracker, and a debug line per attempt when asked for.
 */
import { APIPromise, type ResponseInfo, type WithResponse } from './api-promise.js';
import { APIError, MboaError, RequestAbortedError } from './errors.js';
import { type Exchange, type Fetch, type PreparedCall, send } from './exchange.js';
import { type ExtraHeaders, checkHeaders, requestHeaders } from './headers.js';
import type { HttpMethod, Log, LogDetails } from './logger.js';
import type { QuotaTracker } from './quota.js';
import { retryDelayFor, sleep } from './retry.js';
import type { Quota } from '../types.js';

export type { Fetch } from './exchange.js';

/** Options of a single call, given as the last argument of any method. They override the client's. */
export interface RequestOptions {
  /**
   * Milliseconds to wait for each attempt's answer before giving up on it (client default:
   * 60 000). For an export, the longest wait for the headers and then between two chunks
   * of the stream.
   */
  timeout?: number | undefined;
  /**
   * Retries after a connection error, timeout, 429 `rate_limited` or 5xx (client default:
   * 2). For an export, the retries allowed between two listings received, resumes included.
   */
  maxRetries?: number | undefined;
  /** Cancels the call, retries and backoff included; the call then throws `RequestAbortedError`. */
  signal?: AbortSignal | undefined;
  /**
   * Headers for this call only, over the client's `defaultHeaders` (`null` removes one).
   * An `X-Request-Id` of 8 to 64 letters, digits or `._:-` is kept by the API as the
   * request id, to match its logs with yours.
   */
  headers?: ExtraHeaders | undefined;
}

/** @internal What the transport needs from the client. */
export interface HttpCoreConfig {
  apiKey: string;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  fetch: Fetch | undefined;
  quota: QuotaTracker;
  defaultHeaders: ExtraHeaders;
  userAgent: string;
  log: Log;
}

/** Query values the API understands; `undefined` and `null` mean "not given". */
export type QueryParams = object;

/** @internal A 2xx answer whose body is read as it arrives (exports). */
export interface OpenStream extends ResponseInfo {
  /**
   * The body's chunks. Each one re-arms the idle timeout; a failure is thrown as a
   * `ConnectionError` (`TimeoutError` when idle too long) or `RequestAbortedError`.
   * Leaving the loop early releases the connection.
   */
  chunks(): AsyncGenerator<Uint8Array, void, undefined>;
  /** Milliseconds since the request was sent. */
  elapsed(): number;
}

/** @internal */
export class HttpCore {
  // A true private field: the API key must not show when a client is logged or inspected.
  readonly #config: HttpCoreConfig;

  constructor(config: HttpCoreConfig) {
    this.#config = config;
  }

  /** The debug log, for resources that log events of their own (export resumes). */
  get log(): Log {
    return this.#config.log;
  }

  /** GETs `/api/v1{path}`: resolves with the parsed body of a 2xx answer, or rejects with an `MboaError`. */
  get<T>(path: string, query: QueryParams | undefined, options: RequestOptions = {}): APIPromise<T> {
    return new APIPromise(this.request<T>(path, query, options));
  }

  /**
   * Sends a write (POST, PATCH, DELETE) with a JSON body: resolves like `get`. A POST is
   * retried only when the API refused it before doing anything (429, 503 with `Retry-After`).
   */
  write<T>(method: Exclude<HttpMethod, 'GET'>, path: string, body: unknown, options: RequestOptions = {}): APIPromise<T> {
    return new APIPromise(this.request<T>(path, undefined, options, 'application/json', { method, body }));
  }

  /** GETs `/api/v1{path}` asking for `accept` (CSV): resolves with the body as text, or rejects like `get`. */
  getText(path: string, query: QueryParams | undefined, options: RequestOptions, accept: string): APIPromise<string> {
    return new APIPromise(this.request<string>(path, query, options, accept));
  }

  /** Checks a call's options and builds its URL and headers. */
  prepare(path: string, query: QueryParams | undefined, options: RequestOptions, accept: string): PreparedCall {
    const timeout = options.timeout ?? this.#config.timeout;
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    if (typeof timeout !== 'number' || !(timeout > 0) || !Number.isFinite(timeout)) {
      throw new MboaError(`timeout must be a positive number of milliseconds; got ${String(timeout)}.`, { code: 'invalid_argument' });
    }
    if (!Number.isInteger(maxRetries) || maxRetries < 0) {
      throw new MboaError(`maxRetries must be a whole number, 0 or more; got ${String(maxRetries)}.`, { code: 'invalid_argument' });
    }
    const own = checkHeaders(options.headers, 'headers', 'invalid_argument');
    const { apiKey, userAgent, defaultHeaders } = this.#config;
    return {
      url: this.url(path, query),
      headers: requestHeaders(apiKey, accept, userAgent, defaultHeaders, own),
      timeout,
      maxRetries,
      signal: options.signal,
    };
  }

  private async request<T>(
    path: string,
    query: QueryParams | undefined,
    options: RequestOptions,
    accept = 'application/json',
    write?: { method: Exclude<HttpMethod, 'GET'>; body: unknown },
  ): Promise<WithResponse<T>> {
    const call: PreparedCall = { ...this.prepare(path, query, options, accept), method: write?.method };
    if (write?.body !== undefined) call.body = JSON.stringify(write.body);
    for (let retriesDone = 0; ; retriesDone++) {
      if (call.signal?.aborted) throw new RequestAbortedError(call.signal.reason);
      try {
        return await this.attemptJson<T>(call, retriesDone + 1, accept !== 'application/json');
      } catch (err) {
        const retriable = call.method !== 'POST' || (err instanceof APIError && (err.status === 429 || err.status === 503));
        const delay = retriable && retriesDone < call.maxRetries ? retryDelayFor(err, retriesDone) : undefined;
        if (delay === undefined) throw err;
        this.logRetry(call, err, delay, retriesDone + 1);
        await sleep(delay, call.signal);
      }
    }
  }

  /** One attempt of a JSON call, body included, within the timeout. */
  private async attemptJson<T>(call: PreparedCall, attempt: number, asText = false): Promise<WithResponse<T>> {
    const exchange = await this.send(call, attempt);
    let text: string;
    try {
      // The body is read inside the timeout too: a server can stall after the headers.
      text = await exchange.response.text();
    } catch (err) {
      throw exchange.failure(err);
    } finally {
      exchange.done();
    }
    const { status, headers, requestId } = exchange;
    // A text answer (CSV) is the body as is; its quota is in the headers only.
    if (asText && status >= 200 && status < 300) return { data: text as T, status, headers, requestId };
    const body = parseJson(text);
    if (status >= 200 && status < 300) {
      if (body === undefined) {
        throw new MboaError(`The API answered ${status} with a body that is not JSON.`, { status, code: 'invalid_response', requestId });
      }
      this.reportQuota((body as { meta?: { quota?: unknown } }).meta?.quota);
      return { data: body as T, status, headers, requestId };
    }
    const error = APIError.generate(status, body, headers, text);
    this.reportQuota(error.meta?.quota);
    throw error;
  }

  /**
   * One attempt of a streamed call (exports): resolves once a 2xx answer's headers are in,
   * with its body to read as it comes; an error answer is read whole and thrown as its
   * `APIError`. No retries here: the caller resumes from what it received.
   */
  async openStream(call: PreparedCall, attempt: number, contentType: RegExp): Promise<OpenStream> {
    const exchange = await this.send(call, attempt);
    const { status, headers, requestId, response } = exchange;
    if (status < 200 || status >= 300) {
      let text: string;
      try {
        text = await response.text();
      } catch (err) {
        throw exchange.failure(err);
      } finally {
        exchange.done();
      }
      const error = APIError.generate(status, parseJson(text), headers, text);
      this.reportQuota(error.meta?.quota);
      throw error;
    }
    if (!contentType.test(headers['content-type'] ?? '')) {
      exchange.done();
      response.body?.cancel().catch(() => undefined);
      throw new MboaError(`The API answered ${status} with Content-Type "${headers['content-type'] ?? ''}", not a stream of listings.`, {
        status,
        code: 'invalid_response',
        requestId,
      });
    }
    return {
      status,
      headers,
      requestId,
      elapsed: () => Date.now() - exchange.started,
      async *chunks() {
        const reader = response.body?.getReader();
        if (!reader) return exchange.done();
        // Not every fetch stops a body read on abort (mocks, some runtimes): cancelling the
        // reader does, and ends the read as if the body were done; `aborted` tells apart.
        const cancel = () => void reader.cancel().catch(() => undefined);
        exchange.signal.addEventListener('abort', cancel, { once: true });
        try {
          for (;;) {
            exchange.rearm();
            let next: ReadableStreamReadResult<Uint8Array>;
            try {
              next = await reader.read();
            } catch (err) {
              throw exchange.failure(err);
            }
            if (exchange.signal.aborted) throw exchange.failure(exchange.signal.reason);
            if (next.done) return;
            yield next.value;
          }
        } finally {
          exchange.done();
          exchange.signal.removeEventListener('abort', cancel);
          // Leaving early (a `break` in the caller's loop): close the connection.
          cancel();
        }
      },
    };
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

  private send(call: PreparedCall, attempt: number): Promise<Exchange> {
    return send(call, attempt, this.#config.fetch, this.#config.log);
  }

  /** Logs a retry about to happen. */
  logRetry(call: PreparedCall, err: unknown, delayMs: number, retry: number, extra: Partial<LogDetails> = {}): void {
    const reason = err instanceof Error ? err.message : String(err);
    const event = extra.event ?? 'retry';
    this.#config.log?.(
      `${event === 'resume' ? 'resuming' : 'retrying'} GET ${call.url} in ${Math.round(delayMs)} ms (retry ${retry} of ${call.maxRetries}): ${reason}`,
      {
        method: 'GET',
        url: call.url,
        delayMs: Math.round(delayMs),
        attempt: retry + 1,
        retriesLeft: call.maxRetries - retry,
        error: reason,
        ...extra,
        event,
      },
    );
  }

  private reportQuota(quota: unknown): void {
    if (quota && typeof quota === 'object' && 'used' in quota && 'resets_at' in quota) {
      this.#config.quota.report(quota as Quota);
    }
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
