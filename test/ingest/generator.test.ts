/**
 * The generated listings hold together the way real ones do, over 20,000 rows: every row
 * passes the import rules, rooms fit the type, prices fit city and purpose, dates fall in
 * the last two years with more recent activity, and a seed gives the same rows every time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CITIES } from '../../contract/places.js';
import { type GeneratedRecord as ListingRecord, generateListings } from '../../server/generate/generator.js';
import { ZListingRecord } from '../../server/ingest/record.js';

const NOW = new Date('2026-11-22T06:00:00Z');
const DAY = 86_400_000;
let rows: ListingRecord[];

beforeAll(() => {
  rows = [...generateListings({ count: 20_000, seed: 2026, now: NOW })];
});

const where = (pred: (r: ListingRecord) => boolean) => rows.filter(pred);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ageDays = (iso: string) => (NOW.getTime() - Date.parse(iso)) / DAY;

describe('generateListings', () => {
  it('produces rows the importer accepts, with unique references', () => {
    for (const r of rows) {
      const parsed = ZListingRecord.safeParse(r);
      if (!parsed.success)
        throw new Error(`${r.source_ref}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    }
    expect(new Set(rows.map((r) => r.source_ref)).size).toBe(rows.length);
  });

  it('covers the 12 cities with their own neighbourhoods, Douala and Yaoundé first', () => {
    const byCity = new Map<string, number>();
    for (const r of rows) byCity.set(r.city, (byCity.get(r.city) ?? 0) + 1);
    expect([...byCity.keys()].sort()).toEqual(CITIES.map((c) => c.name).sort());
    expect(byCity.get('Yaoundé')).toBeGreaterThan(0);
    const ranked = [...byCity].sort((a, b) => b[1] - a[1]).map(([c]) => c);
    expect(ranked.slice(0, 2).sort()).toEqual(['Douala', 'Yaoundé']);
    expect((byCity.get('Douala')! + byCity.get('Yaoundé')!) / rows.length).toBeGreaterThan(0.55);
    for (const r of rows) {
      const city = CITIES.find((c) => c.name === r.city)!;
      expect(city.neighbourhoods.map((n) => n.name)).toContain(r.neighborhood);
    }
  });

  it('keeps rooms and surface consistent with the type', () => {
    for (const r of rows) {
      const ctx = `${r.source_ref} ${r.type} ${r.bedrooms}/${r.bathrooms}/${r.surface}`;
      switch (r.type) {
        case 'studio':
          expect(r.bedrooms, ctx).toBeLessThanOrEqual(1);
          expect(r.surface, ctx).toBeLessThanOrEqual(40);
          break;
        case 'room':
          expect(r.bedrooms, ctx).toBe(1);
          expect(r.surface, ctx).toBeLessThanOrEqual(20);
          break;
        case 'land':
          expect([r.bedrooms, r.bathrooms], ctx).toEqual([0, 0]);
          break;
        case 'office':
        case 'shop':
        case 'warehouse':
          expect(r.bedrooms, ctx).toBe(0);
          break;
        case 'villa':
          expect(r.bedrooms, ctx).toBeGreaterThanOrEqual(3);
          expect(r.surface, ctx).toBeGreaterThanOrEqual(250);
          break;
        case 'apartment':
        case 'house':
        case 'duplex':
          expect(r.bedrooms, ctx).toBeGreaterThanOrEqual(1);
          expect(r.bathrooms, ctx).toBeGreaterThanOrEqual(1);
          expect(r.bathrooms, ctx).toBeLessThanOrEqual(r.bedrooms! + 1);
          break;
      }
      expect(Number.isInteger(r.price) && r.price > 0, ctx).toBe(true);
    }
    expect(where((r) => r.type === 'land').every((r) => r.purpose === 'sale')).toBe(true);
  });

  it('prices by city, neighbourhood, type and purpose in realistic XAF', () => {
    for (const r of rows) {
      if (r.purpose === 'sale') expect(r.price, r.source_ref).toBeGreaterThanOrEqual(500_000);
      if (r.purpose === 'sale') expect(r.price, r.source_ref).toBeLessThanOrEqual(2_000_000_000);
      if (r.purpose !== 'sale') expect(r.price, r.source_ref).toBeGreaterThanOrEqual(5_000);
      if (r.purpose !== 'sale') expect(r.price, r.source_ref).toBeLessThanOrEqual(10_000_000);
    }
    const villas = where((r) => r.neighborhood === 'Bonapriso' && r.type === 'villa' && r.purpose === 'sale');
    expect(villas.length).toBeGreaterThan(5);
    for (const v of villas) expect(v.price).toBeGreaterThanOrEqual(250_000_000);
    expect(median(villas.map((v) => v.price))).toBeGreaterThan(400_000_000);

    const studios = where((r) => r.city === 'Bafoussam' && r.type === 'studio' && r.purpose === 'rent');
    expect(studios.length).toBeGreaterThan(5);
    for (const s of studios) expect(s.price).toBeGreaterThanOrEqual(15_000);
    for (const s of studios) expect(s.price).toBeLessThanOrEqual(70_000);

    // Douala is dearer than Bafoussam for the same kind of property, and prime districts dearer than popular ones.
    const aptRent = (city: string) =>
      median(where((r) => r.city === city && r.type === 'apartment' && r.purpose === 'rent' && r.bedrooms === 2).map((r) => r.price));
    expect(aptRent('Douala')).toBeGreaterThan(aptRent('Bafoussam'));
    const douala = CITIES.find((c) => c.name === 'Douala')!;
    const tierOf = new Map(douala.neighbourhoods.map((n) => [n.name, n.tier]));
    const landPerM2 = (tier: number) =>
      median(
        where((r) => r.city === 'Douala' && r.type === 'land' && tierOf.get(r.neighborhood) === tier).map((r) => r.price / r.surface!),
      );
    expect(landPerM2(1)).toBeGreaterThan(3 * landPerM2(3));
  });

  it('spreads listing dates over two years with more recent activity', () => {
    for (const r of rows) {
      const age = ageDays(r.listed_at);
      expect(age, r.source_ref).toBeGreaterThanOrEqual(0);
      expect(age, r.source_ref).toBeLessThanOrEqual(730);
      expect(Date.parse(r.updated_at!)).toBeGreaterThanOrEqual(Date.parse(r.listed_at));
      expect(Date.parse(r.updated_at!)).toBeLessThanOrEqual(NOW.getTime());
    }
    const last30 = where((r) => ageDays(r.listed_at) < 30).length;
    const previous30 = where((r) => ageDays(r.listed_at) >= 30 && ageDays(r.listed_at) < 60).length;
    const year2 = where((r) => ageDays(r.listed_at) >= 365).length;
    expect(last30).toBeGreaterThan(previous30);
    expect(last30 / rows.length).toBeGreaterThan(0.04);
    expect(year2).toBeGreaterThan(rows.length * 0.2);
  });

  it('removes some listings (sold, rented, withdrawn) and drops some prices, with their history', () => {
    const removed = where((r) => r.status !== 'active');
    expect(removed.length / rows.length).toBeGreaterThan(0.1);
    expect(removed.length / rows.length).toBeLessThan(0.4);
    for (const r of rows) {
      if (r.status === 'active') expect(r.removed_at ?? null).toBeNull();
      else {
        expect(Date.parse(r.removed_at!)).toBeGreaterThanOrEqual(Date.parse(r.listed_at));
        expect(Date.parse(r.removed_at!)).toBeLessThanOrEqual(NOW.getTime());
      }
      if (r.status === 'sold') expect(r.purpose).toBe('sale');
      if (r.status === 'rented') expect(r.purpose).not.toBe('sale');
    }
    expect(new Set(removed.map((r) => r.status))).toEqual(new Set(['sold', 'rented', 'withdrawn']));

    const dropped = where((r) => r.price_history !== undefined);
    expect(dropped.length / rows.length).toBeGreaterThan(0.05);
    for (const r of dropped) {
      const h = r.price_history!;
      expect(h[0].date).toBe(r.listed_at);
      expect(h[h.length - 1].price).toBe(r.price);
      for (let i = 1; i < h.length; i++) {
        expect(h[i].price).toBeLessThan(h[i - 1].price);
        expect(Date.parse(h[i].date)).toBeGreaterThan(Date.parse(h[i - 1].date));
      }
    }
  });

  it('writes French and English titles as portals do, with fake Cameroonian contacts', () => {
    const english = (r: ListingRecord) => /\b(for rent|for sale)\b/.test(r.title) || /^(Furnished|Fully furnished) /.test(r.title);
    const anglophone = where((r) => ['Buea', 'Limbe', 'Bamenda'].includes(r.city));
    expect(anglophone.filter(english).length / anglophone.length).toBeGreaterThan(0.7);
    const douala = where((r) => r.city === 'Douala');
    expect(douala.filter(english).length / douala.length).toBeLessThan(0.2);
    for (const r of rows) {
      expect(r.title).toContain(r.neighborhood);
      expect(r.contact_phone).toMatch(/^\+237 6\d{2} \d{2} \d{2} \d{2}$/);
      expect(r.contact_email).toMatch(/^[a-z.]+\d*@([a-z-]+\.)?example\.(com|net|org)$/); // reserved example domains
      expect(r.street_address).toContain(r.city);
    }
    expect(rows.some((r) => /^Villa duplex \d chambres à vendre/.test(r.title))).toBe(true);
    expect(rows.some((r) => /^\d-bedroom apartment for rent in /.test(r.title))).toBe(true);
  });

  it('is deterministic for a seed and now, and a larger count extends a smaller one', () => {
    const again = [...generateListings({ count: 1_000, seed: 2026, now: NOW })];
    expect(again).toEqual(rows.slice(0, 1_000));
    const other = [...generateListings({ count: 1_000, seed: 2027, now: NOW })];
    expect(other.filter((r, i) => r.title === rows[i].title && r.price === rows[i].price).length).toBeLessThan(100);
    const otherSource = [...generateListings({ count: 10, seed: 2026, now: NOW, source: 'elsewhere' })];
    expect(otherSource[0].source_ref.startsWith('elsewhere-')).toBe(true);
  });
});
