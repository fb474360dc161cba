/**
 * Ranges that mean what they say: the conformal quantile and its strata re-done here by
 * sorting. Coverage per city and PE10 per label on the real crawl: valuations-feed.test.ts
 * (one file, so its scratch schema is never loaded twice at once).
 */
import { describe, expect, it } from 'vitest';
import { calibrate, CALIBRATION_MIN, conformalQuantile, factorOf, Z80 } from '../../server/domain/valuations/calibration.js';

describe('range calibration', () => {
  it('takes the ⌈(n + 1)·level⌉-th smallest score per stratum, and a thin stratum borrows the wider one', () => {
    const scores = Array.from({ length: 49 }, (_, i) => (i * 7919) % 49).map((k) => (k + 1) / 10);
    // 49 scores 0.1 … 4.9: the ⌈50 × 0.8⌉ = 40th smallest is 4.0.
    expect(conformalQuantile(scores, 0.8)).toBeCloseTo(4.0, 12);
    expect(conformalQuantile([1, 2, 3], 0.8)).toBe(3);
    const thick = scores.map((score) => ({ method: 'quarter_comparables', pool: 'rent', cityKey: 'douala', score }));
    const thin = Array.from({ length: CALIBRATION_MIN - 1 }, () => ({
      method: 'quarter_comparables',
      pool: 'rent',
      cityKey: 'kribi',
      score: 10,
    }));
    const cal = calibrate([...thick, ...thin]);
    expect(factorOf(cal, 'quarter_comparables', 'rent', 'douala')).toBeCloseTo(4.0 / Z80, 12);
    // Kribi's 29 scores are too few: method × pool over both cities (78 scores, the ⌈79 × 0.8⌉ = 64th smallest).
    const both = [...scores, ...thin.map((t) => t.score)].sort((a, b) => a - b);
    expect(factorOf(cal, 'quarter_comparables', 'rent', 'kribi')).toBeCloseTo(both[63] / Z80, 12);
    expect(factorOf(cal, 'quarter_comparables', 'sale', 'douala')).toBeCloseTo(both[63] / Z80, 12);
    // No stratum at all: the method's default.
    expect(factorOf(cal, 'city_comparables', 'rent', 'douala')).toBe(0.85);
  });
});
