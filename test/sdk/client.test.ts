/**
 * The SDK against the real server over HTTP, on the seeded test database: a whole search
 * walked page by page against `meta.total`, resuming from a cursor, the incremental-sync
 * feed, the market endpoints, quota tracking, and each error class produced by the server
 * itself (so the SDK's mapping follows what the server really sends).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  InvalidApiKeyError,
  InvalidCursorError,
  Mboa,
  MboaError,
  NotFoundError,
  PermissionDeniedError,
  PlanForbiddenError,
  QuotaExceededError,
  RateLimitError,
  ValidationError,
  type ClientOptions,
  type Listing,
  type LogDetails,
  type Quota,
} from '@mboa/sdk';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let mboa: Mboa;

/** A client of the test server; `maxRetries: 0` so a test never sleeps through a backoff unawares. */
function client(key: string, options: ClientOptions = {}): Mboa {
  return new Mboa({ apiKey: key, baseUrl: t.baseUrl, maxRetries: 0, ...options });
}

/** A fetch that counts the requests it sends. */
function countingFetch() {
  const calls: string[] = [];
  const fetchImpl = (url: string, init: RequestInit) => {
    calls.push(url);
    return fetch(url, init);
  };
  return { calls, fetch: fetchImpl };
}

beforeAll(async () => {
  t = await startTestServer();
  // Enterprise: no per-minute limit while walking thousands of listings.
  mboa = client(t.keys.enterprise);
});
afterAll(() => t?.close());

describe('listings.search', () => {
  it('walks every page of a search, and the count matches meta.total', async () => {
    const first = await mboa.listings.search({ city: 'Douala', limit: 50 });
    const total = first.meta.total;
    expect(total).toBeGreaterThan(100);

    const ids: string[] = [];
    for await (const listing of mboa.listings.search({ city: 'douala', limit: 50 })) {
      expect(listing.city).toBe('Douala');
      expect(listing.status).toBe('active');
      ids.push(listing.id);
    }
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });

  it('walks every listing, removed ones included, with toArray', async () => {
    const first = await mboa.listings.search({ status: 'any', limit: 200 });
    const all = await mboa.listings.search({ status: 'any', limit: 200 }).toArray({ max: first.meta.total + 1000 });
    expect(all).toHaveLength(first.meta.total);
    expect(all.some((l) => l.status !== 'active')).toBe(true);
    expect(await mboa.listings.search({ status: 'any', limit: 200 }).toArray({ max: 250 })).toHaveLength(250);
  });

  it('pages with getNextPage and iterPages, and resumes from a saved cursor', async () => {
    const params = { city: 'Yaoundé', purpose: 'rent', sort: 'price', limit: 20 } as const;
    const everything = await mboa.listings.search(params).toArray({ max: 10_000 });

    const first = await mboa.listings.search(params);
    expect(first.hasNextPage()).toBe(true);
    const second = await first.getNextPage();
    expect(second.data[0]?.id).toBe(everything[20]?.id);

    // Stop after two pages, keep the cursor, pick up later with the same parameters.
    const saved = second.meta.next_cursor;
    expect(saved).toEqual(expect.any(String));
    const rest: Listing[] = [];
    let pages = 0;
    for await (const page of mboa.listings.search({ ...params, cursor: saved! }).iterPages()) {
      rest.push(...page.data);
      pages++;
    }
    expect([...first.data, ...second.data, ...rest].map((l) => l.id)).toEqual(everything.map((l) => l.id));
    expect(pages).toBe(Math.ceil((everything.length - 40) / 20));
    // Sorted by price, as asked.
    expect(everything.map((l) => l.price)).toEqual([...everything.map((l) => l.price)].sort((a, b) => a - b));
  });

  it('serves the incremental-sync feed: changes after an instant, oldest first, removals included', async () => {
    const all = await mboa.listings.search({ status: 'any', sort: 'updated_at', limit: 200 }).toArray({ max: 100_000 });
    const since = all[Math.floor(all.length / 2)]!.updated_at;
    const changed = await mboa.listings
      .search({ updated_after: since, sort: 'updated_at', status: 'any', limit: 200 })
      .toArray({ max: 100_000 });
    expect(changed.length).toBe(all.filter((l) => Date.parse(l.updated_at) > Date.parse(since)).length);
    expect(changed.every((l) => Date.parse(l.updated_at) > Date.parse(since))).toBe(true);
    const times = changed.map((l) => Date.parse(l.updated_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});

describe('listings.get, market, ping', () => {
  it('gets a listing with its price history', async () => {
    const [listing] = (await mboa.listings.search({ limit: 1 })).data;
    const { data, meta } = await mboa.listings.get(listing!.id);
    expect(data).toMatchObject({ id: listing!.id, price: listing!.price });
    expect(data.price_history.at(-1)?.price).toBe(data.price);
    expect(meta.request_id).toMatch(/^req_/);
  });

  it('reads market stats and trends on the Pro plan', async () => {
    const pro = client(t.keys.pro);
    const stats = await pro.market.stats({ city: 'Douala', purpose: 'sale' });
    expect(stats.data).toHaveLength(1);
    expect(stats.data[0]).toMatchObject({ city: 'Douala', purpose: 'sale', currency: 'XAF' });
    const trends = await pro.market.trends({ city: 'Douala' });
    expect(trends.data.length).toBeGreaterThan(0);
    expect(trends.meta.returned).toBe(trends.data.length);
  });

  it('tracks the quota: counted calls raise `used`, ping does not', async () => {
    const { key } = await t.account('pro');
    const seen: Quota[] = [];
    const fresh = client(key, { onQuota: (q) => seen.push(q) });
    const pong = await fresh.ping();
    expect(pong.data.status).toBe('ok');
    expect(pong.meta.quota).toMatchObject({ plan: 'pro', used: 0, limit: 100_000, remaining: 100_000 });
    await fresh.listings.search({ limit: 1 });
    await fresh.market.stats();
    await fresh.ping();
    expect(seen.map((q) => q.used)).toEqual([0, 1, 2, 2]);
    expect(fresh.quota).toMatchObject({ used: 2, remaining: 99_998 });
  });
});

describe('withResponse, headers and logging against the server', () => {
  it('withResponse gives the status, the quota headers and the request id of the body', async () => {
    const pro = client(t.keys.pro);
    const stats = await pro.market.stats({ city: 'Douala' }).withResponse();
    expect(stats.status).toBe(200);
    expect(stats.requestId).toMatch(/^req_/);
    expect(stats.requestId).toBe(stats.data.meta.request_id);
    expect(Number(stats.headers['x-quota-remaining'])).toBe(stats.data.meta.quota.remaining);
    expect(stats.headers['ratelimit-policy']).toBe('"minute";q=300;w=60');

    const first = await mboa.listings.search({ city: 'Douala', limit: 5 }).withResponse();
    expect(first.data.data).toHaveLength(5);
    expect(first.headers['x-quota-limit']).toBe('unlimited');
    const second = await first.data.getNextPage();
    expect(second.response.requestId).toBe(second.meta.request_id);
    expect(second.response.requestId).not.toBe(first.requestId);
  });

  it('sends defaultHeaders and a call’s headers: the server keeps a caller’s X-Request-Id', async () => {
    const tagged = client(t.keys.enterprise, {
      defaultHeaders: { 'X-Request-Id': 'nightly-sync-0001' },
      appInfo: { name: 'sync', version: '2.0.0' },
    });
    const { requestId, data } = await tagged.ping().withResponse();
    expect(requestId).toBe('nightly-sync-0001');
    expect(data.meta.request_id).toBe('nightly-sync-0001');
    const own = await tagged.ping({ headers: { 'X-Request-Id': 'nightly-sync-0002' } }).withResponse();
    expect(own.requestId).toBe('nightly-sync-0002');
  });

  it('debug logging shows each call with the server’s request id, and never the key', async () => {
    const lines: { message: string; details: LogDetails }[] = [];
    const logged = client(t.keys.pro, { logLevel: 'debug', logger: { debug: (message, details) => lines.push({ message, details }) } });
    const { meta } = await logged.listings.search({ city: 'Kribi', limit: 3 });
    await logged.market.trends({ city: 'Kribi' });
    expect(lines).toHaveLength(2);
    expect(lines[0]!.details).toMatchObject({ event: 'response', method: 'GET', status: 200, requestId: meta.request_id, attempt: 1 });
    expect(lines[0]!.details.url).toBe(`${t.baseUrl}/api/v1/listings?city=Kribi&limit=3`);
    expect(JSON.stringify(lines)).not.toContain(t.keys.pro);
  });
});

describe('lists and marked answers', () => {
  it('sends an array of purposes as one list, and reads meta.dataset', async () => {
    const both = await mboa.listings.search({ city: 'Douala', purpose: ['rent', 'furnished_rent'], limit: 1 });
    const rent = await mboa.listings.search({ city: 'Douala', purpose: 'rent', limit: 1 });
    const furnished = await mboa.listings.search({ city: 'Douala', purpose: 'furnished_rent', limit: 1 });
    expect(both.meta.total).toBe(rent.meta.total + furnished.meta.total);
    expect(both.meta.dataset).toBe('live');
    const stats = await mboa.market.stats({ city: 'Douala', purpose: ['sale', 'rent'], type: ['villa', 'house'] });
    expect(new Set(stats.data.map((r) => r.purpose))).toEqual(new Set(['sale', 'rent']));
  });
});

describe('errors from the real server', () => {
  /** Runs `call` and returns what it threw. */
  async function thrown(call: () => Promise<unknown>): Promise<MboaError> {
    const error = await call().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MboaError);
    const e = error as MboaError & { headers?: Record<string, string> };
    // The request id of the body and of the header agree.
    if (e.status) expect(e.requestId).toBe(e.headers?.['x-request-id']);
    return e;
  }

  it('no key: refused by the client, and by the server with AuthenticationError missing_api_key', async () => {
    expect(() => new Mboa({ apiKey: '', baseUrl: t.baseUrl })).toThrow(/MBOA_API_KEY/);
    // A fetch that drops the header, to see the server's own answer.
    const keyless = client('unused', {
      fetch: (url, init) => {
        const headers = { ...(init.headers as Record<string, string>) };
        delete headers['X-API-Key'];
        return fetch(url, { ...init, headers });
      },
    });
    const e = await thrown(() => keyless.ping());
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e).toMatchObject({ status: 401, code: 'missing_api_key' });
  });

  it('bad key: AuthenticationError invalid_api_key', async () => {
    const e = await thrown(() => client('mboa_live_00000000000000000000000000000000').listings.search());
    expect(e).toBeInstanceOf(AuthenticationError);
    expect(e).toBeInstanceOf(InvalidApiKeyError);
    expect(e).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(e.requestId).toMatch(/^req_/);
  });

  it('starter on trends: PlanForbiddenError, a PermissionDeniedError, naming the plans', async () => {
    const e = await thrown(() => client(t.keys.starter).market.trends());
    expect(e).toBeInstanceOf(PlanForbiddenError);
    expect(e).toBeInstanceOf(PermissionDeniedError);
    expect(e).toMatchObject({ status: 403, code: 'plan_forbidden' });
    expect(e.message).toMatch(/Pro/);
  });

  it('unknown id: NotFoundError', async () => {
    const e = await thrown(() => mboa.listings.get('lst_zzzzzzzzzzzzzzzzzzzz'));
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('bad limit or unknown parameter: ValidationError with the fields at fault', async () => {
    const e = (await thrown(() => mboa.listings.search({ limit: 500 }))) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e).toMatchObject({ status: 400, code: 'validation_error' });
    expect(e.errors.map((f) => f.path)).toEqual(['limit']);

    const typo = (await thrown(() => mboa.listings.search({ citty: 'Douala' } as never))) as ValidationError;
    expect(typo.errors.map((f) => f.path)).toEqual(['citty']);
  });

  it('tampered cursor, or a cursor reused with other filters: InvalidCursorError', async () => {
    const page = await mboa.listings.search({ city: 'Douala', limit: 5 });
    const cursor = page.meta.next_cursor!;
    const tampered = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BB' : 'AA'}`;
    const e = await thrown(() => mboa.listings.search({ city: 'Douala', limit: 5, cursor: tampered }));
    expect(e).toBeInstanceOf(InvalidCursorError);
    expect(e).toMatchObject({ status: 400, code: 'invalid_cursor' });

    const reused = await thrown(() => mboa.listings.search({ city: 'Kribi', limit: 5, cursor }));
    expect(reused).toBeInstanceOf(InvalidCursorError);
  });

  it('over the monthly quota: QuotaExceededError, sent once and never retried', async () => {
    const { key } = await t.account('starter', { monthlyQuota: 1 });
    const counter = countingFetch();
    const limited = client(key, { maxRetries: 3, fetch: counter.fetch });
    await limited.listings.search({ limit: 1 });
    const e = (await thrown(() => limited.listings.search({ limit: 1 }))) as QuotaExceededError;
    expect(e).toBeInstanceOf(QuotaExceededError);
    expect(e).toMatchObject({ status: 429, code: 'quota_exceeded' });
    expect(e.retryAfter).toBeGreaterThan(0);
    expect(e.resetsAt).toBe(limited.quota?.resets_at);
    expect(counter.calls).toHaveLength(2);
    expect(limited.quota).toMatchObject({ used: 1, remaining: 0 });
  });

  it('over the per-minute limit: RateLimitError with retryAfter', async () => {
    const { key } = await t.account('starter', { rateLimit: 1 });
    const limited = client(key);
    await limited.market.stats();
    const e = (await thrown(() => limited.market.stats())) as RateLimitError;
    expect(e).toBeInstanceOf(RateLimitError);
    expect(e).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(e.retryAfter).toBeGreaterThanOrEqual(1);
    expect(e.retryAfter).toBeLessThanOrEqual(60);
    // ping still answers, and shows the spent window.
    const { headers } = await limited.ping().withResponse();
    expect(headers['x-ratelimit-remaining']).toBe('0');
  });

  it('nothing listening: ConnectionError', async () => {
    const e = await thrown(() => new Mboa({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 }).ping());
    expect(e).toBeInstanceOf(ConnectionError);
    expect(e).toMatchObject({ code: 'connection_error', status: undefined });
  });
});
