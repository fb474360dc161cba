/**
 * After an import the market figures are rebuilt: market_stats must equal a direct
 * aggregate over the active listings, and must reflect what the import just loaded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { writeFeed } from '../../server/generate/feed-writer.js';
import { generateListings } from '../../server/generate/generator.js';
import { importFile } from '../../server/ingest/import.js';
import { removeSource, testDatabase, testSource, workdir, type Workdir } from './helpers.js';

let db: Database;
let work: Workdir;
const src = testSource();

beforeAll(() => {
  db = testDatabase();
  work = workdir();
});
afterAll(async () => {
  await removeSource(db, src);
  // Leave the figures matching the table for the test files that follow.
  const { refreshMarketFigures } = await import('../../server/ingest/market-refresh.js');
  await refreshMarketFigures(db.pool);
  work.remove();
  await db.close();
});

const DIRECT = `
SELECT city_key, purpose::text, type::text, count(*)::int AS volume, round(avg(price))::bigint AS avg_price,
       min(price) AS min_price, max(price) AS max_price,
       round(percentile_cont(0.5) WITHIN GROUP (ORDER BY price))::bigint AS median_price,
       round(avg(price_per_m2))::int AS avg_price_per_m2
FROM listings WHERE status = 'active'
GROUP BY GROUPING SETS ((city_key, purpose), (city_key, purpose, type))
ORDER BY 1, 2, 3 NULLS FIRST`;

// The city rows (the neighbourhood rows are checked against direct SQL in test/api/market.test.ts).
const STORED = `
SELECT city_key, purpose::text, type::text, volume, avg_price, min_price, max_price, median_price, avg_price_per_m2
FROM market_stats WHERE neighborhood_key IS NULL AND bedrooms IS NULL ORDER BY 1, 2, 3 NULLS FIRST`;

describe('market figures after an import', () => {
  it('equal a direct GROUP BY over active listings, imported ones included', async () => {
    const file = work.dir + '/feed.ndjson';
    const listings = [...generateListings({ count: 2_000, seed: 99, source: src })];
    // One listing far above anything else: the Douala maximum must become its price.
    const record = {
      ...listings[0],
      city: 'Douala',
      neighborhood: 'Bonapriso',
      type: 'villa' as const,
      purpose: 'sale' as const,
      status: 'active' as const,
      removed_at: null,
      price: 987_654_321_000,
      price_history: undefined,
      // A sale states no rent terms (the generated row may have been a rent), and a point
      // of its own would lie in the generated row's city, not in Bonapriso.
      lat: undefined,
      lng: undefined,
      furnished: undefined,
      advance_months: undefined,
      deposit_months: undefined,
    };
    listings[0] = record;
    await writeFeed(file, 'ndjson', listings);
    const result = await importFile(db.pool, { file, format: 'ndjson', source: src });
    expect(result.counts).toMatchObject({ accepted: 2_000, rejected: 0 });

    const direct = (await db.pool.query(DIRECT)).rows;
    const stored = (await db.pool.query(STORED)).rows;
    expect(stored.length).toBeGreaterThan(12);
    expect(stored).toEqual(direct);
    const villa = stored.find((s) => s.city_key === 'douala' && s.purpose === 'sale' && s.type === 'villa')!;
    expect(villa.max_price).toBe('987654321000');
  });
});
