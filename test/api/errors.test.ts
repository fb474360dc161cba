/** Bad input of every kind gets a 4xx problem+json naming the fault; never a 500. */
import { describe, expect, it } from 'vitest';
import { get, serverWithAccount, TEST_SECRETS } from '../helpers/server.js';

const t = serverWithAccount('enterprise');

describe('validation errors', () => {
  const cases: Array<[string, string]> = [
    ['/api/v1/listings?limit=0', 'limit'],
    ['/api/v1/listings?limit=201', 'limit'],
    ['/api/v1/listings?limit=abc', 'limit'],
    ['/api/v1/listings?limit=2.5', 'limit'],
    ['/api/v1/listings?type=castle', 'type'],
    ['/api/v1/listings?purpose=lease', 'purpose'],
    ['/api/v1/listings?sort=size', 'sort'],
    ['/api/v1/listings?status=gone', 'status'],
    ['/api/v1/listings?min_price=-5', 'min_price'],
    ['/api/v1/listings?min_price=10&max_price=5', 'min_price'],
    ['/api/v1/listings?min_price=99999999999999999999999', 'min_price'],
    ['/api/v1/listings?max_surface=1e12', 'max_surface'],
    ['/api/v1/listings?min_bedrooms=9999999999', 'min_bedrooms'],
    ['/api/v1/listings?min_bathrooms=1001', 'min_bathrooms'],
    ['/api/v1/listings?listed_after=yesterday', 'listed_after'],
    ['/api/v1/listings?updated_after=2026-13-45', 'updated_after'],
    ['/api/v1/listings?citty=Douala', 'citty'],
    ['/api/v1/listings?city=', 'city'],
    ['/api/v1/listings?city=Douala&city=Kribi', 'city'],
    ['/api/v1/listings?city=' + 'x'.repeat(500), 'city'],
    ['/api/v1/market/stats?purpose=lease', 'purpose'],
    ['/api/v1/market/stats?town=Douala', 'town'],
    ['/api/v1/market/trends?type=castle', 'type'],
    ['/api/v1/ping?verbose=1', 'verbose'],
  ];
  it.each(cases)('%s → 400 naming %s', async (path, field) => {
    const res = await get(t.baseUrl, path, t.key);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors.map((e: { path: string }) => e.path).join(' ')).toContain(field);
    expect(res.body.detail).toContain(field);
    expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
  });

  it('lists the allowed values of an enum', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?type=castle', t.key);
    expect(res.body.detail).toMatch(/villa.*warehouse/);
  });
});

describe('other errors', () => {
  it('405 method_not_allowed for writes, with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${t.baseUrl}/api/v1/listings`, {
        method,
        headers: { 'X-API-Key': t.key, 'content-type': 'application/json' },
        body: '{"x":1}',
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect((await res.json()).code).toBe('method_not_allowed');
    }
  });

  it('404 not_found for unknown paths', async () => {
    for (const path of ['/api/v1/listing', '/api/v2/listings', '/api/v1/market']) {
      const res = await get(t.baseUrl, path, t.key);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('keeps a safe caller X-Request-Id and replaces an unsafe one', async () => {
    const kept = await get(t.baseUrl, '/api/v1/ping', t.key, { 'X-Request-Id': 'batch-42-call-7' });
    expect(kept.headers.get('x-request-id')).toBe('batch-42-call-7');
    expect(kept.body.meta.request_id).toBe('batch-42-call-7');
    const replaced = await get(t.baseUrl, '/api/v1/ping', t.key, { 'X-Request-Id': '<script>' });
    expect(replaced.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('503 unavailable, not 500, when the database is down', async () => {
    const { createServer } = await import('../../server/start/create-server.js');
    const { createLogger } = await import('../../server/platform/logger.js');
    const server = await createServer({
      databaseUrl: 'postgresql://postgres@127.0.0.1:1/none',
      logger: createLogger('silent'),
      secrets: TEST_SECRETS,
    });
    const base = await server.listen(0, '127.0.0.1');
    try {
      const res = await get(base, '/api/v1/ping', t.key);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('unavailable');
      expect(res.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:1/);
    } finally {
      await server.close();
    }
  });
});

describe('documentation', () => {
  it('serves the OpenAPI document generated from the contract, and the reference page', async () => {
    const spec = await get(t.baseUrl, '/api/v1/openapi.json');
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths).sort()).toEqual(
      [
        '/api/v1/exports/listings',
        '/api/v1/listings',
        '/api/v1/listings/{id}',
        '/api/v1/market/stats',
        '/api/v1/market/trends',
        '/api/v1/market/history',
        '/api/v1/ping',
        '/api/v1/valuations',
        '/api/v1/valuations/batch',
        '/api/v1/saved-searches',
        '/api/v1/saved-searches/{id}',
        '/api/v1/saved-searches/{id}/listings',
        '/api/v1/webhook-endpoints',
        '/api/v1/webhook-endpoints/{id}',
        '/api/v1/webhook-endpoints/{id}/rotate-secret',
        '/api/v1/webhook-endpoints/{id}/deliveries',
        '/api/v1/webhook-endpoints/{id}/test',
        '/api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/resend',
      ].sort(),
    );
    expect(spec.body.components.securitySchemes.ApiKeyAuth).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(spec.body.paths['/api/v1/market/trends'].get['x-mboa-plans']).toEqual(['pro', 'enterprise']);
    const docs = await fetch(`${t.baseUrl}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('<title>Mboa API reference</title>');
  });
});
