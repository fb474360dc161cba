/**
 * Quarter names as real feeds write them resolve through the gazetteer (accents, case,
 * spacing, numbering, aliases, sub-quarters); a name it cannot resolve leaves the row
 * under its city alone and is reported with its count and the closest known names; an
 * operator's alias moves those rows. Over real HTTP: a quarter finds its sub-quarters.
 */
import { describe, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import { admin } from '../helpers/admin.js';
import { get, serverWithAccount } from '../helpers/server.js';
import { crawlRow } from './crawl-feed.js';
import { listingsOf, removeSource, testSource, toJsonLines, workdir } from './helpers.js';

const t = serverWithAccount('enterprise');

/** As the crawl wrote them, with the quarter each must be filed under. */
const SPELLINGS: Array<[string, string, string | null]> = [
  ['Akwa I', 'Akwa I', 'akwa'],
  ['AKWA 1', 'Akwa I', 'akwa'],
  ['Akwa II', 'Akwa II', 'akwa'],
  ['Bonamouang (Akwa', 'Bonamouang', 'akwa'],
  ['PK 14', 'PK14', 'pk14'],
  ['Makepe H', 'Makepe', 'makepe'],
  ['Logbessou II', 'Logbessou II', 'logbessou'],
  ['Ndogpassi I', 'Ndogpassi I', 'ndogpassi'],
  ['Deido', 'Deïdo', 'deido'],
  ['  cité   des palmiers ', 'Cité des Palmiers', 'cite des palmiers'],
  ['Malangue', 'Malangue', 'malangue'],
  ['Koto', 'Kotto', 'kotto'],
];

describe('quarter names of a real feed', () => {
  it('resolve to the gazetteer, unknown ones go under the city and into the report, and an alias moves them', async () => {
    const work = workdir();
    const src = testSource();
    try {
      const rows: Record<string, unknown>[] = [];
      SPELLINGS.forEach(([raw], i) => rows.push({ ...crawlRow(i, src), city: 'douala', neighborhood: raw }));
      for (let i = 0; i < 3; i++) rows.push({ ...crawlRow(100 + i, src), city: 'Douala', neighborhood: 'Bonamusadi Carrefour' });
      rows.push({ ...crawlRow(200, src), city: 'Yaounde', neighborhood: 'Biyem' });
      rows.push({ ...crawlRow(201, src), city: 'Yaoundé', neighborhood: 'Zzyzx Nowhere' });
      const file = work.write('crawl.ndjson', toJsonLines(rows));
      const result = await importFile(t.db.pool, { file, format: 'ndjson', source: src });
      expect(result.counts).toMatchObject({ rows: rows.length, accepted: rows.length, rejected: 0 });
      expect(result.unresolved_neighborhoods).toEqual([
        { city: 'Douala', name: 'Bonamusadi Carrefour', rows: 3, closest: expect.arrayContaining(['Bonamoussadi']) },
        { city: 'Yaoundé', name: 'Zzyzx Nowhere', rows: 1, closest: [] },
      ]);

      const stored = new Map((await listingsOf(t.db, src)).map((l) => [l.source_ref, l]));
      SPELLINGS.forEach(([raw, name, key], i) => {
        const l = stored.get(crawlRow(i, src).source_ref)!;
        expect([raw, l.city, l.neighborhood, l.neighborhood_key]).toEqual([raw, 'Douala', name, key]);
      });
      expect(stored.get(crawlRow(200, src).source_ref)).toMatchObject({ city: 'Yaoundé', neighborhood: 'Biyem-Assi' });
      const unknown = stored.get(crawlRow(100, src).source_ref)!;
      expect(unknown).toMatchObject({ city: 'Douala', neighborhood: null, neighborhood_key: null });
      expect(unknown.title).toMatch(/ à Douala$/);

      // Over HTTP: the unknown quarter's row is served under its city alone.
      const detail = await get(t.baseUrl, `/api/v1/listings/${unknown.id}`, t.key);
      expect(detail.body.data).toMatchObject({ city: 'Douala', neighborhood: null });

      // The operator names it: the three rows move, later imports resolve it.
      const bad = await admin(['alias', 'add', 'Douala', 'Bonamusadi Carrefour', 'Bonamousadi']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('"Bonamousadi" is not a quarter of Douala; did you mean Bonamoussadi');
      const r = await admin(['alias', 'add', 'Douala', 'Bonamusadi Carrefour', 'Bonamoussadi', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ neighborhood: 'Bonamoussadi', moved: 3 });
      const moved = (await listingsOf(t.db, src)).filter((l) => l.source_ref.endsWith('-00100') || l.source_ref.endsWith('-00101'));
      expect(moved.map((l) => [l.neighborhood, l.neighborhood_key])).toEqual([
        ['Bonamoussadi', 'bonamoussadi'],
        ['Bonamoussadi', 'bonamoussadi'],
      ]);
      const again = await importFile(t.db.pool, { file, format: 'ndjson', source: src });
      expect(again.unresolved_neighborhoods.map((u) => u.name)).toEqual(['Zzyzx Nowhere']);
      // Only the three moved rows change: the titles written for them now name their quarter.
      expect(again.counts).toMatchObject({ unchanged: rows.length - 3, updated: 3 });
      expect((await listingsOf(t.db, src)).find((l) => l.source_ref.endsWith('-00100'))!.title).toMatch(/ à Bonamoussadi$/);
    } finally {
      await t.db.pool.query(`DELETE FROM neighborhood_aliases WHERE city_key = 'douala' AND alias = 'Bonamusadi Carrefour'`);
      await removeSource(t.db, src);
      work.remove();
    }
  });

  it('a search for a quarter finds its sub-quarters; a sub-quarter finds its own; market figures count them under the quarter', async () => {
    const work = workdir();
    const src = testSource();
    try {
      const raw = ['Akwa I', 'Akwa I', 'Akwa II', 'Akwa', 'Bonamouang'];
      const rows = raw.map((neighborhood, i) => ({ ...crawlRow(i * 6, src), city: 'Douala', neighborhood, price: 777_001 + i }));
      const file = work.write('akwa.ndjson', toJsonLines(rows));
      await importFile(t.db.pool, { file, format: 'ndjson', source: src });
      const search = async (hood: string) => {
        const res = await get(
          t.baseUrl,
          `/api/v1/listings?city=Douala&neighborhood=${encodeURIComponent(hood)}&min_price=777001&max_price=777005`,
          t.key,
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return (res.body.data as Array<{ neighborhood: string }>).map((l) => l.neighborhood).sort();
      };
      expect(await search('Akwa')).toEqual(['Akwa', 'Akwa I', 'Akwa I', 'Akwa II', 'Bonamouang']);
      expect(await search('akwa 1')).toEqual(['Akwa I', 'Akwa I']);
      expect(await search('Bonamouang')).toEqual(['Bonamouang']);

      const stats = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&neighborhood=Akwa%20II&purpose=rent', t.key);
      expect(stats.status).toBe(200);
      const direct = await t.db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM listings WHERE status = 'active' AND city_key = 'douala' AND neighborhood_key = 'akwa' AND purpose = 'rent'`,
      );
      expect(stats.body.data).toHaveLength(1);
      expect(stats.body.data[0]).toMatchObject({ neighborhood: 'Akwa', volume: direct.rows[0].n });
    } finally {
      await removeSource(t.db, src);
      work.remove();
    }
  });
});
