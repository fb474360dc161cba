import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LogDetails } from '../src/index.js';
import { API, KEY, client, page, listing, ping, problem, server, useMockServer } from './helpers.js';

useMockServer();

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A logger that keeps every line. */
function capture() {
  const lines: { message: string; details: LogDetails }[] = [];
  return { lines, logger: { debug: (message: string, details: LogDetails) => lines.push({ message, details }) } };
}

describe('debug logging', () => {
  it('is off by default: nothing is logged, not even on the console', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { lines, logger } = capture();
    server.use(http.get(`${API}/ping`, () => ping()));
    await client({ logger }).ping();
    await client().ping();
    expect(lines).toEqual([]);
    expect(debug).not.toHaveBeenCalled();
  });

  it("logLevel 'debug' logs method, URL, status, request id, duration and attempt", async () => {
    const { lines, logger } = capture();
    server.use(http.get(`${API}/listings`, () => page([listing(1)], null)));
    await client({ logLevel: 'debug', logger }).listings.search({ city: 'Douala', limit: 5 });

    expect(lines).toHaveLength(1);
    const [{ message, details }] = lines as [(typeof lines)[0]];
    expect(details).toMatchObject({
      event: 'response',
      method: 'GET',
      url: `${API}/listings?city=Douala&limit=5`,
      status: 200,
      requestId: 'req_page',
      attempt: 1,
    });
    expect(details.durationMs).toBeGreaterThanOrEqual(0);
    expect(message).toMatch(
      /^\[mboa\] GET http:\/\/mboa\.test\/api\/v1\/listings\?city=Douala&limit=5 → 200 in \d+ ms \(request req_page, attempt 1\)$/,
    );
  });

  it('logs each retry with its delay and the retries left, then the answer that succeeded', async () => {
    const { lines, logger } = capture();
    let n = 0;
    server.use(http.get(`${API}/ping`, () => (++n === 1 ? problem(503, 'unavailable', { headers: { 'retry-after-ms': '10' } }) : ping())));
    await client({ logLevel: 'debug', logger }).ping();
    expect(lines.map((l) => l.details.event)).toEqual(['response', 'retry', 'response']);
    expect(lines[0]!.details).toMatchObject({ status: 503, requestId: 'req_unavailable', attempt: 1 });
    expect(lines[1]!.details).toMatchObject({ delayMs: 10, attempt: 2, retriesLeft: 1, error: '503 unavailable: detail of unavailable' });
    expect(lines[1]!.message).toMatch(/retrying GET .*\/ping in 10 ms \(retry 1 of 2\): 503 unavailable/);
    expect(lines[2]!.details).toMatchObject({ status: 200, attempt: 2 });
  });

  it('logs connection errors', async () => {
    const { lines, logger } = capture();
    server.use(http.get(`${API}/ping`, () => HttpResponse.error()));
    await client({ logLevel: 'debug', logger, maxRetries: 0 })
      .ping()
      .catch(() => undefined);
    expect(lines).toHaveLength(1);
    expect(lines[0]!.details).toMatchObject({ event: 'error', url: `${API}/ping`, attempt: 1 });
    expect(lines[0]!.details.error).toMatch(/^Connection error/);
  });

  it('never logs the API key or the request headers', async () => {
    const { lines, logger } = capture();
    server.use(
      http.get(`${API}/ping`, () => ping()),
      http.get(`${API}/market/trends`, () => problem(403, 'plan_forbidden')),
    );
    const mboa = client({ logLevel: 'debug', logger, defaultHeaders: { 'X-Secret-Team': 'hush-7f3a' } });
    await mboa.ping();
    await mboa.market.trends().catch(() => undefined);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    const text = JSON.stringify(lines);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(10, 30));
    expect(text).not.toContain('hush-7f3a');
  });

  it('MBOA_LOG=debug turns it on, on the console by default; the option wins over it', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    server.use(http.get(`${API}/ping`, () => ping()));
    vi.stubEnv('MBOA_LOG', 'debug');
    await client().ping();
    expect(debug).toHaveBeenCalledTimes(1);
    expect(String(debug.mock.calls[0]![0])).toMatch(/^\[mboa\] GET .*\/ping → 200/);
    expect(debug.mock.calls[0]![1]).toMatchObject({ status: 200, method: 'GET' });

    await client({ logLevel: 'off' }).ping();
    expect(debug).toHaveBeenCalledTimes(1);

    vi.stubEnv('MBOA_LOG', 'verbose');
    await client().ping();
    expect(debug).toHaveBeenCalledTimes(1);
  });

  it('refuses an unknown logLevel or a logger without debug()', () => {
    expect(() => client({ logLevel: 'trace' as never })).toThrow(/logLevel/);
    expect(() => client({ logLevel: 'debug', logger: {} as never })).toThrow(/debug\(message, details\)/);
  });
});
