/**
 * Feeds written like a real crawl of a Cameroonian portal (only the portal's fields: no
 * surface, title, date, contact or street address) import, and the API serves them: the
 * fields the source lacked are null, titles are written in the city's language, the
 * listing date is the first import that saw the row, and the market figures count only
 * the rows that have what each figure needs.
 */
import { describe, expect, it } from 'vitest';
import { z, type ZodTypeAny } from 'zod';
import { ZListing } from '../../contract/schemas.js';
import { importFile } from '../../server/ingest/import.js';
import { get, serverWithAccount } from '../helpers/server.js';
import { crawlFeed } from './crawl-feed.js';
import { listingsOf, removeSource, testSource, toJsonLines, workdir } from './helpers.js';

const t = serverWithAccount('enterprise');
const STRICT_LISTING = z.object(ZListing.shape as Record<string, ZodTypeAny>).strict();

describe('a feed with only the fields a portal publishes', () => {
  it('imports every row, writes titles, dates rows from their first import, and keeps that date', async () => {
    const work = workdir();
    const src = testSource();
    try {
      // 400 distinct adverts: the crawl repeats some, which repeats.test.ts folds; not here.
      const rows: Record<string, unknown>[] = crawlFeed(400, src).map((r, i) => ({ ...r, price: r.price + i }));
      // Two rows no feed can make a listing of: the report names their field and reason.
      rows.push({ ...rows[1], source_ref: `${src}-bad-price`, price: 0 });
      rows.push({ ...rows[2], source_ref: `${src}-no-city`, city: undefined });
      const file = work.write('crawl.ndjson', toJsonLines(rows));
      const first = new Date('2026-11-20T10:00:00.000Z');
      const result = await importFile(t.db.pool, { file, format: 'ndjson', source: src, now: first });
      expect(result.counts).toMatchObject({ rows: 402, accepted: 400, rejected: 2, inserted: 400 });
      expect(result.counts.accepted / result.counts.rows).toBeGreaterThanOrEqual(0.99);
      expect(result.rejected_sample.map((r) => r.reason)).toEqual(['price: must be greater than 0', 'city: is required']);

      const stored = await listingsOf(t.db, src);
      expect(stored).toHaveLength(400);
      const byRef = new Map(stored.map((s) => [s.source_ref, s]));
      const apt = byRef.get(`${src}-00001`)!; // apartment, 2 bedrooms, Douala, Bonapriso
      expect(apt).toMatchObject({ city: 'Douala', neighborhood: 'Bonapriso', surface: null, price_per_m2: null, contact_phone: null });
      expect(apt.title).toBe('Appartement 2 chambres à louer à Bonapriso');
      expect(byRef.get(`${src}-00000`)!.title).toBe('Appartement meublé à louer à Akwa'); // no bedrooms given
      expect(byRef.get(`${src}-00006`)!.neighborhood).toBe('Deïdo'); // "Deido" in the feed
      expect(stored.every((s) => s.listed_at.toISOString() === first.toISOString())).toBe(true);
      expect(stored.filter((s) => s.bedrooms === null)).toHaveLength(37);

      // A later crawl of the same adverts: nothing changes, the first-seen date stays.
      const again = await importFile(t.db.pool, { file, format: 'ndjson', source: src, now: new Date('2026-11-24T10:00:00.000Z') });
      expect(again.counts).toMatchObject({ accepted: 400, inserted: 0, updated: 0, unchanged: 400 });
      const after = await listingsOf(t.db, src);
      expect(after.map((s) => s.listed_at.toISOString())).toEqual(stored.map((s) => s.listed_at.toISOString()));
      expect(after.map((s) => s.updated_at.toISOString())).toEqual(stored.map((s) => s.updated_at.toISOString()));
    } finally {
      await removeSource(t.db, src);
      work.remove();
    }
  });

  it("a CSV with only the required columns and the portal's own imports", async () => {
    const work = workdir();
    const src = testSource();
    try {
      const csv = [
        'source_ref,type,purpose,city,neighborhood,price,bedrooms',
        `${src}-1,apartment,rent,Douala,Makepe,125000,2`,
        `${src}-2,studio,furnished_rent,Yaoundé,Bastos,150000,`,
        `${src}-3,house,rent,Douala,,90000,3`,
      ].join('\n');
      const file = work.write('crawl.csv', `${csv}\n`);
      const result = await importFile(t.db.pool, { file, format: 'csv', source: src });
      expect(result.counts).toMatchObject({ rows: 3, accepted: 2, rejected: 1 });
      expect(result.rejected_sample).toEqual([{ line: 4, source_ref: `${src}-3`, reason: 'neighborhood: is required (or lat and lng)' }]);
      const stored = await listingsOf(t.db, src);
      expect(stored.map((s) => [s.title, s.bedrooms, s.surface])).toEqual([
        ['Appartement 2 chambres à louer à Makepe', 2, null],
        ['Studio meublé à louer à Bastos', null, null],
      ]);
    } finally {
      await removeSource(t.db, src);
      work.remove();
    }
  });

  it('serves the missing fields as null, in the search, the detail and the export', async () => {
    const work = workdir();
    const src = testSource();
    try {
      const file = work.write('crawl.ndjson', toJsonLines(crawlFeed(60, src)));
      await importFile(t.db.pool, { file, format: 'ndjson', source: src });
      const [{ id }] = (
        await t.db.pool.query<{ id: string }>('SELECT id FROM listings WHERE source = $1 AND source_ref = $2', [src, `${src}-00011`])
      ).rows;

      const detail = await get(t.baseUrl, `/api/v1/listings/${id}`, t.key);
      expect(detail.status).toBe(200);
      expect(detail.body.data).toMatchObject({ id, surface: null, bedrooms: null, price_per_m2: null });
      const { price_history: history, ...listing } = detail.body.data;
      expect(history).toHaveLength(1);
      expect(STRICT_LISTING.safeParse(listing).success).toBe(true);

      const search = await get(
        t.baseUrl,
        `/api/v1/listings?city=Douala&neighborhood=Bonapriso&purpose=rent&status=any&limit=200&min_price=1740000&max_price=1740000`,
        t.key,
      );
      expect(search.status).toBe(200);
      const found = search.body.data.find((l: { id: string }) => l.id === id);
      expect(found).toMatchObject({ surface: null, bedrooms: null });

      const exported = await fetch(`${t.baseUrl}/api/v1/exports/listings?city=Douala&neighborhood=Bonapriso&status=any`, {
        headers: { 'X-API-Key': t.key, 'Accept-Encoding': 'identity' },
      });
      const line = (await exported.text()).split('\n').find((l) => l.includes(id))!;
      const parsed = JSON.parse(line);
      expect(parsed).toMatchObject({ id, surface: null, bedrooms: null, price_per_m2: null });
      expect(STRICT_LISTING.safeParse(parsed).success).toBe(true);
    } finally {
      await removeSource(t.db, src);
      work.remove();
    }
  });

  it('market figures: prices from every row, prices per m² only from rows with a surface, each with its sample size', async () => {
    const work = workdir();
    const src = testSource();
    try {
      const file = work.write('crawl.ndjson', toJsonLines(crawlFeed(300, src)));
      await importFile(t.db.pool, { file, format: 'ndjson', source: src });
      const stats = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&neighborhood=Akwa&purpose=rent', t.key);
      expect(stats.status).toBe(200);
      const [row] = stats.body.data;
      const direct = (
        await t.db.pool.query<{ n: number; n_surface: number }>(
          `SELECT count(*)::int AS n, count(surface)::int AS n_surface FROM listings
           WHERE status = 'active' AND city_key = 'douala' AND neighborhood_key = 'akwa' AND purpose = 'rent'`,
        )
      ).rows[0];
      expect(direct.n).toBeGreaterThan(direct.n_surface); // the crawl's rows have no surface
      expect(row).toMatchObject({ volume: direct.n, sample_size: direct.n, price_per_m2_sample_size: direct.n_surface });
    } finally {
      await removeSource(t.db, src);
      work.remove();
    }
  });
});
