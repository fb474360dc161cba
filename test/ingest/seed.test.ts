/**
 * seedListings: generated rows loaded as importing them would store them (quarters
 * resolved, titles written, active repeats folded), and seeding twice adds nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { listingId } from '../../server/platform/ids.js';
import { type GeneratedRecord, generateListings } from '../../server/generate/generator.js';
import { validateRow } from '../../server/ingest/validate.js';
import { seedListings } from '../../server/generate/seed.js';
import { historyOf, listingsOf, removeSource, testDatabase, testSource } from './helpers.js';

let db: Database;
const src = testSource();
const now = new Date();

/**
 * The rows a seed stores: every row but an active one that is the same advert as an
 * earlier row, as the README defines it (city, quarter as resolved, type, purpose, price,
 * surface, rooms, title up to case and blanks, point, phone digits), worked out here on the
 * rows as the importer stores them.
 */
function storedOf(rows: GeneratedRecord[]): GeneratedRecord[] {
  const seen = new Set<string>();
  return rows.filter((g) => {
    const checked = validateRow(structuredClone(g));
    if (!checked.ok) throw new Error(checked.reason);
    const r = checked.record;
    const advert = JSON.stringify([
      r.city,
      r.neighborhood_key ?? null,
      r.neighborhood,
      r.raw_neighborhood ?? null,
      r.type,
      r.purpose,
      r.price,
      r.surface ?? null,
      r.bedrooms ?? null,
      r.bathrooms ?? null,
      r.title.toLowerCase().replace(/\s+/g, ' '),
      r.lat ?? null,
      r.lng ?? null,
      r.contact_phone?.replace(/\D/g, '') || null,
    ]);
    // Only active rows repeat, and only active rows are repeated (a withdrawn row never hides an active one).
    if (r.status !== 'active') return true;
    if (seen.has(advert)) return false;
    seen.add(advert);
    return true;
  });
}

beforeAll(() => {
  db = testDatabase();
});
afterAll(async () => {
  await removeSource(db, src);
  await db.close();
});

describe('seedListings', () => {
  it('loads the generated listings with their price history, and is idempotent', async () => {
    const progress: number[] = [];
    const first = await seedListings(db.pool, { listings: 6_000, seed: 5, now, source: src, onProgress: (done) => progress.push(done) });
    const generated = [...generateListings({ count: 6_000, seed: 5, now, source: src })];
    const kept = storedOf(generated);
    // The feed repeats adverts (12 % of rows); the active repeats (about a third) are folded.
    expect(kept.length).toBeLessThan(5_950);
    expect(kept.length).toBeGreaterThan(5_500);
    expect(first.rows).toBe(kept.length);
    expect(progress.at(-1)).toBe(6_000);

    const stored = await listingsOf(db, src);
    expect(stored.map((l) => l.source_ref).sort()).toEqual(kept.map((g) => g.source_ref).sort());
    // A row without a title whose quarter is spelt otherwise than the gazetteer spells it.
    const storedAs = (r: GeneratedRecord) => {
      const checked = validateRow(structuredClone(r));
      if (!checked.ok) throw new Error(checked.reason);
      return checked.record;
    };
    const g = kept.find((r) => r.title == null && storedAs(r).neighborhood !== null && storedAs(r).neighborhood !== r.neighborhood)!;
    const expected = storedAs(g);
    const s = stored.find((l) => l.source_ref === g.source_ref)!;
    expect(s).toMatchObject({
      id: listingId(src, g.source_ref),
      title: expected.title,
      price: String(g.price),
      city: g.city,
      neighborhood: expected.neighborhood,
      surface: g.surface,
      bedrooms: g.bedrooms,
      bathrooms: g.bathrooms,
      type: g.type,
      purpose: expected.purpose,
      status: g.status,
      listed_at: new Date(g.listed_at),
      updated_at: new Date(g.updated_at!),
      contact_phone: g.contact_phone ?? null,
    });
    expect(s.title).toContain(expected.neighborhood); // written from the fields: the row had none
    const historyRows = kept.reduce((n, r) => n + (r.price_history?.length ?? 0), 0);
    expect(historyRows).toBeGreaterThan(0);
    expect(await historyOf(db, src)).toHaveLength(historyRows);

    const again = await seedListings(db.pool, { listings: 6_000, seed: 5, now: new Date(now.getTime() + 3_600_000), source: src });
    expect(again.rows).toBe(0);
    expect(await listingsOf(db, src)).toEqual(stored);
    expect(await historyOf(db, src)).toHaveLength(historyRows);

    const more = await seedListings(db.pool, { listings: 6_500, seed: 5, now, source: src });
    const generatedMore = [...generateListings({ count: 6_500, seed: 5, now, source: src })];
    expect(more.rows).toBe(storedOf(generatedMore).length - kept.length);
  });
});
