/**
 * Operations endpoints (never counted, outside /api/v1): /healthz, /readyz, and /metrics,
 * which is not public: a bearer token, or a port of its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monthlyUsage } from '../../server/accounts/usage.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ server: { metrics: { token: TOKEN } } });
});
afterAll(() => t.close());

const metricsText = async (base: string, headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }) => {
  const res = await fetch(`${base}/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

describe('health and readiness', () => {
  it('/healthz and /readyz answer without a key, and are never counted', async () => {
    const { id, key } = await t.account('starter');
    const health = await get(t.baseUrl, '/healthz', key);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'ok' });
    const ready = await get(t.baseUrl, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({
      status: 'ready',
      database: 'ok',
      migrations: 'ok',
      redis: 'not_configured',
      change_feed: 'ok',
      // Shown, not required: the live data's valuation model (the test server waits for its first fit).
      valuation_model: {
        state: 'ready',
        fitted_at: expect.any(String),
        fit_ms: expect.any(Number),
        fitting: false,
        outliers_rejected: expect.any(Number),
      },
    });
    expect((await monthlyUsage(t.db.prisma, id)).used).toBe(0);
  });

  it('/readyz is a 503 problem when the database is unreachable', async () => {
    const { createServer } = await import('../../server/start/create-server.js');
    const { createLogger } = await import('../../server/platform/logger.js');
    const { TEST_SECRETS } = await import('../helpers/server.js');
    const server = await createServer({
      databaseUrl: 'postgresql://postgres@127.0.0.1:1/none',
      logger: createLogger('silent'),
      secrets: TEST_SECRETS,
    });
    const base = await server.listen(0, '127.0.0.1');
    try {
      const ready = await get(base, '/readyz');
      expect(ready.status).toBe(503);
      expect(ready.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(ready.body).toMatchObject({ code: 'unavailable', checks: { database: 'unreachable' } });
      expect(ready.body.detail).toMatch(/database unreachable/);
      expect((await get(base, '/healthz')).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 30_000);
});

describe('/metrics', () => {
  it('is refused without the bearer token', async () => {
    expect((await metricsText(t.baseUrl, {})).status).toBe(401);
    expect((await metricsText(t.baseUrl, { Authorization: 'Bearer wrong-token-0123456789abcdef' })).status).toBe(401);
  });

  it('counts requests and latency by route pattern and status, refusals by code, pool and event loop', async () => {
    const { key } = await t.account('starter', { monthlyQuota: 1 });
    const { rows } = await t.db.pool.query<{ id: string }>('SELECT id FROM listings LIMIT 1');
    expect((await get(t.baseUrl, `/api/v1/listings/${rows[0].id}`, key)).status).toBe(200);
    expect((await get(t.baseUrl, `/api/v1/listings/${rows[0].id}`, key)).status).toBe(429);
    const m = await metricsText(t.baseUrl);
    expect(m.status).toBe(200);
    expect(m.type).toMatch(/^text\/plain/);
    expect(m.text).toMatch(/mboa_http_requests_total\{route="\/api\/v1\/listings\/:id",method="GET",status="200"\} [1-9]/);
    expect(m.text).toMatch(/mboa_http_requests_total\{route="\/api\/v1\/listings\/:id",method="GET",status="429"\} [1-9]/);
    expect(m.text).toMatch(
      /mboa_http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/v1\/listings\/:id",method="GET",status="200"\} [1-9]/,
    );
    // A histogram: each bucket holds those below it, +Inf and _count hold all, as many as the counter.
    const series = 'route="/api/v1/listings/:id",method="GET",status="200"';
    const value = (line: string) =>
      Number(
        m.text
          .split('\n')
          .find((l) => l.startsWith(line))
          ?.split(' ')
          .pop(),
      );
    const requests = value(`mboa_http_requests_total{${series}}`);
    const buckets = ['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf'].map((le) =>
      value(`mboa_http_request_duration_seconds_bucket{le="${le}",${series}}`),
    );
    expect(buckets.every((n, i) => Number.isFinite(n) && (i === 0 || n >= buckets[i - 1]))).toBe(true);
    expect(buckets.at(-1)).toBe(requests);
    expect(value(`mboa_http_request_duration_seconds_count{${series}}`)).toBe(requests);
    expect(value(`mboa_http_request_duration_seconds_sum{${series}}`)).toBeGreaterThan(0);
    expect(m.text).toContain('# TYPE mboa_http_request_duration_seconds histogram');
    expect(m.text).toMatch(/mboa_api_problems_total\{code="quota_exceeded"\} [1-9]/);
    expect(m.text).toMatch(/mboa_db_pool_connections\{state="in_use"\} \d+/);
    expect(m.text).toMatch(/mboa_db_pool_connections\{state="waiting"\} \d+/);
    expect(m.text).toMatch(/mboa_nodejs_eventloop_lag_seconds \d/);
    // Ids never become label values.
    expect(m.text).not.toContain(rows[0].id);
  });

  it('can be served on a port of its own instead, and is then absent from the public port', async () => {
    const own = await startTestServer({ server: { metrics: { port: 0, token: TOKEN } } });
    try {
      expect((await metricsText(own.baseUrl)).status).toBe(404);
      const url = own.server.metricsUrl;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const m = await metricsText(url!, {});
      expect(m.status).toBe(200);
      expect(m.text).toMatch(/mboa_db_pool_connections/);
      expect((await fetch(`${url}/other`)).status).toBe(404);
    } finally {
      await own.close();
    }
  });

  it('says whether the instance is ready, whether the quota fell back to PostgreSQL, and how old the last usage flush is', async () => {
    const ok = await metricsText(t.baseUrl);
    expect(ok.text).toMatch(/^mboa_ready 1$/m);
    expect(ok.text).toMatch(/^mboa_quota_redis_fallback 0$/m);
    expect(ok.text).toMatch(/^mboa_quota_flush_age_seconds 0$/m);
    // Redis configured but unreachable: counts go to PostgreSQL, and the flush stops.
    const lost = await startTestServer({ server: { metrics: { port: 0 }, redisUrl: 'redis://127.0.0.1:1/0' } });
    try {
      const { key } = await lost.account('starter');
      expect((await get(lost.baseUrl, '/api/v1/listings?limit=1', key)).status).toBe(200);
      const m = await metricsText(lost.server.metricsUrl!, {});
      expect(m.text).toMatch(/^mboa_ready 1$/m);
      expect(m.text).toMatch(/^mboa_quota_redis_fallback 1$/m);
      expect(Number(/^mboa_quota_flush_age_seconds (\S+)$/m.exec(m.text)?.[1])).toBeGreaterThan(0);
      // Draining: not ready any more.
      const closing = lost.server.close();
      const draining = await metricsText(lost.server.metricsUrl!, {}).catch(() => null);
      if (draining) expect(draining.text).toMatch(/^mboa_ready 0$/m);
      await closing;
    } finally {
      await lost.close();
    }
  }, 30_000);
});
