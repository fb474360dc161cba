/**
 * The generated listings hold together the way real ones do, over 20,000 rows: every row
 * passes the import rules, rooms fit the type, prices fit city and purpose, dates fall in
 * the last three years with more recent activity, and a seed gives the same rows every time.
 * (What the rows leave out, misspell and repeat: generator-feed.test.ts.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CITIES } from '../../contract/places.js';
import { type GeneratedRecord as ListingRecord, generateListings } from '../../server/generate/generator.js';
import { FLOORS } from '../../server/ingest/plausibility.js';
import { validateRow } from '../../server/ingest/validate.js';

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
      const checked = validateRow(structuredClone(r));
      if (!checked.ok) throw new Error(`${r.source_ref}: ${checked.reason}`);
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
    // Written as adverts spell them: most resolve to one of the city's quarters.
    const resolved = rows.filter((r) => {
      const checked = validateRow(structuredClone(r));
      return checked.ok && checked.record.neighborhood_key != null;
    });
    expect(resolved.length / rows.length).toBeGreaterThan(0.95);
  });

  it('keeps rooms and surface consistent with the type', () => {
    for (const r of rows) {
      const ctx = `${r.source_ref} ${r.type} ${r.bedrooms}/${r.bathrooms}/${r.surface}`;
      switch (r.type) {
        case 'studio':
          if (r.bedrooms != null) expect(r.bedrooms, ctx).toBeLessThanOrEqual(1);
          if (r.surface != null) expect(r.surface, ctx).toBeLessThanOrEqual(40);
          break;
        case 'room':
          if (r.bedrooms != null) expect(r.bedrooms, ctx).toBe(1);
          if (r.surface != null) expect(r.surface, ctx).toBeLessThanOrEqual(20);
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
          if (r.bedrooms != null) expect(r.bedrooms, ctx).toBeGreaterThanOrEqual(3);
          if (r.surface != null) expect(r.surface, ctx).toBeGreaterThanOrEqual(250);
          break;
        case 'apartment':
        case 'house':
        case 'duplex':
          if (r.bedrooms != null) expect(r.bedrooms, ctx).toBeGreaterThanOrEqual(1);
          if (r.bathrooms != null) expect(r.bathrooms, ctx).toBeGreaterThanOrEqual(1);
          if (r.bathrooms != null && r.bedrooms != null) expect(r.bathrooms, ctx).toBeLessThanOrEqual(r.bedrooms + 1);
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
      // A room to let in a small town asks a few thousand XAF a month, never under the importer's floor.
      if (r.purpose !== 'sale') expect(r.price, r.source_ref).toBeGreaterThanOrEqual(FLOORS.rent);
      if (r.purpose !== 'sale') expect(r.price, r.source_ref).toBeLessThanOrEqual(20_000_000);
    }
    const villas = where((r) => r.neighborhood === 'Bonapriso' && r.type === 'villa' && r.purpose === 'sale');
    expect(villas.length).toBeGreaterThan(5);
    for (const v of villas) expect(v.price).toBeGreaterThanOrEqual(150_000_000);
    expect(median(villas.map((v) => v.price))).toBeGreaterThan(400_000_000);

    const studios = where((r) => r.city === 'Bafoussam' && r.type === 'studio' && r.purpose === 'rent' && r.furnished !== true);
    expect(studios.length).toBeGreaterThan(5);
    for (const s of studios) expect(s.price).toBeGreaterThanOrEqual(FLOORS.rent);
    for (const s of studios) expect(s.price).toBeLessThanOrEqual(100_000);

    // Douala is dearer than Bafoussam for the same kind of property, and prime districts dearer than popular ones.
    const aptRent = (city: string) =>
      median(where((r) => r.city === city && r.type === 'apartment' && r.purpose === 'rent' && r.bedrooms === 2).map((r) => r.price));
    expect(aptRent('Douala')).toBeGreaterThan(aptRent('Bafoussam'));
    const douala = CITIES.find((c) => c.name === 'Douala')!;
    const tierOf = new Map(douala.neighborhoods.map((n) => [n.name, n.tier]));
    const landPerM2 = (tier: number) =>
      median(
        where((r) => r.city === 'Douala' && r.type === 'land' && r.surface != null && tierOf.get(r.neighborhood!) === tier).map(
          (r) => r.price / r.surface!,
        ),
      );
    expect(landPerM2(1)).toBeGreaterThan(3 * landPerM2(3));
  });

  it('spreads listing dates over three years with more recent activity', () => {
    for (const r of rows) {
      const age = ageDays(r.listed_at);
      expect(age, r.source_ref).toBeGreaterThanOrEqual(0);
      expect(age, r.source_ref).toBeLessThanOrEqual(1_095);
      expect(Date.parse(r.updated_at!)).toBeGreaterThanOrEqual(Date.parse(r.listed_at));
      expect(Date.parse(r.updated_at!)).toBeLessThanOrEqual(NOW.getTime());
    }
    const last30 = where((r) => ageDays(r.listed_at) < 30).length;
    const previous30 = where((r) => ageDays(r.listed_at) >= 30 && ageDays(r.listed_at) < 60).length;
    const year2 = where((r) => ageDays(r.listed_at) >= 365).length;
    expect(where((r) => ageDays(r.listed_at) >= 730).length).toBeGreaterThan(rows.length * 0.1);
    expect(last30).toBeGreaterThan(previous30);
    expect(last30 / rows.length).toBeGreaterThan(0.04);
    expect(year2).toBeGreaterThan(rows.length * 0.2);
  });

  it('removes some listings (sold, rented, withdrawn) and drops some prices, with their history', () => {
    const removed = where((r) => r.status !== 'active');
    // Stock turns over: most adverts of three years have ended, a quarter to a half are on the market.
    expect(removed.length / rows.length).toBeGreaterThan(0.5);
    expect(removed.length / rows.length).toBeLessThan(0.8);
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
    const titled = where((r) => r.title != null);
    const english = (r: ListingRecord) => /\b(for rent|for sale)\b/.test(r.title!) || /^(Furnished|Fully furnished) /.test(r.title!);
    const anglophone = titled.filter((r) => ['Buea', 'Limbe', 'Bamenda'].includes(r.city));
    expect(anglophone.filter(english).length / anglophone.length).toBeGreaterThan(0.7);
    const douala = titled.filter((r) => r.city === 'Douala');
    expect(douala.filter(english).length / douala.length).toBeLessThan(0.2);
    for (const r of titled) expect(r.title).toContain(r.neighborhood);
    for (const r of rows) {
      if (r.contact_phone != null) expect(r.contact_phone).toMatch(/^\+237 6\d{2} \d{2} \d{2} \d{2}$/);
      // Reserved example domains only.
      if (r.contact_email != null) expect(r.contact_email).toMatch(/^[a-z.]+\d*@([a-z-]+\.)?example\.(com|net|org)$/);
      if (r.street_address != null) expect(r.street_address).toContain(r.city);
    }
    expect(titled.some((r) => /^Villa duplex \d chambres à vendre/.test(r.title!))).toBe(true);
    expect(titled.some((r) => /^\d-bedroom apartment for rent in /.test(r.title!))).toBe(true);
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
