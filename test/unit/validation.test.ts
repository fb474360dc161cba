/** The contract's query schemas: what the API accepts, without a server in the way. */
import { describe, expect, it } from 'vitest';
import { ZExportQuery, ZListingsQuery, ZStatsQuery } from '../../contract/schemas.js';

const issues = (result: { success: boolean; error?: { issues: Array<{ path: (string | number)[]; message: string; code: string }> } }) =>
  result.success ? [] : result.error!.issues.map((i) => (i.code === 'unrecognized_keys' ? 'unknown' : `${i.path.join('.')}: ${i.message}`));

describe('the search query', () => {
  it('fills its defaults', () => {
    expect(ZListingsQuery.parse({})).toMatchObject({ status: 'active', sort: '-listed_at', limit: 20, currency: 'XAF' });
  });

  it('takes whole numbers in digits only, within their ranges', () => {
    expect(ZListingsQuery.parse({ min_price: '100000', limit: '200' })).toMatchObject({ min_price: 100_000, limit: 200 });
    for (const value of ['1e3', '0x10', '+5', '-1', '1.5', ' 7', ''])
      expect(ZListingsQuery.safeParse({ min_price: value }).success, value).toBe(false);
    expect(issues(ZListingsQuery.safeParse({ limit: '201' }))).toHaveLength(1);
    expect(issues(ZListingsQuery.safeParse({ limit: '0' }))).toHaveLength(1);
  });

  it('refuses unknown parameters, unknown values and crossed ranges', () => {
    expect(issues(ZListingsQuery.safeParse({ citty: 'Douala' }))).toEqual(['unknown']);
    expect(issues(ZListingsQuery.safeParse({ type: 'castle' }))[0]).toMatch(/^type: must be one or more of: villa, house/);
    expect(issues(ZListingsQuery.safeParse({ min_price: '10', max_price: '5' }))).toEqual([
      'min_price: min_price must not exceed max_price',
    ]);
  });

  it('takes real instants only', () => {
    expect(ZListingsQuery.safeParse({ listed_after: '2026-02-28' }).success).toBe(true);
    for (const value of ['2026-02-30', '2026-01-01T00:00:00+99:99', '2026-01-01T24:00:00Z', '0000-01-01', 'yesterday']) {
      expect(ZListingsQuery.safeParse({ listed_after: value }).success, value).toBe(false);
    }
  });
});

describe('the export query', () => {
  it('takes the search filters and `after`, never sort, limit or cursor', () => {
    expect(ZExportQuery.parse({ city: 'Douala', after: 'lst_aaaaaaaaaaaaaaaaaaaa' })).toMatchObject({ status: 'active', currency: 'XAF' });
    for (const extra of [{ sort: 'price' }, { limit: '5' }, { cursor: 'x' }])
      expect(issues(ZExportQuery.safeParse(extra))).toEqual(['unknown']);
    expect(ZExportQuery.safeParse({ after: 'lst_short' }).success).toBe(false);
  });
});

describe('the stats query', () => {
  it('takes a neighbourhood, a type, a purpose and a currency', () => {
    expect(ZStatsQuery.parse({ city: 'Douala', neighborhood: 'Bonapriso', type: 'villa', purpose: 'sale', currency: 'EUR' })).toMatchObject(
      { currency: 'EUR' },
    );
    expect(ZStatsQuery.safeParse({ currency: 'USD' }).success).toBe(false);
  });
});
