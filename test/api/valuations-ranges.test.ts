/**
 * The served ranges, calibrated when the model is fitted (calibration.ts): adverts of the
 * two largest cities, each valued through the API from the others (`listing_id`: never
 * from itself), hold their own price about `confidence_level` of the time in each city,
 * counted here; each answer's range is its estimate × exp(±z·fsd) and its label the fsd's band.
 */
import { describe, expect, it } from 'vitest';
import { VALUATION_CONFIDENCE_LEVEL, VALUATION_FSD_BANDS } from '../../contract/valuations.js';
import { Z80 } from '../../server/domain/valuations/calibration.js';
import { get, serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('enterprise');
/** Adverts valued per city: at 80 % the standard error of the share is about 3.3 points. */
const PER_CITY = 150;

describe('valuation ranges served', () => {
  it(`hold the price about ${VALUATION_CONFIDENCE_LEVEL * 100} % of the time in each large city, labels by the calibrated fsd`, async () => {
    const { rows: cities } = await t.db.pool.query<{ city: string }>(
      `SELECT city FROM listings WHERE source = 'mboa-seed' GROUP BY city ORDER BY count(*) DESC LIMIT 2`,
    );
    for (const { city } of cities) {
      // Adverts of the last month, so an advert's price and today's estimate are of the same market.
      const { rows } = await t.db.pool.query<{ id: string; price: string }>(
        `SELECT id, price FROM listings WHERE source = 'mboa-seed' AND city = $1 AND price > 0 AND listed_at >= now() - interval '60 days'
         ORDER BY md5(id) LIMIT ${PER_CITY}`,
        [city],
      );
      let valued = 0;
      let inside = 0;
      for (const r of rows) {
        const res = await get(t.baseUrl, `/api/v1/valuations?listing_id=${r.id}`, t.key);
        if (res.status === 422) continue;
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const e = res.body.data.estimate as { price: number; low: number; high: number; fsd: number; confidence: string };
        // Amounts are rounded to the franc and fsd to 4 decimals.
        expect(Math.log(e.high / e.price)).toBeCloseTo(Z80 * e.fsd, 3);
        expect(Math.log(e.price / e.low)).toBeCloseTo(Z80 * e.fsd, 3);
        expect(e.confidence).toBe(e.fsd <= VALUATION_FSD_BANDS.high ? 'high' : e.fsd <= VALUATION_FSD_BANDS.medium ? 'medium' : 'low');
        valued++;
        if (Number(r.price) >= e.low && Number(r.price) <= e.high) inside++;
      }
      console.log(`${city}: ${inside} of ${valued} adverts inside their range (${((100 * inside) / valued).toFixed(1)} %)`);
      expect(valued).toBeGreaterThanOrEqual(100);
      expect(Math.abs(inside / valued - VALUATION_CONFIDENCE_LEVEL), city).toBeLessThanOrEqual(0.1);
    }
  }, 180_000);
});
