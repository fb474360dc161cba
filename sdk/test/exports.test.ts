import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ConnectionError,
  ListingExport,
  MboaError,
  PlanForbiddenError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  TimeoutError,
  ValidationError,
  type Listing,
  type LogDetails,
} from '../src/index.js';
import { EXPORT_HEADERS, collect, exportItems, fails, serveExport } from './export-helpers.js';
import { API, client, quota, server, useMockServer } from './helpers.js';

useMockServer();

beforeEach(() => {
  // Only timers and the clock are fake: msw's own promise plumbing keeps running.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-11-22T10:00:00.000Z'));
  // No jitter: backoffs are exactly 0.5 s, 1 s, 2 s...
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Runs `promise` while advancing the fake clock until it settles. */
async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  const outcome = promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  let done = false;
  void outcome.then(() => (done = true));
  for (let i = 0; i < 1000 && !done; i++) await vi.advanceTimersByTimeAsync(50);
  return outcome;
}

const ids = (listings: Listing[]) => listings.map((l) => l.id);

describe('exports.listings: a complete export', () => {
  it('streams every listing in id order, with the filters and an NDJSON Accept', async () => {
    const items = exportItems(25);
    const { requests } = serveExport(items);
    const exp = client().exports.listings({ city: 'Douala', status: 'any', min_price: 0, currency: 'EUR' });
    expect(exp).toBeInstanceOf(ListingExport);
    expect(requests).toHaveLength(0); // nothing sent before the loop starts

    const { value } = await settle(collect(exp));
    expect(value).toEqual(items);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.query).toEqual({ city: 'Douala', status: 'any', min_price: '0', currency: 'EUR' });
    expect(requests[0]!.headers.get('accept')).toBe('application/x-ndjson');
    expect(requests[0]!.headers.get('x-api-key')).toMatch(/^mboa_live_/);
    expect(exp).toMatchObject({ complete: true, received: 25, resumes: 0, lastId: items[24]!.id });
    expect(exp.response).toMatchObject({ status: 200, requestId: 'req_export_1' });
  });

  it('an empty export is complete with nothing to iterate', async () => {
    serveExport([]);
    const exp = client().exports.listings({ city: 'Kribi' });
    const { value } = await settle(collect(exp));
    expect(value).toEqual([]);
    expect(exp.complete).toBe(true);
    expect(exp.lastId).toBeUndefined();
  });

  it('starts after the given id', async () => {
    const items = exportItems(10);
    const { requests } = serveExport(items);
    const { value } = await settle(collect(client().exports.listings({ after: items[5]!.id })));
    expect(ids(value!)).toEqual(ids(items.slice(6)));
    expect(requests[0]!.query.after).toBe(items[5]!.id);
  });

  it('reads the quota from the X-Quota-* headers', async () => {
    serveExport(exportItems(3), [], {
      headers: { 'X-Quota-Limit': '2000000', 'X-Quota-Remaining': '1999000', 'X-Quota-Reset': '1796083200' },
    });
    const limited = client().exports.listings();
    await settle(collect(limited));
    expect(limited.quota).toEqual({ limit: 2_000_000, remaining: 1_999_000, resetsAt: '2026-12-01T00:00:00.000Z' });

    serveExport(exportItems(3));
    const unlimited = client().exports.listings();
    await settle(collect(unlimited));
    expect(unlimited.quota).toEqual({ limit: null, remaining: null, resetsAt: '2026-12-01T00:00:00.000Z' });
  });

  it('withResponse() opens the export and the loop reads that same answer', async () => {
    const items = exportItems(5);
    const { requests } = serveExport(items);
    const exp = client().exports.listings({ city: 'Douala' });
    const { value: answer } = await settle(exp.withResponse());
    expect(answer).toMatchObject({ data: exp, status: 200, requestId: 'req_export_1' });
    expect(answer!.headers['x-quota-limit']).toBe('unlimited');
    expect(requests).toHaveLength(1);

    const { value } = await settle(collect(exp));
    expect(value).toEqual(items);
    expect(requests).toHaveLength(1);
  });
});

describe('exports.listings: resuming', () => {
  it('a stream cut mid-line resumes after the last complete line: no duplicate, no loss', async () => {
    const items = exportItems(30);
    const { requests } = serveExport(items, [{ lines: 12, halfLine: true }]);
    const exp = client().exports.listings({ city: 'Douala' });
    const { value, error } = await settle(collect(exp));

    expect(error).toBeUndefined();
    expect(ids(value!)).toEqual(ids(items));
    expect(new Set(ids(value!)).size).toBe(30);
    expect(requests.map((r) => r.query)).toEqual([{ city: 'Douala' }, { city: 'Douala', after: items[11]!.id }]);
    expect(exp).toMatchObject({ resumes: 1, received: 30, complete: true });
  });

  it('a body that ends normally in the middle of a line is not complete: it resumes', async () => {
    const items = exportItems(10);
    const { requests } = serveExport(items, [{ lines: 4, halfLine: true, endNormally: true }]);
    const { value } = await settle(collect(client().exports.listings()));
    expect(ids(value!)).toEqual(ids(items));
    expect(requests[1]!.query.after).toBe(items[3]!.id);
  });

  it('a cut exactly between lines resumes too', async () => {
    const items = exportItems(10);
    const { requests } = serveExport(items, [{ lines: 6 }]);
    const { value } = await settle(collect(client().exports.listings()));
    expect(ids(value!)).toEqual(ids(items));
    expect(requests).toHaveLength(2);
  });

  it('survives any number of breaks as long as each resume brings listings', async () => {
    const items = exportItems(40);
    const script = Array.from({ length: 7 }, () => ({ lines: 5, halfLine: true }));
    const { requests } = serveExport(items, script);
    const exp = client({ maxRetries: 1 }).exports.listings();
    const { value, error } = await settle(collect(exp));
    expect(error).toBeUndefined();
    expect(ids(value!)).toEqual(ids(items));
    expect(requests).toHaveLength(8);
    expect(exp.resumes).toBe(7);
  });

  it('retries at most maxRetries times between two listings, then throws with lastId set', async () => {
    const items = exportItems(20);
    // 3 listings, then three breaks in a row before any new listing.
    const { requests } = serveExport(items, [
      { lines: 3, halfLine: true },
      { lines: 0, halfLine: true },
      { lines: 0 },
      { lines: 0, halfLine: true },
    ]);
    const exp = client({ maxRetries: 2 }).exports.listings();
    const seen: Listing[] = [];
    const { error } = await settle(
      (async () => {
        for await (const l of exp) seen.push(l);
      })(),
    );
    expect(error).toBeInstanceOf(ConnectionError);
    expect(ids(seen)).toEqual(ids(items.slice(0, 3)));
    // The first request, then maxRetries (2) resumes.
    expect(requests).toHaveLength(3);
    expect(requests.slice(1).every((r) => r.query.after === items[2]!.id)).toBe(true);
    expect(exp.lastId).toBe(items[2]!.id);
    expect(exp.complete).toBe(false);

    // Iterating again continues after lastId.
    const { value: rest } = await settle(collect(exp));
    expect(ids(rest!)).toEqual(ids(items.slice(3)));
    expect(exp.complete).toBe(true);
  });

  it('with maxRetries 0 a break is thrown at once', async () => {
    const { requests } = serveExport(exportItems(10), [{ lines: 2, halfLine: true }]);
    const { error } = await settle(collect(client({ maxRetries: 0 }).exports.listings()));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(requests).toHaveLength(1);
  });

  it('backs off 0.5 s, then 1 s, between resumes that bring nothing', async () => {
    const items = exportItems(5);
    const times: number[] = [];
    const start = Date.now();
    server.events.on('request:start', () => times.push(Date.now() - start));
    serveExport(items, [{ lines: 2 }, { lines: 0, halfLine: true }]);
    const { value } = await settle(collect(client().exports.listings()));
    server.events.removeAllListeners();
    expect(ids(value!)).toEqual(ids(items));
    expect(times).toHaveLength(3);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(500);
    expect(times[1]! - times[0]!).toBeLessThan(600);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(1000);
    expect(times[2]! - times[1]!).toBeLessThan(1100);
  });

  it('a stream that stalls longer than timeout is dropped and resumed', async () => {
    const items = exportItems(12);
    const { requests } = serveExport(items, [{ lines: 5, stall: true }]);
    const exp = client({ timeout: 2_000 }).exports.listings();
    const { value, error } = await settle(collect(exp));
    expect(error).toBeUndefined();
    expect(ids(value!)).toEqual(ids(items));
    expect(requests[1]!.query.after).toBe(items[4]!.id);
  });

  it('throws TimeoutError when stalls leave no retry', async () => {
    serveExport(exportItems(12), [{ lines: 5, stall: true }]);
    const { error } = await settle(collect(client({ timeout: 1_000, maxRetries: 0 }).exports.listings()));
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('logs each resume with the listings received, when debug logging is on', async () => {
    const lines: LogDetails[] = [];
    serveExport(exportItems(8), [{ lines: 3, halfLine: true }]);
    const mboa = client({ logLevel: 'debug', logger: { debug: (_message, details) => lines.push(details) } });
    await settle(collect(mboa.exports.listings()));
    const resume = lines.find((l) => l.event === 'resume');
    expect(resume).toMatchObject({ method: 'GET', received: 3, delayMs: 500, retriesLeft: 1 });
    expect(resume?.url).toBe(`${API}/exports/listings?after=${exportItems(3)[2]!.id}`);
    expect(lines.at(-1)).toMatchObject({ event: 'export_end', received: 8 });
  });
});

describe('exports.listings: errors before the stream', () => {
  it('403 plan_forbidden is a PlanForbiddenError, not retried, and reports the quota', async () => {
    const onQuota = vi.fn();
    const q = quota({ plan: 'pro', limit: 100_000, used: 10 });
    const { requests } = serveExport(exportItems(3), [fails(403, 'plan_forbidden', { quota: q })]);
    const exp = client({ onQuota }).exports.listings();
    const { error } = await settle(collect(exp));
    expect(error).toBeInstanceOf(PlanForbiddenError);
    expect(error).toMatchObject({ status: 403, code: 'plan_forbidden', requestId: 'req_plan_forbidden' });
    expect(requests).toHaveLength(1);
    expect(onQuota).toHaveBeenCalledWith(q);

    // withResponse() tells the same before anything is read.
    serveExport(exportItems(3), [fails(403, 'plan_forbidden')]);
    const { error: early } = await settle(client().exports.listings().withResponse());
    expect(early).toBeInstanceOf(PlanForbiddenError);
  });

  it('400 validation_error is a ValidationError with the fields at fault', async () => {
    serveExport([], [fails(400, 'validation_error', { errors: [{ path: 'sort', message: 'is not a known parameter' }] })]);
    const { error } = await settle(collect(client().exports.listings({ sort: 'price' } as never)));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors.map((e) => e.path)).toEqual(['sort']);
  });

  it('429 rate_limited and 503 are retried within the same maxRetries budget', async () => {
    const items = exportItems(6);
    const { requests } = serveExport(items, [
      fails(429, 'rate_limited', { headers: { 'Retry-After': '1' } }),
      fails(503, 'unavailable'),
      { lines: 2, halfLine: true },
      fails(503, 'unavailable'),
    ]);
    const { value, error } = await settle(collect(client({ maxRetries: 2 }).exports.listings()));
    expect(error).toBeUndefined();
    expect(ids(value!)).toEqual(ids(items));
    expect(requests).toHaveLength(5);

    serveExport(items, [fails(503, 'unavailable'), fails(503, 'unavailable'), fails(503, 'unavailable')]);
    const { error: spent } = await settle(collect(client({ maxRetries: 2 }).exports.listings()));
    expect(spent).toBeInstanceOf(ServerError);

    serveExport(items, [fails(429, 'rate_limited', { headers: { 'Retry-After': '1' } })]);
    const { error: limited } = await settle(collect(client({ maxRetries: 0 }).exports.listings()));
    expect(limited).toBeInstanceOf(RateLimitError);
  });

  it('a 200 that is not NDJSON is an invalid_response, not retried', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/exports/listings`, () => {
        calls++;
        return new HttpResponse('<html>portal</html>', { headers: { 'Content-Type': 'text/html' } });
      }),
    );
    const { error } = await settle(collect(client().exports.listings()));
    expect(error).toBeInstanceOf(MboaError);
    expect(error).toMatchObject({ code: 'invalid_response', status: 200 });
    expect(calls).toBe(1);
  });

  it('a complete line that is not a listing is an invalid_response, not a resume', async () => {
    let calls = 0;
    server.use(
      http.get(`${API}/exports/listings`, () => {
        calls++;
        return new HttpResponse(`${JSON.stringify(exportItems(1)[0])}\n<oops>\n`, {
          headers: { ...EXPORT_HEADERS, 'X-Request-Id': 'req_bad' },
        });
      }),
    );
    const { error } = await settle(collect(client().exports.listings()));
    expect(error).toMatchObject({ code: 'invalid_response', requestId: 'req_bad' });
    expect(calls).toBe(1);
  });
});

describe('exports.listings: stopping', () => {
  it('breaking out of the loop stops it; a new loop continues after lastId', async () => {
    const items = exportItems(20);
    const { requests } = serveExport(items);
    const exp = client().exports.listings();
    const first: Listing[] = [];
    await settle(
      (async () => {
        for await (const l of exp) {
          first.push(l);
          if (first.length === 7) break;
        }
      })(),
    );
    expect(exp.lastId).toBe(items[6]!.id);

    const { value: rest } = await settle(collect(exp));
    expect(ids([...first, ...rest!])).toEqual(ids(items));
    expect(requests[1]!.query.after).toBe(items[6]!.id);
  });

  it('the signal stops the export mid-stream, without resuming', async () => {
    const { requests } = serveExport(exportItems(20), [{ lines: 5, stall: true }]);
    const controller = new AbortController();
    const exp = client().exports.listings({}, { signal: controller.signal });
    const seen: Listing[] = [];
    const run = settle(
      (async () => {
        for await (const l of exp) {
          seen.push(l);
          if (seen.length === 5) setTimeout(() => controller.abort(), 10);
        }
      })(),
    );
    const { error } = await run;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(seen).toHaveLength(5);
    expect(requests).toHaveLength(1);
  });

  it('two loops over one export at once are refused', async () => {
    serveExport(exportItems(20), [{ lines: 5, stall: true }]);
    const exp = client({ timeout: 500, maxRetries: 0 }).exports.listings();
    const a = exp[Symbol.asyncIterator]();
    await settle(a.next());
    const { error } = await settle(exp[Symbol.asyncIterator]().next());
    expect(error).toMatchObject({ code: 'invalid_argument' });
    await a.return?.(undefined);
  });
});
