/**
 * The Enterprise bulk export, over real HTTP and the seeded database: NDJSON lines that are
 * exactly search results, every matching listing once in id order, resumable with `after`
 * after a connection broken mid-line, compressed when asked, and charged one call per
 * started block of 1,000 lines.
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { z, type ZodTypeAny } from 'zod';
import { EXPORT_LINES_PER_CALL, ZListing } from '../../contract/schemas.js';
import { createKey } from '../../server/accounts/keys.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('enterprise');

/** Every object strict: a line with one field more than a Listing fails. */
const STRICT_LISTING = z.object(ZListing.shape as Record<string, ZodTypeAny>).strict();

async function exportText(path: string, apiKey = t.key, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': apiKey, 'Accept-Encoding': 'identity', ...headers } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; city: string; status: string });

async function sqlIds(where: string, params: unknown[] = []): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ id: string }>(`SELECT id FROM listings WHERE ${where} ORDER BY id`, params);
  return rows.map((r) => r.id);
}

describe('GET /api/v1/exports/listings', () => {
  it('streams every matching listing once, in id order, each line exactly a Listing', async () => {
    const res = await exportText('/api/v1/exports/listings?city=douala&status=any');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('x-quota-limit')).toBe('unlimited');
    expect(res.text.endsWith('\n')).toBe(true);
    const lines = linesOf(res.text);
    const expected = await sqlIds("city = 'Douala'");
    expect(expected.length).toBeGreaterThan(EXPORT_LINES_PER_CALL / 2);
    expect(lines.map((l) => l.id)).toEqual(expected);
    for (const line of lines) {
      const parsed = STRICT_LISTING.safeParse(line);
      expect(parsed.success, JSON.stringify(parsed.success ? '' : parsed.error.issues)).toBe(true);
    }
    expect(new Set(lines.map((l) => l.status)).size).toBeGreaterThan(1);
  });

  it.each(['XAF', 'EUR'])('writes each listing exactly as the search does (%s)', async (currency) => {
    const exported = linesOf((await exportText(`/api/v1/exports/listings?city=Kribi&status=any&currency=${currency}`)).text);
    const searched: Array<{ id: string }> = [];
    let cursor: string | null = null;
    do {
      const page = await get(
        t.baseUrl,
        `/api/v1/listings?city=Kribi&status=any&currency=${currency}&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        t.key,
      );
      searched.push(...page.body.data);
      cursor = page.body.meta.next_cursor;
    } while (cursor);
    expect(exported.length).toBeGreaterThan(50);
    expect(new Set(exported.map((l) => l.status)).size).toBeGreaterThan(1);
    expect(exported).toEqual([...searched].sort((a, b) => (a.id < b.id ? -1 : 1)));
  });

  it('takes the search filters (active by default) and amounts in EUR', async () => {
    const active = linesOf((await exportText('/api/v1/exports/listings?purpose=rent&type=apartment&min_bedrooms=2')).text);
    expect(active.map((l) => l.id)).toEqual(
      await sqlIds("status = 'active' AND purpose = 'rent' AND type = 'apartment' AND bedrooms >= 2"),
    );
    expect(active.length).toBeGreaterThan(0);
    const eur = linesOf(
      (await exportText('/api/v1/exports/listings?purpose=rent&type=apartment&min_bedrooms=2&currency=EUR')).text,
    ) as unknown as Array<{ currency: string }>;
    expect(eur.length).toBe(active.length);
    expect(new Set(eur.map((l) => l.currency))).toEqual(new Set(['EUR']));
  });

  it('resumes with `after` after a connection broken mid-line: nothing lost, nothing twice', async () => {
    const full = linesOf((await exportText('/api/v1/exports/listings?status=any')).text).map((l) => l.id);
    expect(full.length).toBeGreaterThan(2 * EXPORT_LINES_PER_CALL);
    // Read about a third of the body, then cut the connection in the middle of a line.
    const partial = await new Promise<string>((resolve, reject) => {
      const req = request(`${t.baseUrl}/api/v1/exports/listings?status=any`, { headers: { 'X-API-Key': t.key } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          if (body.length > 300_000) {
            req.destroy();
            resolve(body);
          }
        });
        res.on('error', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
    const complete = partial.slice(0, partial.lastIndexOf('\n') + 1);
    const received = linesOf(complete).map((l) => l.id);
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThan(full.length);
    const rest = linesOf((await exportText(`/api/v1/exports/listings?status=any&after=${received.at(-1)}`)).text).map((l) => l.id);
    expect([...received, ...rest]).toEqual(full);
  });

  it('is compressed when the client accepts it', async () => {
    const plain = (await exportText('/api/v1/exports/listings?city=Kribi')).text;
    const gz = await new Promise<{ encoding: string | undefined; body: Buffer }>((resolve, reject) => {
      const req = request(
        `${t.baseUrl}/api/v1/exports/listings?city=Kribi`,
        { headers: { 'X-API-Key': t.key, 'Accept-Encoding': 'gzip' } },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(parts) }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(gz.encoding).toBe('gzip');
    expect(gz.body.length).toBeLessThan(plain.length / 3);
    expect(gunzipSync(gz.body).toString()).toBe(plain);
  });

  it('is Enterprise only, and refuses what the search refuses or does not take', async () => {
    for (const plan of ['starter', 'pro'] as const) {
      const res = await get(t.baseUrl, '/api/v1/exports/listings', t.keys[plan]);
      expect(res.status).toBe(403);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('plan_forbidden');
      expect(res.body.detail).toMatch(/Enterprise/);
    }
    for (const query of [
      'sort=price',
      'limit=10',
      'cursor=x',
      'after=lst_x',
      'min_price=1e3',
      'city=Doula',
      'listed_after=2026-01-01T00:00:00%2B99:99',
    ]) {
      const res = await get(t.baseUrl, `/api/v1/exports/listings?${query}`, t.key);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });
});

describe('charging', () => {
  it(`counts one call per started block of ${EXPORT_LINES_PER_CALL} lines, and a HEAD nothing`, async () => {
    const account = await t.account('enterprise', { monthlyQuota: 100 });
    const lines = linesOf((await exportText('/api/v1/exports/listings?status=any', account.key)).text).length;
    expect(lines).toBeGreaterThan(EXPORT_LINES_PER_CALL);
    const head = await fetch(`${t.baseUrl}/api/v1/exports/listings`, { method: 'HEAD', headers: { 'X-API-Key': account.key } });
    expect(head.status).toBe(200);
    expect(await storedUsage(t, account.id)).toBe(Math.ceil(lines / EXPORT_LINES_PER_CALL));
  });

  it('cuts the export when the quota is used up mid-way; the resumed request gets 429 quota_exceeded', async () => {
    const account = await t.account('enterprise', { monthlyQuota: 2 });
    const cut = await fetch(`${t.baseUrl}/api/v1/exports/listings?status=any`, {
      headers: { 'X-API-Key': account.key, 'Accept-Encoding': 'identity' },
    });
    expect(cut.status).toBe(200);
    // Two blocks go out, then the connection is cut: the body never ends cleanly.
    await expect(cut.text()).rejects.toThrow();
    expect(await storedUsage(t, account.id)).toBe(2);
    const again = await get(t.baseUrl, '/api/v1/exports/listings?status=any', account.key);
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('quota_exceeded');
  });

  it('reads the public sample with a test t.key, and counts nothing', async () => {
    const account = await t.account('enterprise', { monthlyQuota: 1 });
    const { key: testKey } = await createKey(t.db.prisma, account.id, 'CI', new Date(), { kind: 'test' });
    const lines = linesOf((await exportText('/api/v1/exports/listings?status=any', testKey)).text);
    const { rows } = await t.db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM sample.listings');
    expect(lines.length).toBe(rows[0].n);
    expect(await storedUsage(t, account.id)).toBe(0);
  });
});
