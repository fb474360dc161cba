/** seedListings: generated rows loaded as generated, and seeding twice adds nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { listingId } from '../../server/platform/ids.js';
import { generateListings } from '../../server/generate/generator.js';
import { seedListings } from '../../server/generate/seed.js';
import { historyOf, listingsOf, removeSource, testDatabase, testSource } from './helpers.js';

let db: Database;
const src = testSource();
const now = new Date();

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
    expect(first.rows).toBe(6_000);
    expect(progress.at(-1)).toBe(6_000);

    const stored = await listingsOf(db, src);
    expect(stored).toHaveLength(6_000);
    const generated = [...generateListings({ count: 6_000, seed: 5, now, source: src })];
    const g = generated[17];
    const s = stored.find((l) => l.source_ref === g.source_ref)!;
    expect(s).toMatchObject({
      id: listingId(src, g.source_ref),
      title: g.title,
      price: String(g.price),
      city: g.city,
      neighborhood: g.neighborhood,
      surface: g.surface,
      bedrooms: g.bedrooms,
      bathrooms: g.bathrooms,
      type: g.type,
      purpose: g.purpose,
      status: g.status,
      listed_at: new Date(g.listed_at),
      updated_at: new Date(g.updated_at!),
      contact_phone: g.contact_phone,
    });
    const historyRows = generated.reduce((n, r) => n + (r.price_history?.length ?? 0), 0);
    expect(historyRows).toBeGreaterThan(0);
    expect(await historyOf(db, src)).toHaveLength(historyRows);

    const again = await seedListings(db.pool, { listings: 6_000, seed: 5, now: new Date(now.getTime() + 3_600_000), source: src });
    expect(again.rows).toBe(0);
    expect(await listingsOf(db, src)).toEqual(stored);
    expect(await historyOf(db, src)).toHaveLength(historyRows);

    const more = await seedListings(db.pool, { listings: 6_500, seed: 5, now, source: src });
    expect(more.rows).toBe(500);
  });
});
