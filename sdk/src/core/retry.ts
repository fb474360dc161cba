/**
 * When to retry and how long to wait. Every Mboa endpoint is a GET, so any failed call
 * can be sent again without side effects; what matters is whether it can succeed.
 */
import { APIError, ConnectionError, RequestAbortedError } from './errors.js';

/** Backoff of the n-th retry (n from 0) when the server gave no delay: 0.5 s, 1 s, 2 s... up to 8 s. */
const INITIAL_DELAY_S = 0.5;
const MAX_DELAY_S = 8;

/**
 * The longest server-given delay the client sleeps through. A rate-limit window is a
 * minute; a longer `Retry-After` (a quota reset days away, a long outage) would freeze
 * the caller silently, so the error is thrown instead and the caller decides.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Whether an HTTP answer is worth another attempt. The server's `X-Should-Retry`
 * decides when present (`quota_exceeded` carries `false`); otherwise 408, 429 and 5xx are
 * transient, anything else in 4xx is the request's fault and would fail again.
 */
export function shouldRetryResponse(status: number, headers: Record<string, string>, code: string | undefined): boolean {
  // Waiting cannot help before the quota resets, whatever a proxy in between says.
  if (code === 'quota_exceeded') return false;
  const hint = headers['x-should-retry'];
  if (hint === 'true') return true;
  if (hint === 'false') return false;
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The delay the server asked for, in milliseconds: `retry-after-ms`, then `Retry-After`
 * in seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function serverRetryDelayMs(headers: Record<string, string>, now: number = Date.now()): number | undefined {
  const ms = headers['retry-after-ms'];
  if (ms !== undefined && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const after = headers['retry-after'];
  if (after === undefined || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Milliseconds to wait before retry number `retriesDone + 1`: the server's delay when it
 * gave one, else exponential backoff `min(0.5 * 2^n, 8)` s shortened by up to 25 % of
 * jitter, so clients that failed together do not all come back at the same instant.
 */
export function backoffDelayMs(retriesDone: number, random: () => number = Math.random): number {
  const seconds = Math.min(INITIAL_DELAY_S * 2 ** retriesDone, MAX_DELAY_S);
  const jitter = 1 - random() * 0.25;
  return seconds * jitter * 1000;
}

/**
 * Milliseconds to wait before retrying after `error` (retry number `retriesDone + 1`), or
 * undefined when it must be thrown at once: connection errors and timeouts back off;
 * HTTP answers follow `shouldRetryResponse` and the server's delay, up to a minute.
 */
export function retryDelayFor(error: unknown, retriesDone: number): number | undefined {
  if (error instanceof ConnectionError) return backoffDelayMs(retriesDone);
  if (error instanceof APIError && shouldRetryResponse(error.status, error.headers, error.code)) {
    const delay = serverRetryDelayMs(error.headers) ?? backoffDelayMs(retriesDone);
    return delay <= MAX_RETRY_AFTER_MS ? delay : undefined;
  }
  return undefined;
}

/** Waits `ms`, or rejects with `RequestAbortedError` as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
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
