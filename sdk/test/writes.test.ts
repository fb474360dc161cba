/**
 * The client's writes: method, JSON body and content type on the wire; a POST is not
 * retried after an answer that may have done something (a 500), but is after a refusal
 * that did nothing (429 with Retry-After); a PATCH or DELETE is retried like a read.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { InternalServerError } from '../src/index.js';
import { API, client, problem, quota, server, useMockServer } from './helpers.js';

useMockServer();

const saved = {
  id: 'ss_aaaaaaaaaaaaaaaa',
  name: 'x',
  filters: { city: 'Douala' },
  dataset: 'live',
  created_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};
const answer = (status = 200) =>
  HttpResponse.json({ data: saved, meta: { quota: quota(), request_id: 'req_1', dataset: 'live' } }, { status });

describe('writes', () => {
  it('send the method, a JSON body and its content type', async () => {
    const seen: { method: string; type: string | null; body: unknown }[] = [];
    server.use(
      http.post(`${API}/saved-searches`, async ({ request }) => {
        seen.push({ method: request.method, type: request.headers.get('content-type'), body: await request.json() });
        return answer(201);
      }),
      http.delete(`${API}/saved-searches/:id`, ({ request }) => {
        seen.push({ method: request.method, type: request.headers.get('content-type'), body: null });
        return HttpResponse.json({ data: { id: saved.id, deleted: true }, meta: { quota: quota(), request_id: 'req_2', dataset: 'live' } });
      }),
    );
    const created = await client().savedSearches.create({ name: 'x', filters: { city: 'Douala', type: ['villa', 'apartment'] } });
    expect(created.data.id).toBe(saved.id);
    await client().savedSearches.delete(saved.id);
    expect(seen).toEqual([
      { method: 'POST', type: 'application/json', body: { name: 'x', filters: { city: 'Douala', type: ['villa', 'apartment'] } } },
      { method: 'DELETE', type: null, body: null },
    ]);
  });

  it('never retry a POST answered 500, but retry one refused with 429 and a PATCH answered 500', async () => {
    let posts = 0;
    let patches = 0;
    server.use(
      http.post(`${API}/saved-searches`, () => (++posts === 1 ? problem(500, 'internal_error') : answer(201))),
      http.patch(`${API}/saved-searches/:id`, () => (++patches === 1 ? problem(500, 'internal_error') : answer())),
    );
    await expect(client({ maxRetries: 2 }).savedSearches.create({ name: 'x', filters: {} })).rejects.toBeInstanceOf(InternalServerError);
    expect(posts).toBe(1);
    await client({ maxRetries: 2 }).savedSearches.update(saved.id, { name: 'y' });
    expect(patches).toBe(2);

    posts = 0;
    server.use(
      http.post(`${API}/saved-searches`, () =>
        ++posts === 1 ? problem(429, 'rate_limited', { headers: { 'Retry-After': '0' } }) : answer(201),
      ),
    );
    await client({ maxRetries: 2 }).savedSearches.create({ name: 'x', filters: {} });
    expect(posts).toBe(2);
  });
});
