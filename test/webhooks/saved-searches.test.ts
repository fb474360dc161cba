/**
 * Saved searches over real HTTP: the body of a write read under its limits (size, media
 * type, schema) with problem+json errors never charged, the plan's counts, and the
 * listings of a saved search equal to the search's with the same filters.
 */
import { describe, expect, it } from 'vitest';
import { PLANS } from '../../contract/plans.js';
import { createKey } from '../../server/accounts/keys.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('pro');

async function send(method: string, path: string, key: string, body?: unknown, contentType = 'application/json') {
  const res = await fetch(`${t.baseUrl}/api/v1${path}`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': contentType }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const FILTERS = { city: 'Douala', type: ['apartment', 'villa'], purpose: 'rent', min_bedrooms: 2, max_price: 900000 };

describe('saved searches', () => {
  it('are saved, listed, read, changed and deleted; their listings are the search with the same filters', async () => {
    const created = await send('POST', '/saved-searches', t.key, { name: 'Flats and villas to rent', filters: FILTERS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const saved = created.body.data;
    expect(saved.id).toMatch(/^ss_[a-z2-7]{16}$/);
    expect(saved.filters).toEqual({
      city: 'Douala',
      type: 'apartment,villa',
      purpose: 'rent',
      min_bedrooms: '2',
      max_price: '900000',
      status: 'active',
    });
    expect(saved.dataset).toBe('live');

    const list = await get(t.baseUrl, '/api/v1/saved-searches', t.key);
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { id: string }) => s.id)).toContain(saved.id);

    const qs = new URLSearchParams(saved.filters).toString();
    const search = await get(t.baseUrl, `/api/v1/listings?${qs}&limit=50`, t.key);
    const matched = await get(t.baseUrl, `/api/v1/saved-searches/${saved.id}/listings?limit=50`, t.key);
    expect(matched.status).toBe(200);
    expect(search.body.meta.total).toBeGreaterThan(0);
    expect(matched.body.meta.total).toBe(search.body.meta.total);
    expect(matched.body.data.map((l: { id: string }) => l.id)).toEqual(search.body.data.map((l: { id: string }) => l.id));
    // The next page follows from its cursor, as the search's does.
    if (matched.body.meta.next_cursor) {
      const next = await get(
        t.baseUrl,
        `/api/v1/saved-searches/${saved.id}/listings?limit=50&cursor=${matched.body.meta.next_cursor}`,
        t.key,
      );
      expect(next.status).toBe(200);
      expect(next.body.data[0].id).not.toBe(matched.body.data[0].id);
    }

    const renamed = await send('PATCH', `/saved-searches/${saved.id}`, t.key, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', filters: saved.filters });
    const refiltered = await send('PATCH', `/saved-searches/${saved.id}`, t.key, { filters: { city: 'Yaoundé' } });
    expect(refiltered.body.data.filters).toEqual({ city: 'Yaoundé', status: 'active' });

    const deleted = await send('DELETE', `/saved-searches/${saved.id}`, t.key);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: saved.id, deleted: true });
    expect((await get(t.baseUrl, `/api/v1/saved-searches/${saved.id}`, t.key)).status).toBe(404);
    expect((await send('DELETE', `/saved-searches/${saved.id}`, t.key)).status).toBe(404);
  });

  it('refuse a bad body with problem+json, never charged; a 2xx write is counted once', async () => {
    const account = await t.account('pro');
    const key = account.key;
    const before = await storedUsage(t, account.id);
    const cases = [
      {
        res: await send('POST', '/saved-searches', key, { name: 'x', filters: {} }, 'text/plain'),
        status: 415,
        code: 'unsupported_media_type',
      },
      {
        res: await send('POST', '/saved-searches', key, { name: 'x'.repeat(20_000), filters: {} }),
        status: 413,
        code: 'payload_too_large',
      },
      { res: await send('POST', '/saved-searches', key, '{"name": "x", '), status: 400, code: 'validation_error' },
      {
        res: await send('POST', '/saved-searches', key, { name: 'x', filters: { citty: 'Douala' } }),
        status: 400,
        code: 'validation_error',
      },
      { res: await send('POST', '/saved-searches', key, { name: '', filters: { min_price: -1 } }), status: 400, code: 'validation_error' },
      {
        res: await send('POST', '/saved-searches', key, { name: 'x', filters: { city: 'Doualaa' } }),
        status: 400,
        code: 'validation_error',
      },
      { res: await send('PATCH', '/saved-searches/ss_aaaaaaaaaaaaaaaa', key, {}), status: 400, code: 'validation_error' },
      { res: await send('PUT', '/saved-searches', key, {}), status: 405, code: 'method_not_allowed' },
    ];
    for (const { res, status, code } of cases) {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe(code);
      // A method no route takes is refused before the key is read, like an unknown path.
      if (status !== 405) expect(res.body.meta.quota?.used, JSON.stringify(res.body)).toBe(before);
    }
    expect(cases[3].res.body.errors[0]).toMatchObject({ path: 'filters.citty' });
    expect(cases[3].res.body.detail).toMatch(/citty/);
    expect(cases[4].res.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['filters.min_price', 'name']);
    expect(cases[5].res.body.errors[0].suggestions).toContain('Douala');
    expect(cases[7].res.headers.get('allow')).toBe('POST, GET, HEAD');

    const ok = await send('POST', '/saved-searches', key, { name: 'ok', filters: { city: 'Douala' } });
    expect(ok.status).toBe(201);
    expect(ok.body.meta.quota.used).toBe(before + 1);
    expect(await storedUsage(t, account.id)).toBe(before + 1);
  });

  it('are kept within the plan: none on Starter, the Pro count, then 403 plan_limit_reached', async () => {
    const starter = await t.account('starter');
    const refused = await send('POST', '/saved-searches', starter.key, { name: 'x', filters: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_forbidden');

    const pro = await t.account('pro');
    const max = PLANS.pro.maxSavedSearches;
    const made = await Promise.all(
      Array.from({ length: max + 3 }, (_, i) => send('POST', '/saved-searches', pro.key, { name: `s${i}`, filters: { city: 'Douala' } })),
    );
    expect(made.filter((r) => r.status === 201)).toHaveLength(max);
    const over = made.filter((r) => r.status !== 201);
    expect(over).toHaveLength(3);
    for (const r of over) expect(r.body.code).toBe('plan_limit_reached');
    const { rows } = await t.db.pool.query('SELECT count(*)::int AS n FROM saved_searches WHERE account_id = $1', [pro.id]);
    expect(rows[0].n).toBe(max);
  });

  it("of a test key follow the sample and are the key's dataset's own", async () => {
    const account = await t.account('pro');
    const { key: testKey } = await createKey(t.db.prisma, account.id, 'CI', new Date(), { kind: 'test' });
    const created = await send('POST', '/saved-searches', testKey, { name: 'sample', filters: { city: 'Douala' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.dataset).toBe('sample');
    const matched = await get(t.baseUrl, `/api/v1/saved-searches/${created.body.data.id}/listings`, testKey);
    const { rows } = await t.db.pool.query("SELECT count(*)::int AS n FROM sample.listings WHERE city = 'Douala' AND status = 'active'");
    expect(matched.body.meta.total).toBe(rows[0].n);
    expect(matched.body.meta.dataset).toBe('sample');
    // The live key of the same account does not see it.
    expect((await get(t.baseUrl, `/api/v1/saved-searches/${created.body.data.id}`, account.key)).status).toBe(404);
  });
});
