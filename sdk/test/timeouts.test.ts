import { delay, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, RequestAbortedError, TimeoutError } from '../src/index.js';
import { API, client, ping, problem, server, useMockServer } from './helpers.js';

useMockServer();

describe('timeouts and cancellation', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.spyOn(Math, 'random').mockReturnValue(0);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  /** A ping that never answers; counts the attempts. */
  function hang() {
    const attempts = { count: 0 };
    server.use(
      http.get(`${API}/ping`, async () => {
        attempts.count++;
        await delay('infinite');
        return ping();
      }),
    );
    return attempts;
  }

  it('gives up an attempt after timeout ms and throws TimeoutError', async () => {
    const attempts = hang();
    const call = client({ timeout: 2_000, maxRetries: 0 })
      .ping()
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(attempts.count).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ code: 'timeout', message: 'Request timed out after 2000 ms.' });
  });

  it('retries timed-out attempts, and the call option overrides the client', async () => {
    const attempts = hang();
    const call = client({ timeout: 60_000 })
      .ping({ timeout: 1_000, maxRetries: 1 })
      .catch((e: unknown) => e);
    // 1 s attempt, 0.5 s backoff, 1 s attempt.
    await vi.advanceTimersByTimeAsync(2_500);
    expect(await call).toBeInstanceOf(TimeoutError);
    expect(attempts.count).toBe(2);
  });

  it('aborts an attempt in flight through the signal, without retrying', async () => {
    const attempts = hang();
    const controller = new AbortController();
    const call = client()
      .ping({ signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    const error = await call;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(error).toMatchObject({ code: 'aborted' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(attempts.count).toBe(1);
  });

  it('aborts during the backoff between retries', async () => {
    let attempts = 0;
    server.use(
      http.get(`${API}/ping`, () => {
        attempts++;
        return problem(503, 'unavailable');
      }),
    );
    const controller = new AbortController();
    const call = client()
      .ping({ signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    expect(attempts).toBe(1);
    controller.abort();
    expect(await call).toBeInstanceOf(RequestAbortedError);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(attempts).toBe(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const attempts = hang();
    const controller = new AbortController();
    controller.abort();
    await expect(client().ping({ signal: controller.signal })).rejects.toBeInstanceOf(RequestAbortedError);
    expect(attempts.count).toBe(0);
  });

  it('one signal stops a whole paginated walk', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/listings`, async () => {
        calls++;
        if (calls > 1) await delay('infinite');
        return new Response(
          JSON.stringify({
            data: [],
            meta: { total: 0, returned: 0, limit: 20, next_cursor: 'next', has_more: true, quota: undefined, request_id: 'r' },
          }),
          { headers: { 'Content-Type': 'application/json' } },
        );
      }),
    );
    const controller = new AbortController();
    const walk = client()
      .listings.search({}, { signal: controller.signal })
      .toArray({ max: 10 })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect(await walk).toBeInstanceOf(RequestAbortedError);
    expect(calls).toBe(2);
  });
});

describe('fetch', () => {
  it('looks up the global fetch at call time, not at construction', async () => {
    const mboa = client();
    const calls: string[] = [];
    const original = globalThis.fetch;
    const stub: typeof fetch = async (input) => {
      calls.push(String(input));
      return Response.json({ data: { status: 'ok', time: 't', version: 'v' }, meta: { request_id: 'r' } });
    };
    globalThis.fetch = stub;
    try {
      await mboa.ping();
    } finally {
      globalThis.fetch = original;
    }
    expect(calls).toEqual(['http://mboa.test/api/v1/ping']);
  });

  it('uses the fetch option when given', async () => {
    const custom = vi.fn(async () => Response.json({ data: { status: 'ok' }, meta: { request_id: 'r' } }));
    const result = await client({ fetch: custom }).ping();
    expect(result.data.status).toBe('ok');
    expect(custom).toHaveBeenCalledTimes(1);
    expect(custom.mock.calls[0]).toEqual(['http://mboa.test/api/v1/ping', expect.objectContaining({ method: 'GET' })]);
  });

  it('turns a fetch failure into ConnectionError with the underlying reason', async () => {
    const failing = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      });
    };
    const error = await client({ fetch: failing, maxRetries: 0 })
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });
});
