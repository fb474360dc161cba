/**
 * The price model's arithmetic: each catalog quarter has its level, the formula gives that
 * level back for its reference advert (an unfurnished 2-bedroom apartment in November
 * 2026), whatever spelling names the quarter, and moves with rooms, month and title as
 * documented.
 */
import { describe, expect, it } from 'vitest';
import { CITIES } from '../../contract/places.js';
import { GAZETTEER } from '../../server/domain/places/gazetteer.js';
import { FURNISHED, PRICE_NOISE, noiseFreePrice, roundPrice } from '../../server/generate/price-model.js';
import { NEIGHBORHOOD_LEVELS } from '../../server/generate/neighborhood-levels.js';

const ref = { type: 'apartment', purpose: 'rent', bedrooms: 2, surface: null, listed_at: '2026-11-15T10:00:00Z' } as const;

describe('price model', () => {
  it('has a level for every catalog quarter and gives it back for the reference advert', () => {
    for (const city of CITIES) {
      for (const n of city.neighborhoods) {
        const level = NEIGHBORHOOD_LEVELS.get(city.name)?.get(n.name);
        expect(level, `${n.name}, ${city.name}`).toBeGreaterThan(20_000);
        // November's season factor (0.98) is the only thing between the level and the price.
        expect(noiseFreePrice({ ...ref, city: city.name, neighborhood: n.name })).toBeCloseTo(level! * 0.98, 6);
      }
    }
  });

  it('interpolates every other gazetteer quarter from the catalog quarters of its tier', () => {
    for (const city of CITIES) {
      const gazetteer = [...GAZETTEER.values()].find((g) => g.name === city.name)!;
      const levels = NEIGHBORHOOD_LEVELS.get(city.name)!;
      expect(levels.size, city.name).toBe(gazetteer.neighborhoods.length);
      for (const n of gazetteer.neighborhoods) {
        if (city.neighborhoods.some((c) => c.name === n.name)) continue;
        const sameTier = city.neighborhoods.filter((c) => c.tier === n.tier).map((c) => levels.get(c.name)!);
        if (sameTier.length === 0) continue;
        // A weighted geometric mean of some of them: within their range (to the rounding's 1,000 XAF).
        expect(levels.get(n.name)!, `${n.name}, ${city.name}`).toBeGreaterThanOrEqual(Math.min(...sameTier) - 500);
        expect(levels.get(n.name)!, `${n.name}, ${city.name}`).toBeLessThanOrEqual(Math.max(...sameTier) + 500);
        expect(noiseFreePrice({ ...ref, city: city.name, neighborhood: n.name })).toBeCloseTo(levels.get(n.name)! * 0.98, 6);
      }
    }
  });

  it('spreads Douala as its adverts do: Bonapriso over five times Logpom', () => {
    const rent = (neighborhood: string) => noiseFreePrice({ ...ref, city: 'Douala', neighborhood });
    expect(rent('Bonapriso') / rent('Logpom')).toBeGreaterThan(5);
    expect(rent('Akwa')).toBeGreaterThan(2 * rent('Kotto'));
  });

  it('reads sub-quarters, aliases and other spellings as their quarter, unknown places at the city median', () => {
    const akwa = noiseFreePrice({ ...ref, city: 'Douala', neighborhood: 'Akwa' });
    expect(noiseFreePrice({ ...ref, city: 'douala', neighborhood: 'Akwa 1' })).toBe(akwa);
    expect(noiseFreePrice({ ...ref, city: 'Douala', neighborhood: 'AKWA CENTRE' })).toBe(akwa);
    const unknown = noiseFreePrice({ ...ref, city: 'Douala', neighborhood: 'Nowhere at all' });
    expect(unknown).toBe(noiseFreePrice({ ...ref, city: 'Douala', neighborhood: null }));
    expect(() => noiseFreePrice({ ...ref, city: 'Paris' })).toThrow(/not a catalog city/);
  });

  it('moves with rooms, furnishing, surface, month and land title', () => {
    const at = { ...ref, city: 'Yaoundé', neighborhood: 'Bastos' };
    expect(noiseFreePrice({ ...at, bedrooms: 3 })).toBeGreaterThan(noiseFreePrice(at));
    // Bastos is a prime quarter: a 1-bedroom flat asks 0.42 of a 2-bedroom one, furnished 2.6 times unfurnished.
    expect(noiseFreePrice({ ...at, bedrooms: 1 }) / noiseFreePrice(at)).toBeCloseTo(0.42, 6);
    expect(noiseFreePrice({ ...at, purpose: 'furnished_rent' })).toBeCloseTo(FURNISHED[1] * noiseFreePrice(at), 6);
    expect(FURNISHED[1]).toBe(2.6);
    // A bathroom above the usual (1.5 for two bedrooms) asks 25 % more; none stated, the usual.
    expect(noiseFreePrice({ ...at, bathrooms: 2 }) / noiseFreePrice({ ...at, bathrooms: 1 })).toBeCloseTo(1.25, 6);
    expect(noiseFreePrice({ ...at, bathrooms: null })).toBeCloseTo(
      Math.sqrt(noiseFreePrice({ ...at, bathrooms: 2 }) * noiseFreePrice({ ...at, bathrooms: 1 })),
      6,
    );
    expect(noiseFreePrice({ ...at, surface: 160 })).toBeCloseTo(noiseFreePrice(at) * Math.pow(2, 0.3), 6);
    // Yaoundé rents rise 5 % a year; September is the school-year peak.
    const nov2025 = noiseFreePrice({ ...at, listed_at: '2025-11-02T00:00:00Z' });
    expect(noiseFreePrice(at) / nov2025).toBeCloseTo(1.05, 6);
    expect(noiseFreePrice({ ...at, listed_at: '2026-09-10T00:00:00Z' })).toBeGreaterThan(noiseFreePrice(at));
    const plot = { city: 'Douala', neighborhood: 'Japoma', type: 'land', purpose: 'sale', surface: 500, listed_at: ref.listed_at } as const;
    expect(noiseFreePrice({ ...plot, land_title: 'titled' })).toBeGreaterThan(noiseFreePrice({ ...plot, land_title: 'untitled' }));
    expect(noiseFreePrice({ ...plot, land_title: 'unknown' })).toBe(noiseFreePrice(plot));
  });

  it('states its noise', () => {
    expect(PRICE_NOISE.distribution).toBe('lognormal');
    expect(PRICE_NOISE.sigma.sale).toBeGreaterThan(0);
    expect(roundPrice(187_234_117)).toBe(185_000_000);
    expect(roundPrice(27_400)).toBe(27_500);
  });
});
