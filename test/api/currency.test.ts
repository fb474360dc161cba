/**
 * `currency=EUR` on every endpoint that returns money: each amount is its XAF value at
 * 655.957 XAF = 1 EUR, rounded half up to the cent; price bounds are whole euros compared
 * with the EUR price shown; cursors do not depend on the currency.
 */
import { describe, expect, it } from 'vitest';
import { fromXaf } from '../../contract/currency.js';
import { get, serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('enterprise');

const eur = (xaf: number | null) => (xaf === null ? null : fromXaf(xaf, 'EUR'));

/** An independent conversion in SQL numeric: XAF / 655.957, rounded to the cent (half away from zero). */
async function sqlEur(xaf: number): Promise<number> {
  const { rows } = await t.db.pool.query<{ e: string }>('SELECT round($1::numeric / 655.957, 2) AS e', [xaf]);
  return Number(rows[0].e);
}

describe('search', () => {
  it('gives the same listings with every amount in EUR and currency EUR', async () => {
    const query = '/api/v1/listings?city=Douala&sort=-price&limit=50';
    const [xaf, inEur] = await Promise.all([get(t.baseUrl, query, t.key), get(t.baseUrl, `${query}&currency=EUR`, t.key)]);
    expect(xaf.status).toBe(200);
    expect(inEur.status).toBe(200);
    expect(inEur.body.data.length).toBe(50);
    expect(inEur.body.data.map((l: { id: string }) => l.id)).toEqual(xaf.body.data.map((l: { id: string }) => l.id));
    for (const [i, l] of inEur.body.data.entries()) {
      const x = xaf.body.data[i];
      expect(x.currency).toBe('XAF');
      expect(l.currency).toBe('EUR');
      expect(l.price).toBe(await sqlEur(x.price));
      expect(l.price_per_m2).toBe(eur(x.price_per_m2));
      expect(Math.round(l.price * 100)).toBeCloseTo(l.price * 100, 6); // never more than 2 decimals
    }
  });

  it('reads min_price and max_price as whole euros, compared with the EUR price shown', async () => {
    const [min, max] = [150, 300];
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(
        t.baseUrl,
        `/api/v1/listings?currency=EUR&min_price=${min}&max_price=${max}&purpose=rent&limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        t.key,
      );
      expect(res.status).toBe(200);
      for (const l of res.body.data) {
        expect(l.price).toBeGreaterThanOrEqual(min);
        expect(l.price).toBeLessThanOrEqual(max);
      }
      ids.push(...res.body.data.map((l: { id: string }) => l.id));
      cursor = res.body.meta.next_cursor;
    } while (cursor);
    const { rows } = await t.db.pool.query<{ id: string }>(
      `SELECT id FROM listings WHERE status = 'active' AND purpose = 'rent'
         AND round(price::numeric / 655.957, 2) BETWEEN $1 AND $2 ORDER BY id`,
      [min, max],
    );
    expect(rows.length).toBeGreaterThan(20);
    expect(ids.sort()).toEqual(rows.map((r) => r.id));
  });

  it('lets a walk switch currency between pages, but binds price bounds to the XAF range they denote', async () => {
    const first = await get(t.baseUrl, '/api/v1/listings?city=Yaoundé&limit=5', t.key);
    const next = await get(
      t.baseUrl,
      `/api/v1/listings?city=Yaoundé&limit=5&currency=EUR&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
      t.key,
    );
    expect(next.status).toBe(200);
    expect(next.body.data[0].currency).toBe('EUR');
    const xafNext = await get(
      t.baseUrl,
      `/api/v1/listings?city=Yaoundé&limit=5&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`,
      t.key,
    );
    expect(next.body.data.map((l: { id: string }) => l.id)).toEqual(xafNext.body.data.map((l: { id: string }) => l.id));

    const bounded = await get(t.baseUrl, '/api/v1/listings?min_price=100&limit=5&currency=EUR', t.key);
    const otherRange = await get(
      t.baseUrl,
      `/api/v1/listings?min_price=100&limit=5&cursor=${encodeURIComponent(bounded.body.meta.next_cursor)}`,
      t.key,
    );
    expect(otherRange.status).toBe(400);
    expect(otherRange.body.code).toBe('invalid_cursor');
  });

  it('refuses another currency, listing the allowed ones', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?currency=USD', t.key);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ path: 'currency', message: 'must be one of: XAF, EUR' });
  });
});

describe('detail', () => {
  it('converts the price, the price per m² and the whole price history', async () => {
    const { rows } = await t.db.pool.query<{ listing_id: string }>(
      'SELECT listing_id FROM price_history GROUP BY listing_id HAVING count(*) > 1 ORDER BY listing_id LIMIT 1',
    );
    expect(rows).toHaveLength(1);
    const path = `/api/v1/listings/${rows[0].listing_id}`;
    const [xaf, inEur] = await Promise.all([get(t.baseUrl, path, t.key), get(t.baseUrl, `${path}?currency=EUR`, t.key)]);
    expect(inEur.status).toBe(200);
    expect(inEur.body.data).toMatchObject({
      id: xaf.body.data.id,
      currency: 'EUR',
      price: eur(xaf.body.data.price),
      price_per_m2: eur(xaf.body.data.price_per_m2),
    });
    expect(inEur.body.data.price_history.length).toBeGreaterThan(1);
    expect(inEur.body.data.price_history).toEqual(
      xaf.body.data.price_history.map((h: { date: string; price: number }) => ({ date: h.date, price: eur(h.price) })),
    );
  });
});

describe('market', () => {
  it('converts every amount of the stats, counts untouched', async () => {
    const [xaf, inEur] = await Promise.all([
      get(t.baseUrl, '/api/v1/market/stats?city=Douala', t.key),
      get(t.baseUrl, '/api/v1/market/stats?city=Douala&currency=EUR', t.key),
    ]);
    expect(inEur.body.data.length).toBeGreaterThan(0);
    expect(inEur.body.data.length).toBe(xaf.body.data.length);
    const money = [
      'avg_price',
      'min_price',
      'p25_price',
      'median_price',
      'p75_price',
      'max_price',
      'avg_price_per_m2',
      'p25_price_per_m2',
      'median_price_per_m2',
      'p75_price_per_m2',
    ];
    for (const [i, row] of inEur.body.data.entries()) {
      const x = xaf.body.data[i];
      expect(row.currency).toBe('EUR');
      for (const field of money) expect(row[field], field).toBe(eur(x[field]));
      for (const field of ['volume', 'sample_size', 'price_per_m2_sample_size', 'purpose', 'type', 'as_of'])
        expect(row[field]).toEqual(x[field]);
    }
  });

  it('converts every amount of the trends, changes in % untouched', async () => {
    const [xaf, inEur] = await Promise.all([
      get(t.baseUrl, '/api/v1/market/trends?city=Yaoundé', t.key),
      get(t.baseUrl, '/api/v1/market/trends?city=Yaoundé&currency=EUR', t.key),
    ]);
    expect(inEur.body.data.length).toBeGreaterThan(0);
    for (const [i, row] of inEur.body.data.entries()) {
      const x = xaf.body.data[i];
      expect(row).toEqual({
        ...x,
        currency: 'EUR',
        avg_price: eur(x.avg_price),
        median_price: eur(x.median_price),
        avg_price_per_m2: eur(x.avg_price_per_m2),
      });
    }
  });
});
