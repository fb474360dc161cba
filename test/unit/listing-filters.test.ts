/** The one WHERE builder, as a pure function of the parsed query: no database needed. */
import { describe, expect, it } from 'vitest';
import { ZListingsQuery } from '../../contract/schemas.js';
import { canonicalFilters, effectiveFilters, listingFilterSql, SqlConditions } from '../../server/domain/listing/filters.js';

const parse = (query: Record<string, string>) => ZListingsQuery.parse(query);
/** The builder takes the filters as the front handler works them out, once per call. */
const sqlOf = (query: Record<string, string>) => listingFilterSql(effectiveFilters(parse(query)), 'l');

describe('listingFilterSql', () => {
  it('turns every filter into one parameterised condition on the given alias', () => {
    const sql = sqlOf({
      city: 'YAOUNDÉ',
      neighborhood: 'Biyem-Assi',
      type: 'villa',
      purpose: 'sale',
      min_price: '1000',
      max_price: '2000',
      min_surface: '50',
      max_surface: '500',
      min_bedrooms: '2',
      min_bathrooms: '1',
      listed_after: '2026-01-01',
      updated_after: '2026-01-01T08:00:00+01:00',
      status: 'sold',
    });
    expect(sql.conditions).toEqual([
      'l.status = $1::"ListingStatus"',
      'l.city_key = $2',
      'l.neighborhood_key = $3',
      'l.type = ANY($4::"PropertyType"[])',
      'l.purpose = ANY($5::"Purpose"[])',
      'l.price >= $6::bigint',
      'l.price <= $7::bigint',
      'l.surface >= $8',
      'l.surface <= $9',
      'l.bedrooms >= $10',
      'l.bathrooms >= $11',
      'l.listed_at >= $12',
      'l.updated_at > $13',
    ]);
    expect(sql.params).toEqual([
      'sold',
      'yaounde',
      'biyem assi',
      ['villa'],
      ['sale'],
      '1000',
      '2000',
      50,
      500,
      2,
      1,
      new Date('2026-01-01T00:00:00Z'),
      new Date('2026-01-01T07:00:00Z'),
    ]);
    expect(sql.where()).toMatch(/^WHERE l\.status = \$1::"ListingStatus" AND l\.city_key = \$2 AND /);
  });

  it('applies `active` by default and nothing for status=any', () => {
    expect(sqlOf({}).conditions).toEqual(['l.status = $1::"ListingStatus"']);
    const any = sqlOf({ status: 'any' });
    expect(any.conditions).toEqual([]);
    expect(any.where()).toBe('');
  });

  it('serves the market tables through the same columns, on their own alias, continuing given parameters', () => {
    const sql = new SqlConditions();
    sql.param('already there');
    listingFilterSql(effectiveFilters({ city: 'douala', neighborhood: 'Deïdo', type: ['land'], purpose: ['rent'] }), 's', sql);
    expect(sql.conditions).toEqual([
      's.city_key = $2',
      's.neighborhood_key = $3',
      's.type = ANY($4::"PropertyType"[])',
      's.purpose = ANY($5::"Purpose"[])',
    ]);
    expect(sql.params).toEqual(['already there', 'douala', 'deido', ['land'], ['rent']]);
  });

  it('reads enum values in any case and lists separated by commas, sorted and distinct', () => {
    const f = effectiveFilters(parse({ type: 'Villa,HOUSE,villa', purpose: 'Rent, sale', sort: '-PRICE', status: 'Any', currency: 'eur' }));
    expect(f.type).toEqual(['house', 'villa']);
    expect(f.purpose).toEqual(['rent', 'sale']);
    expect(f.status).toBeUndefined();
    expect(ZListingsQuery.parse({ sort: '-PRICE', currency: 'eur' })).toMatchObject({ sort: '-price', currency: 'EUR' });
  });

  it('binds cursors to lists whatever their order, and apart from any other list', () => {
    const bound = (q: Record<string, string>) => canonicalFilters(effectiveFilters(parse(q)));
    expect(bound({ purpose: 'sale,rent' })).toEqual(bound({ purpose: 'RENT,sale' }));
    expect(bound({ purpose: 'sale,rent' })).not.toEqual(bound({ purpose: 'sale' }));
    expect(bound({ purpose: 'sale' })).toEqual({ status: 'active', purpose: 'sale' });
  });

  it('reads EUR price bounds as the XAF range whose shown EUR price is within them', () => {
    const f = effectiveFilters(parse({ currency: 'EUR', min_price: '100', max_price: '200' }));
    // 65,592 XAF is 99.9944 EUR, shown 99.99; 65,593 XAF is 99.9959 EUR, shown 100.00.
    // 131,194 XAF is 200.0040 EUR, shown 200.00; 131,195 XAF is 200.0055 EUR, shown 200.01.
    expect(f.minPriceXaf).toBe(65_593n);
    expect(f.maxPriceXaf).toBe(131_194n);
  });

  it('binds cursors to the filters as applied: two spellings of one filter are one binding, currency is none', () => {
    const a = canonicalFilters(effectiveFilters(parse({ city: 'Yaoundé', listed_after: '2026-01-01' })));
    const b = canonicalFilters(effectiveFilters(parse({ city: 'yaounde', listed_after: '2026-01-01T01:00:00+01:00', currency: 'EUR' })));
    expect(a).toEqual(b);
    expect(a).toEqual({ status: 'active', cityKey: 'yaounde', listedAfter: '2026-01-01T00:00:00.000Z' });
    const eur = canonicalFilters(effectiveFilters(parse({ min_price: '100', currency: 'EUR' })));
    const xaf = canonicalFilters(effectiveFilters(parse({ min_price: '100' })));
    expect(eur).not.toEqual(xaf);
  });

  it('turns the advert-term filters into conditions an advert that does not say never meets, bound into cursors', () => {
    const sql = sqlOf({ furnished: 'False', max_advance_months: '06', land_title: 'TITLED,in_progress,titled', status: 'any' });
    expect(sql.conditions).toEqual(['l.furnished = $1', 'l.advance_months <= $2', 'l.land_title = ANY($3::"LandTitle"[])']);
    expect(sql.params).toEqual([false, 6, ['in_progress', 'titled']]);
    const bound = (q: Record<string, string>) => canonicalFilters(effectiveFilters(parse(q)));
    expect(bound({ furnished: 'TRUE', land_title: 'titled,in_progress' })).toEqual({
      status: 'active',
      furnished: 'true',
      landTitle: 'in_progress,titled',
    });
    expect(bound({ furnished: 'true' })).not.toEqual(bound({ furnished: 'false' }));
    expect(bound({ max_advance_months: '6' })).not.toEqual(bound({ max_advance_months: '7' }));
    for (const [name, value] of [
      ['furnished', 'yes'],
      ['max_advance_months', '25'],
      ['land_title', 'freehold'],
    ]) {
      const parsed = ZListingsQuery.safeParse({ [name]: value });
      expect(parsed.success).toBe(false);
      expect([...new Set(parsed.error?.issues.map((i) => i.path[0]))]).toEqual([name]);
    }
  });
});
