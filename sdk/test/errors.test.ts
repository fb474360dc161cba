import { HttpResponse, http } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIError,
  AccountSuspendedError,
  AuthenticationError,
  BadRequestError,
  EmailUnverifiedError,
  HeadersTooLargeError,
  InternalServerError,
  InvalidApiKeyError,
  InvalidCursorError,
  MalformedRequestError,
  Mboa,
  MboaError,
  MethodNotAllowedError,
  MissingApiKeyError,
  NotFoundError,
  PermissionDeniedError,
  PlanForbiddenError,
  QuotaExceededError,
  RateLimitError,
  RequestTimeoutError,
  ServerError,
  ServiceUnavailableError,
  ValidationError,
} from '../src/index.js';
import type { ErrorCode } from '../src/types.js';
import { API, BASE, KEY, client, listing, ping, problem, quota, server, useMockServer } from './helpers.js';

useMockServer();

afterEach(() => {
  vi.unstubAllEnvs();
});

const cases: Array<[ErrorCode, number, abstract new (...args: never[]) => APIError, Array<abstract new (...args: never[]) => Error>]> = [
  ['validation_error', 400, ValidationError, [BadRequestError]],
  ['malformed_request', 400, MalformedRequestError, [BadRequestError]],
  ['invalid_cursor', 400, InvalidCursorError, [BadRequestError]],
  ['missing_api_key', 401, MissingApiKeyError, [AuthenticationError]],
  ['invalid_api_key', 401, InvalidApiKeyError, [AuthenticationError]],
  ['plan_forbidden', 403, PlanForbiddenError, [PermissionDeniedError]],
  ['account_suspended', 403, AccountSuspendedError, [PermissionDeniedError]],
  ['email_unverified', 403, EmailUnverifiedError, [PermissionDeniedError]],
  ['not_found', 404, NotFoundError, []],
  ['method_not_allowed', 405, MethodNotAllowedError, []],
  ['request_timeout', 408, RequestTimeoutError, []],
  ['rate_limited', 429, RateLimitError, []],
  ['quota_exceeded', 429, QuotaExceededError, []],
  ['headers_too_large', 431, HeadersTooLargeError, []],
  ['internal_error', 500, InternalServerError, [ServerError]],
  ['unavailable', 503, ServiceUnavailableError, [ServerError]],
];

describe('error classes', () => {
  it.each(cases)('%s (%i) throws %o', async (code, status, Class, parents) => {
    const q = quota({ used: 42 });
    server.use(http.get(`${API}/market/stats`, () => problem(status, code, { quota: q, headers: { 'X-Should-Retry': 'false' } })));
    const error = await client()
      .market.stats()
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(Class);
    for (const Parent of parents) expect(error).toBeInstanceOf(Parent);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(MboaError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: Class.name,
      status,
      code,
      requestId: `req_${code}`,
      meta: { request_id: `req_${code}`, quota: q },
      quota: q,
      title: code,
      detail: `detail of ${code}`,
      message: `${status} ${code}: detail of ${code}`,
    });
    expect((error as APIError).headers['x-request-id']).toBe(`req_${code}`);
  });

  it('ValidationError carries the field errors', async () => {
    const errors = [
      { path: 'limit', message: 'must be between 1 and 200' },
      { path: 'colour', message: 'is not a known parameter' },
    ];
    server.use(http.get(`${API}/listings`, () => problem(400, 'validation_error', { errors })));
    const error = await client()
      .listings.search({ limit: 500 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual(errors);
  });

  it('RateLimitError and QuotaExceededError say when to come back', async () => {
    server.use(http.get(`${API}/ping`, () => problem(429, 'rate_limited', { headers: { 'Retry-After': '3600' } })));
    const rate = await client({ maxRetries: 0 })
      .ping()
      .catch((e: unknown) => e);
    expect(rate).toMatchObject({ retryAfter: 3600 });

    const q = quota({ used: 10_000, remaining: 0 });
    server.use(
      http.get(`${API}/ping`, () =>
        problem(429, 'quota_exceeded', { quota: q, headers: { 'Retry-After': '86400', 'X-Should-Retry': 'false' } }),
      ),
    );
    const exceeded = await client()
      .ping()
      .catch((e: unknown) => e);
    expect(exceeded).toMatchObject({ retryAfter: 86400, resetsAt: q.resets_at });
  });

  it('takes the request id from the header when the body has none', async () => {
    server.use(http.get(`${API}/ping`, () => new HttpResponse('Bad Gateway', { status: 502, headers: { 'X-Request-Id': 'req_gateway' } })));
    const error = await client({ maxRetries: 0 })
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, code: 'internal_error', requestId: 'req_gateway', detail: 'Bad Gateway', meta: undefined });
  });

  it('falls back on the status for unknown codes and bodies', async () => {
    server.use(http.get(`${API}/ping`, () => HttpResponse.json({ message: 'no' }, { status: 403 })));
    const error = await client()
      .ping()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).not.toBeInstanceOf(PlanForbiddenError);

    server.use(http.get(`${API}/ping`, () => new HttpResponse(null, { status: 405 })));
    const other = await client()
      .ping()
      .catch((e: unknown) => e);
    expect(other).toBeInstanceOf(APIError);
    expect(other).toMatchObject({ status: 405, code: 'http_405' });
  });

  it('a 2xx that is not JSON is an invalid_response', async () => {
    server.use(http.get(`${API}/ping`, () => new HttpResponse('<html>portal</html>', { status: 200 })));
    await expect(client().ping()).rejects.toMatchObject({ code: 'invalid_response', status: 200 });
  });
});

describe('client configuration', () => {
  it('requires an API key, from the options or MBOA_API_KEY', () => {
    vi.stubEnv('MBOA_API_KEY', '');
    expect(() => new Mboa({ baseUrl: BASE })).toThrow(MboaError);
    expect(() => new Mboa({ baseUrl: BASE })).toThrow(/MBOA_API_KEY/);
    vi.stubEnv('MBOA_API_KEY', KEY);
    expect(() => new Mboa({ baseUrl: BASE })).not.toThrow();
  });

  it('sends the key in X-API-Key, from the environment when not given', async () => {
    vi.stubEnv('MBOA_API_KEY', 'mboa_live_from_env');
    vi.stubEnv('MBOA_BASE_URL', BASE);
    let headers: Headers | undefined;
    server.use(
      http.get(`${API}/ping`, ({ request }) => {
        headers = request.headers;
        return ping();
      }),
    );
    await new Mboa().ping();
    expect(headers?.get('x-api-key')).toBe('mboa_live_from_env');
    expect(headers?.get('accept')).toBe('application/json');
    expect(headers?.get('user-agent')).toMatch(/^mboa-sdk-js\/\d+\.\d+\.\d+/);
  });

  it('defaults to the production API, then MBOA_BASE_URL, then the option; accepts a base URL with or without /api/v1', () => {
    vi.stubEnv('MBOA_BASE_URL', '');
    expect(new Mboa({ apiKey: KEY }).baseUrl).toBe('https://api.mboa.cm');
    vi.stubEnv('MBOA_BASE_URL', 'http://127.0.0.1:8080/');
    expect(new Mboa({ apiKey: KEY }).baseUrl).toBe('http://127.0.0.1:8080');
    expect(new Mboa({ apiKey: KEY, baseUrl: 'https://staging.example.cm' }).baseUrl).toBe('https://staging.example.cm');
    vi.stubEnv('MBOA_BASE_URL', '');
    expect(new Mboa({ apiKey: KEY, baseUrl: 'https://api.example.cm/' }).baseUrl).toBe('https://api.example.cm');
    expect(new Mboa({ apiKey: KEY, baseUrl: 'https://api.example.cm/api/v1/' }).baseUrl).toBe('https://api.example.cm');
    expect(new Mboa({ apiKey: KEY, baseUrl: 'https://example.cm/mboa' }).baseUrl).toBe('https://example.cm/mboa');
    expect(() => new Mboa({ apiKey: KEY, baseUrl: 'localhost:3000' })).toThrow(/baseUrl/);
  });

  it('refuses nonsense options', () => {
    expect(() => client({ timeout: 0 })).toThrow(/timeout/);
    expect(() => client({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => client({ maxRetries: 1.5 })).toThrow(/maxRetries/);
    expect(() => client({ quotaWarningAt: 90 })).toThrow(/quotaWarningAt/);
  });

  it('refuses nonsense per-call options before sending anything', async () => {
    await expect(client().ping({ maxRetries: Infinity })).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(client().ping({ timeout: -5 })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('does not show the key when the client is logged', async () => {
    const { inspect } = await import('node:util');
    expect(inspect(client(), { depth: 5 })).not.toContain(KEY);
  });

  it('encodes the listing id and refuses an empty one', async () => {
    let path = '';
    server.use(
      http.get(`${API}/listings/:id`, ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json({ data: { ...listing(1), price_history: [] }, meta: { quota: quota(), request_id: 'r' } });
      }),
    );
    await client().listings.get('lst_a/b');
    expect(path).toBe('/api/v1/listings/lst_a%2Fb');
    await expect(client().listings.get('')).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});
