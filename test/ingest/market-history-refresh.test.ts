/**
 * The market history is recomputed incrementally: after an import that touches some
 * months (a listing published months ago, one withdrawn months ago, repricings today), the
 * refreshed table equals a full rebuild, and the months before the earliest one touched
 * were left as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { writeFeed } from '../../server/generate/feed-writer.js';
import { generateListings } from '../../server/generate/generator.js';
import { importFile } from '../../server/ingest/import.js';
import { monthOf } from '../../server/ingest/market-history.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
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
  await refreshMarketFigures(db.pool);
  work.remove();
  await db.close();
});

const SNAPSHOT = `
SELECT id::text, city_key, neighborhood_key, neighborhood, purpose::text, type::text, bedrooms, to_char(month, 'YYYY-MM') AS month,
       active_listings, new_listings, sold, rented, withdrawn, p25_price, median_price, p75_price,
       price_per_m2_sample_size, median_price_per_m2, median_days_on_market
FROM market_history ORDER BY city_key, neighborhood_key NULLS FIRST, purpose, type NULLS FIRST, bedrooms NULLS FIRST, month`;

async function snapshot() {
  return (await db.pool.query<Record<string, unknown> & { id: string; month: string }>(SNAPSHOT)).rows;
}
const withoutId = (rows: Record<string, unknown>[]) => rows.map(({ id: _id, ...rest }) => rest);

function monthsAgo(n: number, day = 10): Date {
  const d = new Date();
  d.setUTCDate(day);
  d.setUTCHours(12, 0, 0, 0);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d;
}

describe('incremental market history', () => {
  it('equals a full rebuild after an import touching some months, and leaves the months before them alone', async () => {
    const file = work.dir + '/feed.ndjson';
    // No repeats: a repricing would turn a folded repeat of the repriced advert into a listing of its own.
    const listings = [...generateListings({ count: 300, seed: 4242, source: src, repeats: 0 })].map((l) => ({
      ...l,
      price_history: undefined,
    }));
    await writeFeed(file, 'ndjson', listings);
    await importFile(db.pool, { file, format: 'ndjson', source: src });
    // The import ended with a refresh: no write is left unaccounted for.
    expect((await db.pool.query('SELECT count(*)::int AS n FROM market_history_dirty')).rows[0].n).toBe(0);
    const before = await snapshot();

    // The next day's feed: repricings (their first price is written dated from listed_at),
    // one listing published five months ago, one withdrawn three months ago.
    // Active listings published over six months ago: withdrawn three months ago, or copied as published five months ago.
    const active = listings.filter((l) => l.status === 'active' && Date.parse(l.listed_at) < monthsAgo(6).getTime());
    const changed = listings.map((l) => {
      if (l === active[0] || l === active[1] || l === active[2]) return { ...l, price: l.price + 10_000 };
      if (l === active[3]) return { ...l, status: 'withdrawn' as const, removed_at: monthsAgo(3).toISOString() };
      return l;
    });
    changed.push({
      ...active[4],
      source_ref: `${src}-late`,
      listed_at: monthsAgo(5).toISOString(),
      updated_at: monthsAgo(5).toISOString(),
      price: active[4].price + 1,
    });
    const next = work.dir + '/feed2.ndjson';
    await writeFeed(next, 'ndjson', changed);
    const result = await importFile(db.pool, { file: next, format: 'ndjson', source: src });
    expect(result.counts, JSON.stringify(result.rejected_sample)).toMatchObject({ inserted: 1, repriced: 3, rejected: 0 });

    const incremental = await snapshot();
    const firstTouched = monthOf(monthsAgo(5)).slice(0, 7);
    const kept = (rows: typeof before) => rows.filter((r) => r.month < firstTouched);
    // Rows of the months before the first one touched were not rewritten (same ids).
    expect(kept(incremental).length).toBeGreaterThan(1000);
    expect(kept(incremental)).toEqual(kept(before));
    // ...and the months from it on were.
    const recomputedIds = new Set(incremental.filter((r) => r.month >= firstTouched).map((r) => r.id));
    expect(before.filter((r) => r.month >= firstTouched && recomputedIds.has(r.id))).toEqual([]);

    await refreshMarketFigures(db.pool, new Date(), { fullHistory: true });
    const full = await snapshot();
    expect(withoutId(incremental)).toEqual(withoutId(full));
    expect(withoutId(full)).not.toEqual(withoutId(before));
    // Two imports and two refreshes: minutes on the embedded database of a loaded machine.
  }, 300_000);

  it("notes a repricing from its date, a change of bedrooms from the listing's publication", async () => {
    const { rows } = await db.pool.query<{ id: string; listed_at: Date }>(
      `SELECT id, listed_at FROM listings WHERE source = $1 AND status = 'active' AND listed_at < now() - interval '200 days' ORDER BY id LIMIT 1`,
      [src],
    );
    const { id, listed_at } = rows[0];
    const dirty = async () => (await db.pool.query<{ d: Date | null }>('SELECT min(dirty_from) AS d FROM market_history_dirty')).rows[0].d;
    await db.pool.query('DELETE FROM market_history_dirty');
    // A first price dated from listed_at restates the price the listing always had: nothing to recompute.
    await db.pool.query(
      'INSERT INTO price_history (listing_id, price, changed_at) SELECT id, price, listed_at FROM listings WHERE id = $1',
      [id],
    );
    expect(await dirty()).toBeNull();
    const at = new Date(Date.now() - 3_600_000);
    await db.pool.query('INSERT INTO price_history (listing_id, price, changed_at) SELECT id, price + 1, $2 FROM listings WHERE id = $1', [
      id,
      at,
    ]);
    await db.pool.query('UPDATE listings SET price = price + 1, updated_at = $2 WHERE id = $1', [id, at]);
    expect((await dirty())!.getTime()).toBe(at.getTime());
    await db.pool.query('DELETE FROM market_history_dirty');
    await db.pool.query('UPDATE listings SET bedrooms = coalesce(bedrooms, 0) + 1 WHERE id = $1', [id]);
    expect((await dirty())!.getTime()).toBe(listed_at.getTime());
    await refreshMarketFigures(db.pool);
  });
});
