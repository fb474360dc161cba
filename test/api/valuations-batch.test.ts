/**
 * `POST /valuations/batch` on the seeded data over real HTTP: each subject answered in the
 * request's order exactly as the single `GET /valuations` answers it (value or refusal),
 * JSON or NDJSON; counted once per subject valued (checked in the stored usage), the
 * subjects past the quota answered `quota_exceeded` uncharged; Enterprise only; the limits
 * on the number of subjects and the body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HORIZON_MONTHS } from '../../server/domain/valuations/candidates.js';
import { VALUATION_BATCH_MAX } from '../../contract/valuations-batch.js';
import { DAY_MS, plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('enterprise');
const source = plantSource();
const THIN = { city: 'Ebolowa', neighborhood: 'Abang', type: 'warehouse', purpose: 'furnished_rent' };
let thick: { city: string; neighborhood: string; type: string; purpose: string };

beforeAll(async () => {
  const { rows } = await t.db.pool.query<typeof thick>(
    `SELECT city, min(neighborhood) AS neighborhood, type::text, purpose::text FROM listings
     WHERE source = 'mboa-seed' AND neighborhood IS NOT NULL AND listed_at > now() - interval '${HORIZON_MONTHS} months'
     GROUP BY city, neighborhood_key, type, purpose ORDER BY count(*) DESC, 1, 2 LIMIT 1`,
  );
  thick = rows[0];
  const now = Date.now();
  await plantListings(
    t.db.pool,
    source,
    [400_000, 450_000].map((price, i) => ({ ...THIN, price, surface: 500, listedAt: new Date(now - (i + 1) * 10 * DAY_MS) })),
  );
});
afterAll(() => removePlanted(t.db.pool, source));

async function post(body: string, key: string, contentType = 'application/json') {
  const res = await fetch(`${t.baseUrl}/api/v1/valuations/batch`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': contentType },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text) };
}
const postJson = (subjects: unknown[], key = t.key) => post(JSON.stringify({ subjects }), key);
/**
 * Two answers alike but for the age of the adverts, which moves with the instant of each
 * answer: every number equal within 1 XAF or a millionth, everything else equal.
 */
function expectAlike(a: unknown, b: unknown, at = 'data'): void {
  if (typeof a === 'number' && typeof b === 'number') {
    expect(Math.abs(a - b), at).toBeLessThanOrEqual(Math.max(1, Math.abs(b) * 1e-6));
  } else if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    expect(Object.keys(a).sort(), at).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(b)) if (k !== 'as_of') expectAlike((a as any)[k], (b as any)[k], `${at}.${k}`);
  } else {
    expect(a, at).toEqual(b);
  }
}
const qs = (o: Record<string, unknown>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();

/** Five subjects: two valued, then an unknown city, a missing type, too few comparables, a point outside its city. */
function mixed() {
  return [
    { ...thick, bedrooms: 2 },
    { city: 'Atlantis', type: 'apartment', purpose: 'rent' },
    { city: thick.city, purpose: 'rent' },
    { ...THIN, surface: 500 },
    { ...thick, bedrooms: 4, bathrooms: 2 },
    { city: 'Douala', near: '3.87,11.51', type: 'apartment', purpose: 'rent' },
  ];
}

describe('POST /api/v1/valuations/batch', () => {
  it('answers every subject in order, as the single call does: its data or its own error', async () => {
    const subjects = mixed();
    const res = await postJson(subjects);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((it: { index: number }) => it.index)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(res.body.meta).toMatchObject({ subjects: 6, valued: 2 });
    for (const [i, subject] of subjects.entries()) {
      const single = await get(t.baseUrl, `/api/v1/valuations?${qs(subject)}`, t.key);
      const item = res.body.data[i];
      expect(item.status, `subject ${i}`).toBe(single.status);
      if (single.status === 200) {
        // The same estimate, range and comparables.
        expectAlike(item.data, single.body.data);
      } else {
        expect(item.error.code).toBe(single.body.code);
        expect(item.error.message).toBe(single.body.detail);
        expect(item.error.errors).toEqual(single.body.errors ?? []);
      }
    }
    expect(res.body.data[1].error.errors[0]).toMatchObject({ path: 'city' });
    expect(res.body.data[2].error.errors[0]).toMatchObject({ path: 'type' });
    expect(res.body.data[3]).toMatchObject({ status: 422, error: { code: 'insufficient_data' } });
    expect(res.body.data[5]).toMatchObject({ status: 400, error: { code: 'validation_error' } });
  });

  it('takes NDJSON, one subject per line, with the same answers', async () => {
    const subjects = mixed();
    const ndjson = `${subjects.map((s) => JSON.stringify(s)).join('\n')}\n\n`;
    const lines = await post(ndjson, t.key, 'application/x-ndjson');
    expect(lines.status, JSON.stringify(lines.body)).toBe(200);
    const json = await postJson(subjects);
    expectAlike(lines.body.data, json.body.data);
    const broken = await post(`${JSON.stringify(subjects[0])}\n{"city": `, t.key, 'application/x-ndjson');
    expect(broken.status).toBe(400);
    expect(broken.body.detail).toMatch(/Line 2/);
  });

  it('counts one call per subject valued, none for the errors', async () => {
    const account = await t.account('enterprise');
    const res = await postJson([...mixed(), { ...thick }], account.key);
    expect(res.status).toBe(200);
    const valued = res.body.data.filter((it: { status: number }) => it.status === 200).length;
    expect(valued).toBe(3);
    expect(res.body.meta.valued).toBe(3);
    expect(await storedUsage(t, account.id)).toBe(3);
    // Nothing valued: answered, not charged.
    const none = await postJson([{ city: 'Atlantis', type: 'apartment', purpose: 'rent' }, { ...THIN }], account.key);
    expect(none.status).toBe(200);
    expect(none.body.meta.valued).toBe(0);
    expect(await storedUsage(t, account.id)).toBe(3);
    const { rows } = await t.db.pool.query<{ n: number }>(
      `SELECT coalesce(sum(calls), 0)::int AS n FROM daily_usage WHERE account_id = $1 AND endpoint = 'valuations.batch'`,
      [account.id],
    );
    expect(rows[0].n).toBe(3);
  });

  it('answers the subjects past the quota quota_exceeded, uncharged', async () => {
    const account = await t.account('enterprise', { monthlyQuota: 2 });
    const subjects = [0, 1, 2, 3].map((b) => ({ ...thick, bedrooms: b + 1 }));
    const res = await postJson(subjects, account.key);
    expect(res.status).toBe(200);
    expect(res.body.data.map((it: { status: number }) => it.status)).toEqual([200, 200, 429, 429]);
    expect(res.body.data[3].error.code).toBe('quota_exceeded');
    expect(res.body.meta.valued).toBe(2);
    expect(await storedUsage(t, account.id)).toBe(2);
    const after = await postJson(subjects, account.key);
    expect(after.status).toBe(429);
    expect(await storedUsage(t, account.id)).toBe(2);
  });

  it('is Enterprise only, for a known key', async () => {
    const anonymous = await fetch(`${t.baseUrl}/api/v1/valuations/batch`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ subjects: [{ ...thick }] }),
    });
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { code: string }).code).toBe('missing_api_key');
    expect((await postJson([{ ...thick }], 'mboa_live_' + 'x'.repeat(32))).status).toBe(401);
    for (const plan of ['starter', 'pro'] as const) {
      const res = await postJson([{ ...thick }], t.keys[plan]);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('plan_forbidden');
    }
  });

  it('takes 1 to 1,000 subjects and a body of at most 1 MiB', async () => {
    const over = await postJson(Array.from({ length: VALUATION_BATCH_MAX + 1 }, () => ({ ...thick })));
    expect(over.status).toBe(400);
    expect(over.body.errors[0].path).toBe('subjects');
    expect(over.body.detail).toMatch(/more than 1,000 subjects/);
    expect((await postJson([])).status).toBe(400);
    // 1,000 subjects answered, each refused on its own (none valued: nothing charged).
    const account = await t.account('enterprise');
    const full = await postJson(
      Array.from({ length: VALUATION_BATCH_MAX }, (_, i) => ({ city: thick.city, purpose: 'rent', bedrooms: i % 5 })),
      account.key,
    );
    expect(full.status).toBe(200);
    expect(full.body.data).toHaveLength(VALUATION_BATCH_MAX);
    expect(full.body.data.every((it: { status: number; index: number }, i: number) => it.status === 400 && it.index === i)).toBe(true);
    expect(await storedUsage(t, account.id)).toBe(0);
    const big = await post(JSON.stringify({ subjects: [{ city: 'x'.repeat(1024 * 1024) }] }), t.key);
    expect(big.status).toBe(413);
    expect((await post('{"subjects": [{}]}', t.key, 'text/plain')).status).toBe(415);
    expect((await post('{"subjects": [{}], "extra": 1}', t.key)).status).toBe(400);
    expect((await postJson(['Douala'])).body.data[0]).toMatchObject({ status: 400, error: { errors: [{ path: 'subject' }] } });
    // A GET is a 405 naming POST.
    const wrong = await get(t.baseUrl, '/api/v1/valuations/batch', t.key);
    expect(wrong.status).toBe(405);
  });
});
