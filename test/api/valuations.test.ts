/**
 * `GET /valuations` on the seeded data: the comparables are candidates SQL finds (same
 * city, quarter, purpose and type, within the horizon), sorted by similarity and more alike
 * the subject than the candidates they were chosen from; each adjusted price is the
 * advert's price times its factors, re-done here; a listing is never its own comparable;
 * thin data is a 422; Starter and Pro are refused, Enterprise counted; EUR converts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromXaf } from '../../contract/currency.js';
import { VALUATION_FSD_BANDS, VALUATION_MAX_COMPARABLES, VALUATION_MIN_COMPARABLES } from '../../contract/valuations.js';
import { HORIZON_MONTHS } from '../../server/domain/valuations/candidates.js';
import { DAY_MS, plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { get, serverWithAccount, storedUsage } from '../helpers/server.js';

const t = serverWithAccount('enterprise');
const source = plantSource();

interface Cell {
  city: string;
  neighborhood: string;
  type: string;
  purpose: string;
  n: number;
}
let thick: Cell;
const THIN = { city: 'Ebolowa', neighborhood: 'Abang', type: 'warehouse', purpose: 'furnished_rent' };

beforeAll(async () => {
  // The quarter, type and purpose with the most adverts of the seed.
  const { rows } = await t.db.pool.query<Cell>(
    `SELECT city, min(neighborhood) AS neighborhood, type::text, purpose::text, count(*)::int AS n FROM listings
     WHERE source = 'mboa-seed' AND neighborhood IS NOT NULL AND listed_at > now() - interval '${HORIZON_MONTHS} months'
     GROUP BY city, neighborhood_key, type, purpose ORDER BY n DESC, 1, 2 LIMIT 1`,
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

const qs = (o: Record<string, string | number>) => new URLSearchParams(Object.entries(o).map(([k, v]) => [k, String(v)])).toString();

/** Candidates as the documented rule reads them: same city, quarter, purpose and type, within the horizon. */
async function candidateIds(cell: Omit<Cell, 'n'>): Promise<Set<string>> {
  const { rows } = await t.db.pool.query<{ id: string }>(
    `SELECT id FROM listings WHERE city = $1 AND neighborhood_key = (SELECT neighborhood_key FROM listings WHERE city = $1 AND neighborhood = $2 LIMIT 1)
       AND type = $3::"PropertyType" AND purpose = $4::"Purpose" AND listed_at > now() - interval '${HORIZON_MONTHS} months'`,
    [cell.city, cell.neighborhood, cell.type, cell.purpose],
  );
  return new Set(rows.map((r) => r.id));
}

describe('GET /api/v1/valuations', () => {
  it('values a described subject from the most similar comparables of its quarter, with honest arithmetic', async () => {
    expect(thick.n).toBeGreaterThanOrEqual(15);
    const { rows: typical } = await t.db.pool.query<{ surface: number; bedrooms: number }>(
      `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY surface) AS surface, percentile_disc(0.5) WITHIN GROUP (ORDER BY bedrooms) AS bedrooms
       FROM listings WHERE city = $1 AND neighborhood = $2 AND type = $3::"PropertyType" AND purpose = $4::"Purpose"`,
      [thick.city, thick.neighborhood, thick.type, thick.purpose],
    );
    const subject = { surface: Math.round(typical[0].surface), bedrooms: typical[0].bedrooms };
    const q = { city: thick.city, neighborhood: thick.neighborhood, type: thick.type, purpose: thick.purpose, ...subject };
    const res = await get(t.baseUrl, `/api/v1/valuations?${qs(q)}`, t.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const v = res.body.data;
    expect(v.basis).toBe('asking_prices');
    expect(v.method).toBe('quarter_comparables');
    expect(v.subject).toMatchObject({ city: thick.city, type: thick.type, purpose: thick.purpose, ...subject });
    const e = v.estimate;
    expect(e.low).toBeLessThan(e.price);
    expect(e.price).toBeLessThan(e.high);
    expect(e.confidence_level).toBe(0.8);
    expect(e.confidence).toBe(e.fsd <= VALUATION_FSD_BANDS.high ? 'high' : e.fsd <= VALUATION_FSD_BANDS.medium ? 'medium' : 'low');
    // The range is the estimate times exp(±z·fsd), z of a two-sided 80 % interval.
    expect(Math.log(e.high / e.price)).toBeCloseTo(1.2816 * e.fsd, 2);

    const candidates = await candidateIds(thick);
    const comps = v.comparables as Array<Record<string, any>>;
    expect(comps.length).toBe(Math.min(VALUATION_MAX_COMPARABLES, candidates.size));
    expect(v.sample_size).toBeGreaterThanOrEqual(VALUATION_MIN_COMPARABLES);
    expect(v.sample_size).toBeLessThanOrEqual(candidates.size);
    for (const [i, c] of comps.entries()) {
      expect(candidates.has(c.id), c.id).toBe(true);
      if (i > 0) expect(c.similarity).toBeLessThanOrEqual(comps[i - 1].similarity);
      expect(c).not.toHaveProperty('contact_phone');
      // The adjustment re-done: surface and bedrooms factors from the published slopes (none
      // when the comparable does not say: most rent adverts give no surface), their product on the price.
      if (c.surface !== null && c.bedrooms !== null) {
        expect(c.adjustments.surface).toBeCloseTo((subject.surface / c.surface) ** v.coefficients.surface, 3);
        expect(c.adjustments.bedrooms).toBeCloseTo(((1 + subject.bedrooms) / (1 + c.bedrooms)) ** v.coefficients.bedrooms, 3);
      }
      if (c.surface === null) expect(c.adjustments.surface).toBe(1);
      if (c.bedrooms === null) expect(c.adjustments.bedrooms).toBe(1);
      expect(c.adjustments.quarter).toBe(1);
      const product = Object.values(c.adjustments as Record<string, number>).reduce((acc, f) => acc * f, c.price);
      // Each factor is published to 4 decimals (±5e-5) and the price to the unit: the bound
      // is what that rounding allows, factor by factor.
      const factors = Object.values(c.adjustments as Record<string, number>);
      const roundingBound = factors.reduce((acc, f) => acc + 5e-5 / f, 0) + 1 / c.adjusted_price;
      expect(Math.abs(c.adjusted_price - product) / c.adjusted_price).toBeLessThan(roundingBound * 1.01);
      expect(c.weight).toBeGreaterThanOrEqual(0);
    }
    // The estimate lies among the adjusted prices it averages.
    const adjusted = comps.map((c) => c.adjusted_price);
    expect(e.price).toBeGreaterThanOrEqual(Math.min(...adjusted) * 0.8);
    expect(e.price).toBeLessThanOrEqual(Math.max(...adjusted) * 1.25);
    // Chosen for likeness: the comparables shown are closer in surface to the subject than the candidates overall.
    if (candidates.size > comps.length) {
      const { rows: all } = await t.db.pool.query<{ surface: number }>(
        `SELECT surface FROM listings WHERE id = ANY($1) AND surface IS NOT NULL`,
        [[...candidates]],
      );
      const gap = (s: number) => Math.abs(Math.log(s / subject.surface));
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const shownSurfaces = comps.filter((c) => c.surface !== null).map((c) => gap(c.surface));
      expect(mean(shownSurfaces)).toBeLessThan(mean(all.map((r) => gap(r.surface))));
    }
  });

  it('values a listed property without it among its own comparables, and converts to EUR', async () => {
    const { rows } = await t.db.pool.query<{ id: string; surface: number; bedrooms: number }>(
      `SELECT id, surface, bedrooms FROM listings WHERE city = $1 AND neighborhood = $2 AND type = $3::"PropertyType" AND purpose = $4::"Purpose"
       ORDER BY listed_at DESC LIMIT 1`,
      [thick.city, thick.neighborhood, thick.type, thick.purpose],
    );
    const id = rows[0].id;
    const xaf = await get(t.baseUrl, `/api/v1/valuations?listing_id=${id}`, t.key);
    expect(xaf.status, JSON.stringify(xaf.body)).toBe(200);
    expect(xaf.body.data.subject).toMatchObject({
      city: thick.city,
      type: thick.type,
      surface: rows[0].surface,
      bedrooms: rows[0].bedrooms,
    });
    expect(xaf.body.data.comparables.map((c: { id: string }) => c.id)).not.toContain(id);
    const eur = await get(t.baseUrl, `/api/v1/valuations?listing_id=${id}&currency=EUR`, t.key);
    expect(eur.status).toBe(200);
    expect(eur.body.data.currency).toBe('EUR');
    // Same valuation (the model is the same for both calls): every amount converted by the fixed parity.
    for (const k of ['price', 'low', 'high'] as const) {
      expect(Math.abs(eur.body.data.estimate[k] - fromXaf(xaf.body.data.estimate[k], 'EUR'))).toBeLessThanOrEqual(0.02);
    }
    expect(eur.body.data.comparables[0].price).toBe(fromXaf(xaf.body.data.comparables[0].price, 'EUR'));
  });

  it('works without a surface: a wider range than with it', async () => {
    const base = { city: thick.city, neighborhood: thick.neighborhood, type: thick.type, purpose: thick.purpose, bedrooms: 2 };
    const without = await get(t.baseUrl, `/api/v1/valuations?${qs(base)}`, t.key);
    expect(without.status).toBe(200);
    expect(without.body.data.subject.surface).toBeNull();
    expect(without.body.data.coefficients.surface).toBeNull();
    for (const c of without.body.data.comparables) expect(c.adjustments.surface).toBe(1);
  });

  it('refuses thin data with 422 insufficient_data naming what is missing, never a number from two adverts', async () => {
    const res = await get(t.baseUrl, `/api/v1/valuations?${qs({ ...THIN, surface: 500 })}`, t.key);
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('insufficient_data');
    expect(res.body.detail).toMatch(/2 warehouse adverts for furnished rent in Ebolowa/);
    expect(res.body.errors[0].message).toMatch(/at least 5/);
  });

  it('refuses a subject it cannot place or type, naming the parameter', async () => {
    const missing = await get(t.baseUrl, '/api/v1/valuations?city=Douala&purpose=sale', t.key);
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((x: { path: string }) => x.path)).toEqual(['type']);
    const unknown = await get(t.baseUrl, '/api/v1/valuations?city=Doula&type=villa&purpose=sale', t.key);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].suggestions).toContain('Douala');
    const lone = await get(t.baseUrl, '/api/v1/valuations?city=Douala&type=villa&purpose=sale&lat=4.01', t.key);
    expect(lone.status).toBe(400);
    expect(lone.body.errors[0].path).toBe('lng');
  });

  it('is Enterprise only, and counted', async () => {
    const q = qs({ city: thick.city, neighborhood: thick.neighborhood, type: thick.type, purpose: thick.purpose });
    for (const plan of ['starter', 'pro'] as const) {
      const res = await get(t.baseUrl, `/api/v1/valuations?${q}`, t.keys[plan]);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('plan_forbidden');
    }
    const account = await t.account('enterprise');
    expect((await get(t.baseUrl, `/api/v1/valuations?${q}`, account.key)).status).toBe(200);
    expect((await get(t.baseUrl, `/api/v1/valuations?${qs({ ...THIN })}`, account.key)).status).toBe(422);
    expect(await storedUsage(t, account.id)).toBe(1);
  });
});
