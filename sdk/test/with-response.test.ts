import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { APIPromise, CursorPage, type MboaError, NotFoundError, PlanForbiddenError } from '../src/index.js';
import { API, client, listing, page, problem, quota, server, useMockServer } from './helpers.js';

useMockServer();

/** Answers `path` with `body` and the quota and request headers the API sends; counts the calls. */
function answer(path: string, body: object, requestId: string) {
  const calls = { count: 0 };
  server.use(
    http.get(`${API}${path}`, () => {
      calls.count++;
      return HttpResponse.json(body, {
        headers: { 'X-Request-Id': requestId, 'X-Quota-Remaining': '8765', RateLimit: '"minute";r=29;t=60' },
      });
    }),
  );
  return calls;
}

const meta = (requestId: string) => ({ quota: quota(), request_id: requestId });

describe('withResponse()', () => {
  it('gives the body with status, headers and request id, in one request', async () => {
    const body = { data: { status: 'ok', time: '2026-11-22T10:00:00.000Z', version: '0.1.0' }, meta: meta('req_ping_1') };
    const calls = answer('/ping', body, 'req_ping_1');
    const call = client().ping();
    expect(call).toBeInstanceOf(APIPromise);
    expect(call).toBeInstanceOf(Promise);

    const { data, status, headers, requestId } = await call.withResponse();
    expect(data).toEqual(body);
    expect(status).toBe(200);
    expect(requestId).toBe('req_ping_1');
    expect(headers['x-quota-remaining']).toBe('8765');
    expect(headers.ratelimit).toBe('"minute";r=29;t=60');
    // Awaiting the same promise gives the body, without another request.
    expect(await call).toEqual(body);
    expect(calls.count).toBe(1);
  });

  it('works on every call: listing detail, market stats and trends', async () => {
    const detail = {
      data: { ...listing(1), price_history: [{ date: '2026-11-01T10:00:00.000Z', price: 100_000_001 }] },
      meta: meta('req_get'),
    };
    answer(`/listings/${listing(1).id}`, detail, 'req_get');
    answer('/market/stats', { data: [], meta: { total: 0, returned: 0, ...meta('req_stats') } }, 'req_stats');
    answer('/market/trends', { data: [], meta: { total: 0, returned: 0, ...meta('req_trends') } }, 'req_trends');
    const mboa = client();

    const got = await mboa.listings.get(listing(1).id).withResponse();
    expect(got).toMatchObject({ status: 200, requestId: 'req_get', data: detail });
    const stats = await mboa.market.stats({ city: 'Douala' }).withResponse();
    expect(stats).toMatchObject({ status: 200, requestId: 'req_stats' });
    expect(stats.data.meta.request_id).toBe('req_stats');
    const trends = await mboa.market.trends().withResponse();
    expect(trends).toMatchObject({ status: 200, requestId: 'req_trends' });
  });

  it('rejects with the same error as the call', async () => {
    server.use(http.get(`${API}/market/trends`, () => problem(403, 'plan_forbidden')));
    const call = client().market.trends();
    const viaResponse = await call.withResponse().catch((e: unknown) => e);
    const direct = await call.catch((e: unknown) => e);
    expect(viaResponse).toBeInstanceOf(PlanForbiddenError);
    expect(direct).toBe(viaResponse);

    server.use(http.get(`${API}/listings/:id`, () => problem(404, 'not_found')));
    await expect(client().listings.get('lst_x').withResponse()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('keeps then, catch and finally working as on a plain promise', async () => {
    server.use(http.get(`${API}/ping`, () => problem(404, 'not_found')));
    let finished = false;
    const caught = await client()
      .ping()
      .finally(() => (finished = true))
      .catch((e: unknown) => (e as MboaError).code);
    expect(caught).toBe('not_found');
    expect(finished).toBe(true);
    const pending = client().ping();
    expect(Object.prototype.toString.call(pending)).toBe('[object APIPromise]');
    await pending.catch(() => undefined);
  });

  it('an invalid id rejects before any request, through await and withResponse alike', async () => {
    const call = client().listings.get('  ');
    await expect(call).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(call.withResponse()).rejects.toMatchObject({ code: 'invalid_argument' });
  });
});

describe('withResponse() on a search, and each page response', () => {
  it('gives the first page with its answer; every page keeps its own', async () => {
    let n = 0;
    server.use(
      http.get(`${API}/listings`, ({ request }) => {
        n++;
        const cursor = new URL(request.url).searchParams.get('cursor');
        const response = cursor === null ? page([listing(1)], 'c1') : page([listing(2)], null);
        response.headers.set('X-Request-Id', `req_page_${n}`);
        response.headers.set('X-Quota-Remaining', String(9000 - n));
        return response;
      }),
    );
    const search = client().listings.search({ city: 'Douala', limit: 1 });
    const first = await search.withResponse();
    expect(first.data).toBeInstanceOf(CursorPage);
    expect(first).toMatchObject({ status: 200, requestId: 'req_page_1' });
    expect(first.data.response.requestId).toBe('req_page_1');
    expect(first.headers['x-quota-remaining']).toBe('8999');
    expect(n).toBe(1);

    const second = await first.data.getNextPage();
    expect(second.response).toMatchObject({ status: 200, requestId: 'req_page_2' });
    expect(second.response.headers['x-quota-remaining']).toBe('8998');

    const seen: string[] = [];
    for await (const p of client().listings.search({ limit: 1 }).iterPages()) seen.push(p.response.requestId!);
    expect(seen).toEqual(['req_page_3', 'req_page_4']);
  });
});
