/**
 * The OpenAPI document says what the server does: every answer of every route, errors
 * included (400, 401, 403, 404, 405, 429, 500, 503), validates against it with an
 * independent validator (Ajv), headers included; its examples are bodies the contract
 * accepts; every documented parameter is accepted; and it lints clean under Redocly's
 * recommended rules.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZProblem } from '../../contract/errors.js';
import { buildOpenApiDocument } from '../../contract/openapi.js';
import type { AppRoute } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { SUCCESS_EXAMPLES } from '../../contract/openapi/examples.js';
import { PROBLEM_EXAMPLES } from '../../contract/openapi/problem-examples.js';
import { contract, type RouteMetadata } from '../../contract/router.js';
import { ZMarketStat } from '../../contract/schemas.js';
import { createLogger } from '../../server/platform/logger.js';
import { createServer } from '../../server/start/create-server.js';
import { type Answer, OpenApiValidator } from '../helpers/openapi-validator.js';
import { ROUTE_CASES } from '../helpers/routes.js';
import { startTestServer, TEST_SECRETS, type TestServer } from '../helpers/server.js';

let t: TestServer;
let validator: OpenApiValidator;
let listingId: string;
let removedId: string;
/** A saved search and a webhook endpoint of the Enterprise key, kept for the reads of their paths. */
let savedSearchId: string;
let webhookId: string;
const answers: Array<Answer & { expected: number }> = [];

interface CallOptions {
  key?: string;
  method?: string;
  expected: number;
  /** Sent as JSON, or as given with `type`. */
  body?: unknown;
  type?: string;
}

async function call(baseUrl: string, path: string, opts: CallOptions): Promise<unknown> {
  const text = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const res = await fetch(`${baseUrl}${path}`, {
    method: opts.method ?? 'GET',
    headers: {
      ...(opts.key ? { 'X-API-Key': opts.key } : {}),
      ...(opts.body === undefined ? {} : { 'Content-Type': opts.type ?? 'application/json' }),
    },
    body: opts.body === undefined ? undefined : text,
  });
  const answer = await res.text();
  let body: unknown = answer;
  try {
    body = JSON.parse(answer);
  } catch {
    /* not JSON: the validator reports it */
  }
  answers.push({ method: opts.method ?? 'GET', url: path, status: res.status, headers: res.headers, body, expected: opts.expected });
  return body;
}

/** Every route of the contract. */
function contractRoutes(node: Record<string, unknown> = contract as unknown as Record<string, unknown>): AppRoute[] {
  return Object.values(node).flatMap((v) =>
    v && typeof v === 'object' && 'method' in v && 'path' in v ? [v as AppRoute] : contractRoutes(v as Record<string, unknown>),
  );
}

const templateOf = (route: AppRoute) => route.path.replace(/:(\w+)/g, '{$1}');

type Operation = {
  operationId: string;
  parameters: Array<{ name: string; in: string; required?: boolean; example?: unknown; description: string }>;
  requestBody?: { required: boolean; content: Record<string, { schema: object; examples: Record<string, { value: unknown }> }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { examples?: object; example?: unknown }> }>;
};

/** Every operation of the document, with its path and method. */
function operationsOf(document: { paths: object }): Array<{ template: string; method: string; op: Operation }> {
  return Object.entries(document.paths as Record<string, Record<string, Operation>>).flatMap(([template, item]) =>
    Object.entries(item).map(([method, op]) => ({ template, method, op })),
  );
}

/** A concrete path for a template: the ids of this database's listing, saved search and webhook endpoint. */
const concrete = (template: string) =>
  template.replace(
    '{id}',
    template.startsWith('/api/v1/saved-searches')
      ? savedSearchId
      : template.startsWith('/api/v1/webhook-endpoints')
        ? webhookId
        : listingId,
  );

/**
 * The writes and the reads of saved searches, webhook endpoints and valuation batches, with
 * the refusals only a body has (413, 415), an unknown id (404), a method a path does not
 * answer (405) and a creation outside the plan (403).
 */
async function callWrites(base: string, keys: { starter: string; enterprise: string }) {
  const key = keys.enterprise;
  const search = { name: 'Flats in Douala', filters: { city: 'Douala', type: ['apartment', 'studio'], min_bedrooms: 2 } };
  const created = (await call(base, '/api/v1/saved-searches', { key, method: 'POST', body: search, expected: 201 })) as {
    data: { id: string };
  };
  savedSearchId = created.data.id;
  const ss = `/api/v1/saved-searches/${savedSearchId}`;
  await call(base, '/api/v1/saved-searches', { key, expected: 200 });
  await call(base, ss, { key, expected: 200 });
  await call(base, ss, { key, method: 'PATCH', body: { name: 'Flats and studios in Douala' }, expected: 200 });
  await call(base, `${ss}/listings?limit=2&currency=EUR`, { key, expected: 200 });
  const gone = (await call(base, '/api/v1/saved-searches', { key, method: 'POST', body: search, expected: 201 })) as {
    data: { id: string };
  };
  await call(base, `/api/v1/saved-searches/${gone.data.id}`, { key, method: 'DELETE', expected: 200 });
  await call(base, `/api/v1/saved-searches/${gone.data.id}`, { key, expected: 404 });
  await call(base, '/api/v1/saved-searches', { key, method: 'PUT', body: search, expected: 405 });
  await call(base, '/api/v1/saved-searches', { key, method: 'POST', body: 'name=x', type: 'text/plain', expected: 415 });
  await call(base, '/api/v1/saved-searches', { key, method: 'POST', body: { ...search, name: 'x'.repeat(20_000) }, expected: 413 });
  await call(base, '/api/v1/saved-searches', { key: keys.starter, method: 'POST', body: search, expected: 403 });

  const endpoint = { url: 'https://1.1.1.1/mboa', events: ['listing.created', 'saved_search.matched'], saved_searches: [savedSearchId] };
  const hook = (await call(base, '/api/v1/webhook-endpoints', { key, method: 'POST', body: endpoint, expected: 201 })) as {
    data: { id: string };
  };
  webhookId = hook.data.id;
  const we = `/api/v1/webhook-endpoints/${webhookId}`;
  await call(base, '/api/v1/webhook-endpoints', { key, expected: 200 });
  await call(base, `${we}/deliveries`, { key, expected: 200 });
  await call(base, `${we}/rotate-secret`, { key, method: 'POST', expected: 200 });
  await call(base, `${we}/deliveries/whd_aaaaaaaaaaaaaaaa/resend`, { key, method: 'POST', expected: 404 });
  await call(base, we, { key, method: 'GET', expected: 405 });
  const other = (await call(base, '/api/v1/webhook-endpoints', {
    key,
    method: 'POST',
    body: { url: 'https://1.1.1.1/other', events: ['listing.removed'] },
    expected: 201,
  })) as {
    data: { id: string };
  };
  await call(base, `/api/v1/webhook-endpoints/${other.data.id}`, { key, method: 'DELETE', expected: 200 });

  const subjects = [
    { city: 'Douala', type: 'apartment', purpose: 'rent' },
    { city: 'Doula', type: 'apartment', purpose: 'rent' },
  ];
  await call(base, '/api/v1/valuations/batch', { key, method: 'POST', body: { subjects }, expected: 200 });
  const lines = subjects.map((s) => JSON.stringify(s)).join('\n');
  await call(base, '/api/v1/valuations/batch', { key, method: 'POST', body: lines, type: 'application/x-ndjson', expected: 200 });
}

/** A second server whose reads of one table fail: a genuine 500 through the real chain. */
async function startFaultyServer(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const faulty = await startTestServer();
  // The API reads through pools of its own (api/read-pools.ts): every pool fails the read, until closed.
  const proto = pg.Pool.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const query = proto.query;
  proto.query = function (this: unknown, sql: unknown, ...rest: unknown[]) {
    return String(sql).includes('market_stats') ? Promise.reject(new Error('simulated fault')) : query.call(this, sql, ...rest);
  };
  return {
    baseUrl: faulty.baseUrl,
    close: async () => {
      proto.query = query;
      await faulty.close();
    },
  };
}

/** A server whose database cannot be reached. */
async function startServerWithoutDatabase(): Promise<{ baseUrl: string; close: () => Promise<void> }> {
  const server = await createServer({
    databaseUrl: 'postgresql://postgres@127.0.0.1:1/none',
    logger: createLogger('silent'),
    secrets: TEST_SECRETS,
  });
  const baseUrl = await server.listen(0, '127.0.0.1');
  return { baseUrl, close: () => server.close().then(() => undefined) };
}

beforeAll(async () => {
  t = await startTestServer();
  validator = new OpenApiValidator(buildOpenApiDocument({ version: '0.1.0' }));
  const ids = await t.db.pool.query<{ id: string; status: string }>(
    "(SELECT id, status FROM listings WHERE status = 'active' ORDER BY id LIMIT 1) UNION ALL (SELECT id, status FROM listings WHERE status <> 'active' ORDER BY id LIMIT 1)",
  );
  listingId = ids.rows.find((r) => r.status === 'active')!.id;
  removedId = ids.rows.find((r) => r.status !== 'active')!.id;
  const base = t.baseUrl;
  const { starter, pro, enterprise } = t.keys;

  // 200, on plans with and without a rate limit, in both currencies, first and last pages.
  const ok: Array<[string, string]> = [
    ['/api/v1/listings?city=Douala&limit=3', starter],
    ['/api/v1/listings?city=Douala&limit=3&currency=EUR', enterprise],
    ['/api/v1/listings?status=any&sort=updated_at&updated_after=2026-01-01T00:00:00%2B01:00&limit=2', pro],
    ['/api/v1/listings?city=Douala&neighborhood=Bonapriso&purpose=sale&type=villa&limit=200', enterprise],
    [`/api/v1/listings/${listingId}`, starter],
    [`/api/v1/listings/${removedId}?currency=EUR`, enterprise],
    ['/api/v1/market/stats', starter],
    ['/api/v1/market/stats?city=Douala&neighborhood=Bonapriso&type=villa', pro],
    ['/api/v1/market/stats?purpose=rent&currency=EUR', enterprise],
    ['/api/v1/market/trends?city=Douala', pro],
    ['/api/v1/market/trends?currency=EUR&purpose=sale', enterprise],
    ['/api/v1/ping', starter],
    ['/api/v1/ping', enterprise],
    ['/api/v1/exports/listings?city=Kribi&status=any', enterprise],
    ['/api/v1/exports/listings?city=Kribi&currency=EUR&after=lst_aaaaaaaaaaaaaaaaaaaa', enterprise],
  ];
  for (const [path, key] of ok) await call(base, path, { key, expected: 200 });

  // 400: malformed, out of range, unknown parameter or place, bad instant, bad cursor.
  const bad = [
    '/api/v1/listings?limit=0',
    '/api/v1/listings?city=Doula',
    '/api/v1/listings?listed_after=2026-01-01T00:00:00%2B99:99',
    '/api/v1/listings?min_price=1e3',
    '/api/v1/listings?cursor=garbage',
    `/api/v1/listings/${listingId}?verbose=1`,
    '/api/v1/listings/12345',
    '/api/v1/market/stats?town=Douala',
    '/api/v1/market/trends?city=Douala&neighborhood=Bonaprisso',
    '/api/v1/ping?verbose=1',
  ];
  for (const path of bad) await call(base, path, { key: enterprise, expected: 400 });

  const suspended = await t.account('enterprise');
  await t.db.prisma.account.update({ where: { id: suspended.id }, data: { status: 'suspended' } });
  for (const route of ROUTE_CASES) {
    const path = route.path(listingId);
    await call(base, path, { expected: 401 });
    await call(base, path, { key: `mboa_live_${'A'.repeat(32)}`, expected: 401 });
    await call(base, path, { key: suspended.key, expected: 403 });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      await call(base, path.split('?')[0], { key: enterprise, method, expected: 405 });
    // 429 rate_limited: one call a minute, the second refused (on a plan that has the route);
    // ping answers whatever the per-minute limit.
    const plan = route.metadata.plans.includes('pro') ? 'pro' : 'enterprise';
    const limited = await t.account(plan, { rateLimit: 1 });
    await call(base, path, { key: limited.key, expected: 200 });
    await call(base, path, { key: limited.key, expected: route.metadata.rateLimited ? 429 : 200 });
    // 429 quota_exceeded: one call a month (ping is never counted).
    if (route.metadata.counted) {
      const capped = await t.account(plan, { monthlyQuota: 1 });
      await call(base, path, { key: capped.key, expected: 200 });
      await call(base, path, { key: capped.key, expected: 429 });
    }
  }
  await call(base, '/api/v1/market/trends', { key: starter, expected: 403 });
  await callWrites(base, { starter, enterprise });

  // 404: no such listing, no such path, a trailing slash.
  await call(base, `/api/v1/listings/lst_${'a'.repeat(20)}`, { key: enterprise, expected: 404 });
  await call(base, '/api/v1/listing', { key: enterprise, expected: 404 });
  await call(base, '/api/v1/listings/', { key: enterprise, expected: 404 });

  // 500: a fault on our side, through the whole chain.
  const faulty = await startFaultyServer();
  try {
    await call(faulty.baseUrl, '/api/v1/market/stats?city=Douala', { key: starter, expected: 500 });
  } finally {
    await faulty.close();
  }

  // 503: the database cannot be reached.
  const down = await startServerWithoutDatabase();
  try {
    for (const route of ROUTE_CASES) await call(down.baseUrl, route.path(listingId), { key: enterprise, expected: 503 });
  } finally {
    await down.close();
  }
}, 120_000);
afterAll(() => t.close());

describe('every answer validates against the OpenAPI document', () => {
  it('covers every route and every documented error status', () => {
    expect(answers.length).toBeGreaterThan(80);
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].sort()).toEqual([200, 201, 400, 401, 403, 404, 405, 413, 415, 429, 500, 503]);
    for (const a of answers) expect(a.status, `${a.method} ${a.url}: ${JSON.stringify(a.body)}`).toBe(a.expected);
    const codes = new Set(answers.map((a) => (a.body as { code?: string }).code).filter(Boolean));
    for (const code of [
      'validation_error',
      'invalid_cursor',
      'missing_api_key',
      'invalid_api_key',
      'plan_forbidden',
      'account_suspended',
      'payload_too_large',
      'unsupported_media_type',
      'not_found',
      'method_not_allowed',
      'rate_limited',
      'quota_exceeded',
      'internal_error',
      'unavailable',
    ]) {
      expect(codes.has(code), code).toBe(true);
    }
  });

  it('body, media type and headers of each answer', () => {
    const failures = answers
      .map((a) => ({ a, problems: validator.check(a) }))
      .filter((r) => r.problems.length > 0)
      .map((r) => `${r.a.method} ${r.a.url} → ${r.a.status}: ${r.problems.join('; ')}`);
    expect(failures).toEqual([]);
  });

  it('would notice an undocumented field or header (the check is not vacuous)', () => {
    const sample = answers.find((a) => a.status === 200 && a.url.startsWith('/api/v1/listings?'))!;
    const body = structuredClone(sample.body) as { data: Array<Record<string, unknown>> };
    body.data[0].contact_phone = '+237 699 00 11 22';
    expect(validator.check({ ...sample, body })).toEqual([expect.stringContaining('additional properties')]);
    const headers = new Headers(sample.headers);
    headers.set('Allow', 'GET');
    expect(validator.check({ ...sample, headers })).toEqual(['header allow is sent but not documented for 200']);
    const problem = answers.find((a) => a.status === 429)!;
    const noRetry = new Headers(problem.headers);
    noRetry.delete('Retry-After');
    expect(validator.check({ ...problem, headers: noRetry })).toEqual(['required header retry-after is missing']);
  });
});

describe('the document', () => {
  const document = buildOpenApiDocument({ version: '0.1.0' });

  it('describes every route of the contract, with its method, under a unique operation id', () => {
    const routes = contractRoutes();
    const operations = operationsOf(document);
    for (const route of routes) {
      const template = templateOf(route);
      const item = (document.paths as Record<string, Record<string, unknown>>)[template];
      expect(item?.[route.method.toLowerCase()], `${route.method} ${template}`).toBeDefined();
    }
    // Nothing else: one operation per route.
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.template}`).sort()).toEqual(
      routes.map((r) => `${r.method} ${templateOf(r)}`).sort(),
    );
    const ids = operations.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
  });

  it('has an example on every response, each one a body the contract accepts', () => {
    for (const { template, method, op } of operationsOf(document)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (response.$ref) continue;
        for (const [type, media] of Object.entries(response.content ?? {})) {
          const examples = media.examples ?? (media.example === undefined ? {} : { example: media.example });
          expect(Object.keys(examples).length, `${method} ${template} ${status} ${type}`).toBeGreaterThan(0);
        }
      }
    }
    for (const route of contractRoutes()) {
      const { endpoint } = route.metadata as RouteMetadata;
      const status = Object.keys(route.responses).find((s) => s.startsWith('2'))!;
      const declared = (route.responses as Record<string, { body?: unknown; contentType?: string }>)[status];
      // An NDJSON answer's schema is one line's.
      const schema = (declared.contentType ? declared.body : declared) as ZodTypeAny;
      expect(Object.keys(SUCCESS_EXAMPLES[endpoint] ?? {}).length, endpoint).toBeGreaterThan(0);
      for (const [name, example] of Object.entries(SUCCESS_EXAMPLES[endpoint])) {
        const parsed = schema.safeParse(example.value);
        expect(parsed.success, `${endpoint} ${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      }
    }
    for (const [status, examples] of Object.entries(PROBLEM_EXAMPLES)) {
      expect(Object.keys(examples).length).toBeGreaterThan(0);
      for (const [name, example] of Object.entries(examples)) {
        expect(ZProblem.safeParse(example.value).success, name).toBe(true);
        expect((example.value as { status: number }).status).toBe(Number(status));
      }
    }
  });

  it('gives every route that reads a body its requestBody, each example valid against its schema and accepted by the route', () => {
    const bodies = new OpenApiValidator(document);
    const templates = new Map(contractRoutes().map((r) => [`${r.method.toLowerCase()} ${templateOf(r)}`, r]));
    for (const { template, method, op } of operationsOf(document)) {
      const route = templates.get(`${method} ${template}`)!;
      const schema = 'body' in route ? (route.body as ZodTypeAny) : undefined;
      const takesBody = typeof schema?.safeParse === 'function';
      expect(op.requestBody !== undefined, `${method} ${template}`).toBe(takesBody);
      if (!op.requestBody) continue;
      expect(op.requestBody.required).toBe(true);
      const field = (route.metadata as RouteMetadata).ndjsonField;
      expect(Object.keys(op.requestBody.content)).toEqual(['application/json', ...(field ? ['application/x-ndjson'] : [])]);
      for (const [type, media] of Object.entries(op.requestBody.content)) {
        expect(Object.keys(media.examples).length, `${method} ${template} ${type}`).toBeGreaterThan(0);
        for (const [name, example] of Object.entries(media.examples)) {
          const where = `${method} ${template} ${type} ${name}`;
          expect(bodies.checkRequestBody(template, method, type, example.value), where).toEqual([]);
          // An NDJSON example is one line: one item of the field the lines fill.
          const body = type === 'application/x-ndjson' ? { [field!]: [example.value] } : example.value;
          const parsed = schema!.safeParse(body);
          expect(parsed.success, `${where}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
        }
      }
    }
    // The check is not vacuous: a field the body does not take fails it.
    const extra = bodies.checkRequestBody('/api/v1/saved-searches', 'post', 'application/json', { name: 'x', filters: {}, colour: 'red' });
    expect(extra).toEqual([expect.stringContaining('additional properties')]);
  });

  it('has meaningful operation ids, named schemas and problem+json errors', () => {
    const ops = operationsOf(document).map((o) => o.op);
    expect(ops.map((o) => o.operationId).sort()).toEqual([
      'batchValuations',
      'createSavedSearch',
      'createWebhookEndpoint',
      'deleteSavedSearch',
      'deleteWebhookEndpoint',
      'exportListings',
      'getListing',
      'getMarketHistory',
      'getMarketStats',
      'getMarketTrends',
      'getSavedSearch',
      'getValuation',
      'listSavedSearchListings',
      'listSavedSearches',
      'listWebhookDeliveries',
      'listWebhookEndpoints',
      'ping',
      'resendWebhookDelivery',
      'rotateWebhookSecret',
      'searchListings',
      'sendWebhookTestEvent',
      'updateSavedSearch',
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        'Listing',
        'ListingDetail',
        'MarketStat',
        'MarketTrend',
        'Problem',
        'Quota',
        'SavedSearch',
        'WebhookEndpoint',
      ]),
    );
    for (const response of Object.values(document.components.responses) as Array<{ content: object }>) {
      expect(Object.keys(response.content)).toEqual(['application/problem+json']);
    }
    for (const op of ops) expect(op.responses['405']).toEqual({ $ref: '#/components/responses/MethodNotAllowed' });
  });

  it('lists the known places, and every documented parameter is one the server accepts', async () => {
    expect(document['x-mboa-places'].Douala).toContain('Bonapriso');
    expect(document.info.description).toContain('| Yaoundé | Bastos, Golf');
    for (const { template, op } of operationsOf(document).filter((o) => o.method === 'get')) {
      const params = op.parameters;
      // Each parameter alone, beside the route's required ones (history's city and purpose).
      const required = params
        .filter((q) => q.in === 'query' && q.required)
        .map((q) => `${q.name}=${encodeURIComponent(String(q.example))}`);
      for (const p of params.filter((q) => q.in === 'query' && q.name !== 'cursor')) {
        // Shown in the form ("Try it out" fills it in), or in the description.
        const example = p.example ?? /Example: `([^`]+)`\.$/.exec(p.description)?.[1];
        expect(example, `${template} ${p.name}`).toBeDefined();
        const value = Array.isArray(example) ? example.join(',') : String(example);
        // A parameter that applies only with another (its description says so) is sent with it.
        const companion = p.name === 'radius_m' ? ['near=4.0483,9.7043'] : [];
        // A valuation's subject: described by the query (city, type, purpose; lat with lng), or a listing.
        const valuation = template === '/api/v1/valuations';
        const subject = !valuation
          ? []
          : [
              'city=Douala',
              'type=apartment',
              'purpose=rent',
              ...(p.name === 'lat' ? ['lng=9.7043'] : p.name === 'lng' ? ['lat=4.0483'] : []),
            ];
        const given = p.name === 'listing_id' ? listingId : value;
        const query = [
          ...[...required, ...(p.name === 'listing_id' ? [] : subject)].filter((r) => !r.startsWith(`${p.name}=`)),
          ...companion,
          `${p.name}=${encodeURIComponent(given)}`,
        ];
        const path = `${concrete(template)}?${query.join('&')}`;
        const res = await fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': t.keys.enterprise } });
        const body = await res.clone().text();
        // A valuation may find too few comparables for a subject narrowed by one parameter: accepted all the same.
        const accepted = res.status === 200 || (valuation && res.status === 422 && JSON.parse(body).code === 'insufficient_data');
        expect(accepted, `${path}: ${res.status} ${body}`).toBe(true);
      }
    }
  });

  it('executes as first shown: the examples "Try it out" fills in make a valid request that finds listings', async () => {
    for (const { template, op } of operationsOf(document).filter((o) => o.method === 'get')) {
      const params = op.parameters;
      const query = params
        .filter((p) => p.in === 'query' && p.example !== undefined)
        .map((p) => `${p.name}=${encodeURIComponent(Array.isArray(p.example) ? p.example.join(',') : String(p.example))}`);
      expect(params.find((p) => p.name === 'cursor')?.example, 'no placeholder cursor').toBeUndefined();
      expect(params.find((p) => p.name === 'currency')?.example, 'no currency filled in').toBeUndefined();
      // The ids are examples of the form, not records of this database: real ones are used.
      const path = `${concrete(template)}${query.length ? `?${query.join('&')}` : ''}`;
      const res = await fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': t.keys.enterprise, 'Accept-Encoding': 'identity' } });
      const text = await res.text();
      expect(res.status, `${path}: ${text}`).toBe(200);
      if (template === '/api/v1/listings') expect(JSON.parse(text).data.length, path).toBeGreaterThan(0);
    }
  });

  it('names the address it is served from in its samples when MBOA_PUBLIC_URL is not set', async () => {
    const served = (await (await fetch(`${t.baseUrl}/api/v1/openapi.json`)).json()) as typeof document;
    const text = JSON.stringify(served.paths);
    expect(text).toContain(`curl -H \\"X-API-Key: $MBOA_API_KEY\\" \\"${t.baseUrl}/api/v1/listings?`);
    expect(text).toContain(`new Mboa({ baseUrl: '${t.baseUrl}' })`);
    expect(text).not.toContain('localhost:3000');
    expect(served.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    // A Host header that is no host never reaches a sample.
    const odd = await fetch(`${t.baseUrl}/api/v1/openapi.json`, { headers: { Host: 'evil.cm"; rm -rf ~; "' } }).catch(() => null);
    if (odd?.ok) expect(JSON.stringify(await odd.json())).not.toContain('rm -rf');
  });

  it('takes its server from MBOA_PUBLIC_URL, and is relative without it', () => {
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const published = buildOpenApiDocument({ version: '0.1.0', serverUrl: 'https://api.mboa.cm/' });
    expect(published.servers).toEqual([{ url: 'https://api.mboa.cm', description: 'Mboa API' }]);
    expect(JSON.stringify(published.paths)).toContain('curl -H \\"X-API-Key: $MBOA_API_KEY\\" \\"https://api.mboa.cm/api/v1/listings?');
  });

  it.each([undefined, 'https://api.mboa.cm'])(
    'lints with 0 errors and 0 warnings under Redocly recommended (MBOA_PUBLIC_URL=%s)',
    (publicUrl) => {
      const dir = mkdtempSync(join(tmpdir(), 'mboa-openapi-'));
      try {
        const file = join(dir, 'openapi.json');
        const env = { ...process.env, MBOA_PUBLIC_URL: publicUrl ?? '' };
        const write = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/write-openapi.ts', file], { env, encoding: 'utf8' });
        expect(write.status, write.stderr).toBe(0);
        expect(JSON.parse(readFileSync(file, 'utf8')).servers[0].url).toBe(publicUrl ?? '/');
        const lint = spawnSync(
          process.execPath,
          ['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'json'],
          {
            env,
            encoding: 'utf8',
          },
        );
        const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{'))) as {
          totals: { errors: number; warnings: number };
          problems: unknown[];
        };
        expect(report.problems).toEqual([]);
        expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
        expect(lint.status).toBe(0);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe('descriptions say what the answers hold', () => {
  /** The fields a figure named in prose stands for, on a row of `shape`. */
  const FIGURES: Record<string, string[]> = {
    mean: ['avg'],
    minimum: ['min'],
    maximum: ['max'],
    median: ['median'],
    quartiles: ['p25', 'p75'],
  };

  it.each([
    ['price', '_price'],
    ['price per m²', '_price_per_m2'],
  ])('every figure of %s the stats description names is a field of its rows', (subject, suffix) => {
    const description = contract.market.stats.description!;
    const shape = ZMarketStat.shape as Record<string, unknown>;
    // The figures listed just before "of <subject>" (up to the previous semicolon or sentence).
    const clauses = [...description.matchAll(new RegExp(`([^;.]*?)\\bof ${subject}(?! per)`, 'g'))].map((m) => m[1]);
    expect(clauses.length, description).toBeGreaterThan(0);
    for (const clause of clauses) {
      for (const [word, prefixes] of Object.entries(FIGURES)) {
        if (!new RegExp(`\\b${word}\\b`).test(clause)) continue;
        for (const prefix of prefixes) expect(shape, `"${word}" of ${subject}`).toHaveProperty(`${prefix}${suffix}`);
      }
    }
  });
});
