/** XAF → EUR at 655.957, half up to the cent, and EUR price bounds that match exactly what is shown. */
import { describe, expect, it } from 'vitest';
import { fromXaf, xafBounds } from '../../contract/currency.js';

describe('fromXaf', () => {
  it('leaves XAF untouched and converts to the cent, rounding half up', () => {
    expect(fromXaf(450_000_000, 'XAF')).toBe(450_000_000);
    expect(fromXaf('450000000', 'XAF')).toBe(450_000_000);
    expect(fromXaf(655_957, 'EUR')).toBe(1000);
    expect(fromXaf(656, 'EUR')).toBe(1); // 1.00007 → 1.00
    expect(fromXaf(25_000, 'EUR')).toBe(38.11); // 38.1123...
    expect(fromXaf(450_000_000, 'EUR')).toBe(686020.58); // 686,020.5769...
    expect(fromXaf(0, 'EUR')).toBe(0);
  });

  it('rounds exactly half a cent up: 0.005 EUR is 3.279785 XAF, never an integer, so check around it', () => {
    // 3 XAF = 0.004573... EUR → 0.00; 4 XAF = 0.006097... → 0.01
    expect(fromXaf(3, 'EUR')).toBe(0);
    expect(fromXaf(4, 'EUR')).toBe(0.01);
  });

  it('is exact beyond 2^53 intermediate products (prices up to 10^15 XAF)', () => {
    expect(fromXaf(1_000_000_000_000_000, 'EUR')).toBe(1_524_490_172_374.1); // 1,524,490,172,374.1037...
    expect(fromXaf('1000000000000000', 'EUR')).toBe(1_524_490_172_374.1);
  });
});

describe('xafBounds', () => {
  it('is the identity in XAF', () => {
    expect(xafBounds({ min: 10, max: 20 }, 'XAF')).toEqual({ min: 10n, max: 20n });
    expect(xafBounds({}, 'XAF')).toEqual({});
  });

  it('selects exactly the prices whose shown EUR amount is within the bounds', () => {
    for (const m of [0, 1, 2, 37, 100, 999, 152_449, 1_000_000]) {
      const { min, max } = xafBounds({ min: m, max: m }, 'EUR');
      const lo = Number(min);
      const hi = Number(max);
      // Around each bound, shown ≥ m exactly from `min`, and shown ≤ m exactly up to `max`.
      for (let x = Math.max(0, lo - 3); x <= lo + 3; x++) expect(fromXaf(x, 'EUR') >= m, `min ${m} at ${x}`).toBe(x >= lo);
      for (let x = Math.max(0, hi - 3); x <= hi + 3; x++) expect(fromXaf(x, 'EUR') <= m, `max ${m} at ${x}`).toBe(x <= hi);
    }
  });
});
