/** A fake Mboa API (msw) and bodies shaped like the real one, for the SDK's unit tests. */
import { HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { Mboa, type ClientOptions } from '../src/index.js';
import type { ErrorCode, Listing, Quota } from '../src/types.js';

export const BASE = 'http://mboa.test';
export const API = `${BASE}/api/v1`;
export const KEY = 'mboa_live_0123456789abcdefghijklmnopqrstuv';

export const server = setupServer();

/** Starts msw for the calling test file; unhandled requests fail the test. */
export function useMockServer(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
}

/** A client of the fake API; retries and quota options as the test needs. */
export function client(options: ClientOptions = {}): Mboa {
  return new Mboa({ apiKey: KEY, baseUrl: BASE, ...options });
}

export function quota(overrides: Partial<Quota> = {}): Quota {
  return { plan: 'starter', limit: 10_000, used: 1234, remaining: 8766, resets_at: '2026-12-01T00:00:00.000Z', ...overrides };
}

export function listing(n: number, overrides: Partial<Listing> = {}): Listing {
  return {
    id: `lst_${String(n).padStart(20, '0')}`,
    title: `Villa ${n} à Bonapriso`,
    price: 100_000_000 + n,
    currency: 'XAF',
    city: 'Douala',
    neighborhood: 'Bonapriso',
    surface: 300,
    bedrooms: 4,
    bathrooms: 3,
    type: 'villa',
    purpose: 'sale',
    price_per_m2: 333_333,
    status: 'active',
    listed_at: '2026-11-01T10:00:00.000Z',
    listed_at_precision: 'day',
    updated_at: '2026-11-02T10:00:00.000Z',
    removed_at: null,
    days_on_market: 21,
    location: { lat: 4.0152, lng: 9.6934, precision: 'neighborhood' },
    furnished: null,
    advance_months: null,
    deposit_months: null,
    land_title: 'unknown',
    standing: null,
    ...overrides,
  };
}

/** A 200 page of the listing search. */
export function page(items: Listing[], next: string | null, extra: { total?: number; limit?: number; quota?: Quota } = {}) {
  return HttpResponse.json(
    {
      data: items,
      meta: {
        total: extra.total ?? items.length,
        returned: items.length,
        limit: extra.limit ?? 20,
        next_cursor: next,
        has_more: next !== null,
        quota: extra.quota ?? quota(),
        request_id: 'req_page',
      },
    },
    { headers: { 'X-Request-Id': 'req_page' } },
  );
}

/** A problem+json error as the API sends it. */
export function problem(
  status: number,
  code: ErrorCode,
  options: { headers?: Record<string, string>; errors?: { path: string; message: string }[]; quota?: Quota; requestId?: string } = {},
) {
  const requestId = options.requestId ?? `req_${code}`;
  const body: JsonBodyType = {
    type: `https://docs.mboa.cm/errors/${code}`,
    title: code,
    status,
    detail: `detail of ${code}`,
    code,
    ...(options.errors ? { errors: options.errors } : {}),
    meta: { request_id: requestId, ...(options.quota ? { quota: options.quota } : {}) },
  };
  return HttpResponse.json(body, {
    status,
    headers: { 'Content-Type': 'application/problem+json', 'X-Request-Id': requestId, ...options.headers },
  });
}

/** A 200 ping. */
export function ping(q: Quota = quota()) {
  return HttpResponse.json({
    data: { status: 'ok', time: '2026-11-22T10:00:00.000Z', version: '0.1.0' },
    meta: { quota: q, request_id: 'req_ping' },
  });
}
