/**
 * The generated market has the shapes of real adverts: measured the same way (helpers/
 * rent-shapes.ts) on the shared crawl of real Douala and Yaoundé rents (../shared/realdata/,
 * read here, never committed: the suite says so and is skipped when it is absent) and on
 * 120,000 generated rows, each figure within the bounds docs/data.md states. Shapes, not
 * levels: the crawl is a few years old, so rents are compared as ratios and spreads.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CITIES } from '../../contract/places.js';
import { GAZETTEER, resolveNeighborhood } from '../../server/domain/places/gazetteer.js';
import { FURNISHED } from '../../server/generate/price-model.js';
import { type GeneratedRecord, generateListings, REPEATS, styleOf } from '../../server/generate/generator.js';
import { matchKey } from '../../server/platform/text.js';
import { bedroomRatio, cellSpread, CRAWL, median, outsideCatalog, readCrawl, type RentAdvert } from '../helpers/rent-shapes.js';

const NOW = new Date('2026-11-20T00:00:00Z');
const DAY = 86_400_000;
const SOURCE = 'shapes';
const SEED = 7;
const crawl = readCrawl();
const catalog = new Set(CITIES.flatMap((c) => c.neighborhoods.map((n) => `${c.name}|${n.name}`)));
const tierOf = new Map([...GAZETTEER.values()].flatMap((c) => c.neighborhoods.map((n) => [`${c.name}|${n.name}`, n.tier] as const)));

let rows: GeneratedRecord[];
let generated: RentAdvert[];

/** A generated apartment rent of Douala or Yaoundé as the crawl would show it: its first price, its quarter resolved. */
function asAdvert(r: GeneratedRecord): RentAdvert | null {
  if (r.type !== 'apartment' || r.purpose === 'sale' || r.bedrooms == null) return null;
  if (r.city !== 'Douala' && r.city !== 'Yaoundé') return null;
  // A snapshot of a portal: the last year's adverts, at the price they were first asked.
  if (NOW.getTime() - Date.parse(r.listed_at) > 365 * DAY) return null;
  const gazetteer = GAZETTEER.get(matchKey(r.city))!;
  const resolved = r.neighborhood ? resolveNeighborhood(gazetteer, r.neighborhood) : null;
  return {
    city: r.city,
    neighborhood: resolved?.neighborhood ?? null,
    bedrooms: r.bedrooms,
    furnished: r.purpose === 'furnished_rent' || r.furnished === true,
    price: r.price_history?.[0].price ?? r.price,
  };
}

/** Furnished against unfurnished rent in tier-1 quarters: the median over (quarter × bedrooms) cells. */
function primeFurnishedPremium(adverts: RentAdvert[]): { ratio: number; cells: number } {
  const cells = new Map<string, { f: number[]; u: number[] }>();
  for (const a of adverts) {
    if (a.neighborhood === null || tierOf.get(`${a.city}|${a.neighborhood}`) !== 1) continue;
    // The crawl's furnished adverts under 100,000 XAF ask by the night or the week, not the month.
    if (a.furnished && a.price < 100_000) continue;
    const key = `${a.city}|${a.neighborhood}|${a.bedrooms}`;
    const cell = cells.get(key) ?? { f: [], u: [] };
    (a.furnished ? cell.f : cell.u).push(a.price);
    cells.set(key, cell);
  }
  const ratios = [...cells.values()].filter((c) => c.f.length >= 1 && c.u.length >= 3).map((c) => median(c.f) / median(c.u));
  return { ratio: median(ratios), cells: ratios.length };
}

beforeAll(() => {
  if (!crawl) return;
  rows = [...generateListings({ count: 120_000, seed: SEED, source: SOURCE, now: NOW })];
  generated = rows.map(asAdvert).filter((a): a is RentAdvert => a !== null);
});

describe.skipIf(!crawl)(`generated rents have the shapes of the real crawl (${CRAWL})`, () => {
  const within = (name: string, value: number, real: number, low: number, high: number) => {
    console.log(
      `${name}: generated ${value.toFixed(3)}, real ${real.toFixed(3)} (ratio ${(value / real).toFixed(2)}, bounds ${low}–${high})`,
    );
    expect(value / real, name).toBeGreaterThanOrEqual(low);
    expect(value / real, name).toBeLessThanOrEqual(high);
  };

  it('the bedroom curve: 1- and 3-bedroom flats against 2-bedroom ones of the same quarter', () => {
    for (const bedrooms of [1, 3]) {
      const real = bedroomRatio(crawl!.distinct, bedrooms);
      const ours = bedroomRatio(generated, bedrooms);
      expect(real.quarters).toBeGreaterThanOrEqual(8);
      expect(ours.quarters).toBeGreaterThanOrEqual(20);
      within(`${bedrooms}-bedroom / 2-bedroom`, ours.ratio, real.ratio, 0.88, 1.14);
    }
  });

  it('the spread of rents within a quarter × bedrooms × furnished cell', () => {
    const real = cellSpread(crawl!.distinct.filter((a) => !a.furnished));
    const ours = cellSpread(generated.filter((a) => !a.furnished));
    expect(real.cells).toBeGreaterThanOrEqual(25);
    within('log-rent σ within a cell (unfurnished)', ours.sigma, real.sigma, 0.85, 1.15);
  });

  it('the furnished premium of prime quarters', () => {
    const real = primeFurnishedPremium(crawl!.distinct);
    const ours = primeFurnishedPremium(generated);
    expect(real.cells).toBeGreaterThanOrEqual(5);
    within('furnished / unfurnished, tier 1', ours.ratio, real.ratio, 0.8, 1.25);
    // Popular quarters have no furnished adverts in the crawl: their premium is stated, below the middle class's.
    expect(FURNISHED[3]).toBeLessThan(FURNISHED[2]);
  });

  it('adverts in quarters the catalog lacks, as in real feeds', () => {
    const real = outsideCatalog(crawl!.distinct, catalog);
    const ours = outsideCatalog(generated, catalog);
    within('share of placed adverts outside the catalog', ours, real, 0.67, 2);
    // And every gazetteer quarter of both cities holds some.
    for (const city of ['Douala', 'Yaoundé']) {
      const held = new Set(generated.filter((a) => a.city === city).map((a) => a.neighborhood));
      const missing = GAZETTEER.get(matchKey(city))!.neighborhoods.filter((n) => !held.has(n.name) && !rowsIn(city, n.name));
      expect(
        missing.map((n) => n.name),
        city,
      ).toEqual([]);
    }
  });

  it('portal-style rows publish what the portal publishes: no surface on a home to let, no contact', () => {
    const homesToLet = new Set(['apartment', 'studio', 'room', 'house', 'duplex', 'villa']);
    const portal = rows.filter((r, i) => styleOf(i, SOURCE, SEED) === 'portal');
    const lets = portal.filter((r) => homesToLet.has(r.type) && r.purpose !== 'sale');
    // The crawl states no surface and no contact on any of its adverts.
    expect(lets.length).toBeGreaterThan(10_000);
    expect(lets.every((r) => r.surface == null)).toBe(true);
    expect(portal.every((r) => r.contact_phone == null && r.contact_name == null && r.contact_email == null)).toBe(true);
    // Portal adverts repeat more than agency ones (a crawl of the portal re-reads them: 72 % of its rows).
    const repeats = (style: 'portal' | 'agency') => {
      const seen = new Set<string>();
      let n = 0;
      let all = 0;
      rows.forEach((r, i) => {
        if (styleOf(i, SOURCE, SEED) !== style) return;
        all++;
        const key = JSON.stringify({ ...r, source_ref: undefined });
        if (seen.has(key)) n++;
        seen.add(key);
      });
      return n / all;
    };
    console.log(
      `repeats: portal rows ${repeats('portal').toFixed(3)}, agency rows ${repeats('agency').toFixed(3)}; crawl ${(1 - crawl!.distinct.length / crawl!.rows).toFixed(3)}`,
    );
    expect(repeats('portal')).toBeGreaterThan(4 * repeats('agency'));
    expect(repeats('portal')).toBeCloseTo(2 * REPEATS, 1);
  });
});

/** Whether any generated row of `city` (any purpose, any date) is filed under quarter `name`. */
function rowsIn(city: string, name: string): boolean {
  const gazetteer = GAZETTEER.get(matchKey(city))!;
  return rows.some(
    (r) => r.city === city && r.neighborhood != null && resolveNeighborhood(gazetteer, r.neighborhood)?.neighborhood === name,
  );
}
