import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, QuotaExceededError, RateLimitError, ServerError, ValidationError } from '../src/index.js';
import { backoffDelayMs, serverRetryDelayMs } from '../src/core/retry.js';
import { API, client, ping, problem, quota, server, useMockServer } from './helpers.js';

useMockServer();

beforeEach(() => {
  // Only timers and the clock are fake: msw's own promise plumbing keeps running.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
  // No jitter: delays are exactly 0.5 s, 1 s, 2 s...
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Serves `answers` in turn (the last one repeats) and records when each request came, in ms since the start. */
function sequence(answers: Array<() => Response>) {
  const start = Date.now();
  const times: number[] = [];
  server.use(
    http.get(`${API}/ping`, () => {
      times.push(Date.now() - start);
      return answers[Math.min(times.length - 1, answers.length - 1)]!();
    }),
  );
  return times;
}

/** Runs `promise` while advancing the fake clock until it settles. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  let done = false;
  void outcome.then(() => (done = true));
  for (let i = 0; i < 500 && !done; i++) await vi.advanceTimersByTimeAsync(100);
  return outcome;
}

const unavailable = () => problem(503, 'unavailable');

describe('retries', () => {
  it('retries a 5xx with exponential backoff and returns the answer that succeeds', async () => {
    const times = sequence([unavailable, unavailable, () => ping()]);
    const { value, error } = await settle(client().ping());
    expect(error).toBeUndefined();
    expect(value?.data.status).toBe('ok');
    // Attempt 1 at 0, retry 1 after 0.5 s, retry 2 after a further 1 s.
    expect(times).toEqual([0, 500, 1500]);
  });

  it('gives up after maxRetries (default 2: three attempts) and throws the last error', async () => {
    const times = sequence([() => problem(500, 'internal_error')]);
    const { error } = await settle(client().ping());
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
    expect(times).toHaveLength(3);
  });

  it('honours maxRetries from the client and from the call', async () => {
    let times = sequence([unavailable]);
    await settle(client({ maxRetries: 0 }).ping());
    expect(times).toHaveLength(1);

    times = sequence([unavailable]);
    await settle(client({ maxRetries: 0 }).ping({ maxRetries: 4 }));
    expect(times).toEqual([0, 500, 1500, 3500, 7500]);
  });

  it('waits Retry-After seconds on 429 rate_limited', async () => {
    const times = sequence([() => problem(429, 'rate_limited', { headers: { 'Retry-After': '7' }, quota: quota() }), () => ping()]);
    const { value } = await settle(client().ping());
    expect(value?.data.status).toBe('ok');
    expect(times).toEqual([0, 7000]);
  });

  it('reads Retry-After as an HTTP date and retry-after-ms before it', async () => {
    const at = new Date(Date.now() + 3000).toUTCString();
    let times = sequence([() => problem(429, 'rate_limited', { headers: { 'Retry-After': at } }), () => ping()]);
    await settle(client().ping());
    expect(times).toEqual([0, 3000]);

    times = sequence([() => problem(429, 'rate_limited', { headers: { 'retry-after-ms': '1200', 'Retry-After': '30' } }), () => ping()]);
    await settle(client().ping());
    expect(times).toEqual([0, 1200]);
  });

  it('throws RateLimitError, with retryAfter, once retries are spent', async () => {
    const times = sequence([() => problem(429, 'rate_limited', { headers: { 'Retry-After': '2' } })]);
    const { error } = await settle(client({ maxRetries: 1 }).ping());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(2);
    expect(times).toEqual([0, 2000]);
  });

  it('does not sleep through a Retry-After longer than a minute', async () => {
    const times = sequence([() => problem(503, 'unavailable', { headers: { 'Retry-After': '3600' } })]);
    const { error } = await settle(client().ping());
    expect(error).toBeInstanceOf(ServerError);
    expect(times).toEqual([0]);
  });

  it('never retries quota_exceeded', async () => {
    const times = sequence([
      () =>
        problem(429, 'quota_exceeded', {
          headers: { 'Retry-After': '5', 'X-Should-Retry': 'false' },
          quota: quota({ used: 10_000, remaining: 0 }),
        }),
    ]);
    const { error } = await settle(client().ping());
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(times).toEqual([0]);
  });

  it('never retries quota_exceeded even without X-Should-Retry', async () => {
    const times = sequence([() => problem(429, 'quota_exceeded')]);
    await settle(client().ping());
    expect(times).toEqual([0]);
  });

  it('does not retry other 4xx', async () => {
    const times = sequence([() => problem(400, 'validation_error', { errors: [{ path: 'limit', message: 'must be between 1 and 200' }] })]);
    const { error } = await settle(client().ping());
    expect(error).toBeInstanceOf(ValidationError);
    expect(times).toEqual([0]);
  });

  it('lets X-Should-Retry override the status', async () => {
    let times = sequence([() => problem(503, 'unavailable', { headers: { 'X-Should-Retry': 'false' } })]);
    await settle(client().ping());
    expect(times).toEqual([0]);

    times = sequence([() => problem(404, 'not_found', { headers: { 'X-Should-Retry': 'true' } }), () => ping()]);
    const { value } = await settle(client().ping());
    expect(value?.data.status).toBe('ok');
    expect(times).toEqual([0, 500]);
  });

  it('retries connection errors, then throws ConnectionError', async () => {
    const times = sequence([() => HttpResponse.error()]);
    const { error } = await settle(client().ping());
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'connection_error', status: undefined });
    expect(times).toEqual([0, 500, 1500]);
  });

  it('retries a gateway error that is not problem+json', async () => {
    const times = sequence([() => new HttpResponse('<html>Bad Gateway</html>', { status: 502 }), () => ping()]);
    const { value } = await settle(client().ping());
    expect(value?.data.status).toBe('ok');
    expect(times).toEqual([0, 500]);
  });
});

describe('backoff', () => {
  it('doubles from 0.5 s up to 8 s, less up to 25 % jitter', () => {
    const none = () => 0;
    expect([0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelayMs(n, none))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
    expect(backoffDelayMs(0, () => 0.999)).toBeCloseTo(375, 0);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelayMs(2);
      expect(d).toBeGreaterThan(1500);
      expect(d).toBeLessThanOrEqual(2000);
    }
  });

  it('reads server delays and ignores garbage', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(serverRetryDelayMs({ 'retry-after': '1.5' }, now)).toBe(1500);
    expect(serverRetryDelayMs({ 'retry-after': 'Sun, 22 Nov 2026 10:00:10 GMT' }, now)).toBe(10_000);
    expect(serverRetryDelayMs({ 'retry-after': 'Sun, 22 Nov 2026 09:00:00 GMT' }, now)).toBe(0);
    expect(serverRetryDelayMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(serverRetryDelayMs({ 'retry-after-ms': 'x', 'retry-after': '2' }, now)).toBe(2000);
    expect(serverRetryDelayMs({}, now)).toBeUndefined();
  });
});
