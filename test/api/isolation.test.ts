/**
 * One customer cannot slow the others (README, "Heavy reads"): another customer's plain
 * search, measured idle and then while one Pro key runs 10 parallel loops of each heavy
 * kind (area history at 5 km on fresh points, a 50 km radius with status=any, a
 * whole-country box with status=any, each with a random min_price so no total is cached),
 * keeps its median within twice the idle one, with no 503; the attacker gets answers or
 * 429s (with Retry-After, which it honours as the SDK does), never a 5xx. Ratios of
 * medians measured side by side, never an absolute time. The bench with the same loops at
 * 1,000,000 listings is bench/isolation.ts.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('pro');
const embedded = inject('embedded');

/**
 * The seeded listings make every read cheap: this file adds copies of them (about 65,000
 * listings in all, so that a heavy read takes a good share of a second), removed after it.
 */
const COPIES = 12;
const SOURCE = 'isolation-test';
const COLUMNS =
  'title, price, currency, city, city_key, neighborhood, neighborhood_key, surface, bedrooms, bathrooms, type, purpose, price_per_m2, status, listed_at, updated_at, removed_at, lat, lng, furnished, advance_months, deposit_months, land_title, raw_neighborhood, contact_name, contact_phone, contact_email, street_address';
beforeAll(async () => {
  if (embedded) return;
  await t.db.pool.query(
    `INSERT INTO listings (id, source, source_ref, ${COLUMNS})
     SELECT 'lst_' || substr(md5(l.id || ':iso:' || n), 1, 20), $1, l.source || ':' || l.source_ref || ':iso:' || n, ${COLUMNS}
     FROM listings l, generate_series(1, ${COPIES}) n WHERE l.source = 'mboa-seed'`,
    [SOURCE],
  );
  await t.db.pool.query('ANALYZE listings');
});
afterAll(async () => {
  if (!embedded) await t.db.pool.query('DELETE FROM listings WHERE source = $1', [SOURCE]);
});

const VICTIM = ['city=Douala&purpose=rent', 'city=Yaound%C3%A9&purpose=sale', 'city=Douala&purpose=sale&type=house'].map(
  (q) => `/api/v1/listings?${q}&limit=20`,
);
const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
const KINDS = [
  () => `/api/v1/market/history?city=Douala&purpose=rent&radius_m=5000&near=${rand(3.98, 4.12).toFixed(5)},${rand(9.64, 9.8).toFixed(5)}`,
  () =>
    `/api/v1/listings?near=${rand(3.8, 4.2).toFixed(5)},${rand(9.5, 11.6).toFixed(5)}&radius_m=50000&status=any&min_price=${Math.floor(rand(0, 5000))}`,
  () => `/api/v1/listings?bbox=8.4,1.6,16.2,13.1&status=any&min_price=${Math.floor(rand(0, 5000))}`,
];

async function call(path: string, key: string) {
  const started = performance.now();
  const res = await fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': key } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The victim's calls, one after the other: `calls` of them, or as many as 20 s allow. */
async function victim(key: string, calls: number) {
  const out: Array<{ status: number; ms: number }> = [];
  const until = Date.now() + 20_000;
  for (let i = 0; i < calls && Date.now() < until; i++) out.push(await call(VICTIM[i % VICTIM.length], key));
  return out;
}

describe.skipIf(embedded)('isolation between customers (PostgreSQL: the embedded database runs one statement at a time)', () => {
  it("leaves another customer's search within twice its idle median, with no 503, and the attacker never a 5xx", async () => {
    const other = await t.account('enterprise');
    for (const p of VICTIM) expect((await call(p, other.key)).status).toBe(200);
    const idle = await victim(other.key, 40);

    let attacking = true;
    const attacker: number[] = [];
    const loop = async (path: () => string) => {
      while (attacking) {
        const r = await call(path(), t.key);
        attacker.push(r.status);
        if (r.status === 429) await new Promise((ok) => setTimeout(ok, Math.min(r.retryAfter, 5) * 1000));
      }
    };
    const loops = KINDS.flatMap((kind) => Array.from({ length: 10 }, () => loop(kind)));
    await new Promise((ok) => setTimeout(ok, 500));
    const attacked = await victim(other.key, 40);
    attacking = false;
    await Promise.all(loops);

    expect(attacked.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(idle.length).toBe(40);
    expect(attacker.filter((s) => s >= 500)).toEqual([]);
    expect(attacker.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(attacker).toContain(429);
    const ratio = median(attacked.map((r) => r.ms)) / median(idle.map((r) => r.ms));
    expect(attacked.length).toBe(40);
    expect(
      ratio,
      `median ${median(attacked.map((r) => r.ms)).toFixed(1)} ms under attack, ${median(idle.map((r) => r.ms)).toFixed(1)} ms idle`,
    ).toBeLessThanOrEqual(2);
  }, 120_000);
});
