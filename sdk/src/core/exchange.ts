/**
 * One attempt on the wire: the GET sent with its timeout and the caller's cancellation
 * wired to it, its answer's headers read, each failure turned into the client's error
 * and a debug line logged. The body is the caller's to read (http.ts), within the same
 * timer, until it says the exchange is done.
 */
import { ConnectionError, MboaError, RequestAbortedError, TimeoutError } from './errors.js';
import type { HttpMethod, Log } from './logger.js';

/**
 * A `fetch` implementation: the global one of Node.js 20+ fits, as do wrappers around it
 * (for proxies, logging or tests).
 */
export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

/** @internal One call, checked and ready to send (maybe several times). */
export interface PreparedCall {
  url: string;
  headers: Record<string, string>;
  timeout: number;
  maxRetries: number;
  signal: AbortSignal | undefined;
  /** GET unless given; a write sends its JSON `body`. */
  method?: HttpMethod;
  body?: string;
}

/** An answer whose headers arrived, with the timer and abort wiring still held for its body. */
export interface Exchange {
  response: Response;
  status: number;
  headers: Record<string, string>;
  requestId: string | undefined;
  started: number;
  /** Aborted on timeout or when the caller's signal fires. */
  signal: AbortSignal;
  /** Restarts the timeout: a stream may take any time in all, but not too long between chunks. */
  rearm(): void;
  /** Stops the timer and the abort wiring. */
  done(): void;
  failure(err: unknown): MboaError;
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, key) => {
    record[key.toLowerCase()] = value;
  });
  return record;
}

/**
 * Sends the request and waits for the answer's headers within the timeout. The returned
 * exchange keeps the timer and the abort wiring until `done()`, for the body read.
 */
export async function send(call: PreparedCall, attempt: number, fetch: Fetch | undefined, log: Log): Promise<Exchange> {
  // Looked up at each call, never captured at import or construction: test tools (msw)
  // and instrumentation replace the global fetch after the client is built.
  const fetchImpl = fetch ?? (globalThis.fetch as Fetch | undefined);
  if (typeof fetchImpl !== 'function') {
    throw new MboaError('No global fetch: use Node.js 20 or later, or pass the `fetch` option.', { code: 'configuration_error' });
  }
  const { signal, timeout } = call;
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const started = Date.now();

  const exchange = {
    started,
    signal: controller.signal,
    rearm() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeout);
    },
    done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
    /** The client's error for a failure of fetch or of a body read. */
    failure(err: unknown): MboaError {
      let error: MboaError;
      if (err instanceof MboaError) error = err;
      else if (signal?.aborted) error = new RequestAbortedError(signal.reason);
      else if (timedOut) error = new TimeoutError(timeout);
      else error = new ConnectionError(`Connection error reaching ${new URL(call.url).origin}: ${describe(err)}`, err);
      log?.(`${call.method ?? 'GET'} ${call.url} failed after ${Date.now() - started} ms: ${error.message}`, {
        event: 'error',
        method: call.method ?? 'GET',
        url: call.url,
        durationMs: Date.now() - started,
        attempt,
        error: error.message,
      });
      return error;
    },
  };

  exchange.rearm();
  let response: Response;
  try {
    response = await fetchImpl(call.url, {
      method: call.method ?? 'GET',
      headers: call.body === undefined ? call.headers : { ...call.headers, 'content-type': 'application/json' },
      body: call.body,
      signal: controller.signal,
    });
  } catch (err) {
    exchange.done();
    throw exchange.failure(err);
  }
  const headers = headerRecord(response.headers);
  const requestId = headers['x-request-id'];
  const durationMs = Date.now() - started;
  log?.(
    `${call.method ?? 'GET'} ${call.url} → ${response.status} in ${durationMs} ms (request ${requestId ?? 'without id'}, attempt ${attempt})`,
    {
      event: 'response',
      method: call.method ?? 'GET',
      url: call.url,
      status: response.status,
      requestId,
      durationMs,
      attempt,
    },
  );
  return { ...exchange, response, status: response.status, headers, requestId };
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
