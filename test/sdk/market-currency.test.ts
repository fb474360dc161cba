/**
 * The SDK with what this release adds, against the real server: amounts in EUR on search
 * and detail, neighbourhood statistics with quartiles and sample sizes, suggestions for an
 * unknown city on the ValidationError, and `listings.get(id, options)` still valid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromXaf } from '../../contract/currency.js';
import { Mboa, ValidationError } from '../../sdk/src/index.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let mboa: Mboa;
beforeAll(async () => {
  t = await startTestServer();
  mboa = new Mboa({ apiKey: t.keys.pro, baseUrl: t.baseUrl, maxRetries: 0 });
});
afterAll(() => t.close());

describe('@mboa/sdk', () => {
  it('searches and reads a listing in EUR', async () => {
    const page = await mboa.listings.search({ city: 'Douala', limit: 3, currency: 'EUR' });
    expect(page.data).toHaveLength(3);
    const first = page.data[0];
    expect(first.currency).toBe('EUR');
    const xaf = await mboa.listings.get(first.id);
    expect(xaf.data.currency).toBe('XAF');
    expect(first.price).toBe(fromXaf(xaf.data.price, 'EUR'));
    const eur = await mboa.listings.get(first.id, { currency: 'EUR' }, { timeout: 10_000 });
    expect(eur.data).toMatchObject({ id: first.id, currency: 'EUR', price: first.price });
    expect(eur.data.price_history.at(-1)!.price).toBe(first.price);
  });

  it('keeps get(id, options), the form without params', async () => {
    const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1");
    const controller = new AbortController();
    const res = await mboa.listings.get(rows[0].id, { signal: controller.signal, timeout: 10_000 });
    expect(res.data).toMatchObject({ id: rows[0].id, currency: 'XAF' });
  });

  it('reads neighbourhood statistics with quartiles and sample sizes', async () => {
    const { data } = await mboa.market.stats({ city: 'Yaoundé', neighborhood: 'Bastos' });
    expect(data.length).toBeGreaterThan(0);
    for (const row of data) {
      expect(row).toMatchObject({ city: 'Yaoundé', neighborhood: 'Bastos', type: null });
      expect(row.sample_size).toBe(row.volume);
      expect(row.p25_price).toBeLessThanOrEqual(row.p75_price);
    }
  });

  it('carries the suggestions of an unknown city on the ValidationError', async () => {
    const error = await mboa.market.trends({ city: 'Yaunde' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([expect.objectContaining({ path: 'city', suggestions: ['Yaoundé'] })]);
  });
});
