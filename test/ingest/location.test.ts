/**
 * Every listing is placed: the feed's own point rounded to about 100 m (`street`), else
 * its quarter's or sub-quarter's centroid (`neighborhood`), else its city's (`city`); a
 * point outside Cameroon or far outside its city is refused with the reason. Over real
 * HTTP, in the detail, the search and the export alike.
 */
import { describe, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import { get, serverWithAccount } from '../helpers/server.js';
import { crawlRow } from './crawl-feed.js';
import { removeSource, testSource, toJsonLines, workdir } from './helpers.js';

const t = serverWithAccount('enterprise');

describe('listing locations', () => {
  it('place every accepted row and refuse impossible points with the reason', async () => {
    const work = workdir();
    const src = testSource();
    try {
      const row = (i: number, extra: Record<string, unknown>) => ({ ...crawlRow(i, src), city: 'Douala', ...extra });
      const rows = [
        row(0, { neighborhood: 'Bonapriso' }),
        row(1, { neighborhood: 'Logbessou II' }),
        row(2, { neighborhood: 'Somewhere Unknown' }),
        row(3, { neighborhood: 'Akwa', lat: 4.05123, lng: 9.70456 }),
        row(4, { neighborhood: undefined, lat: 4.0612, lng: 9.7388 }),
        row(5, { neighborhood: 'Akwa', lat: 48.8566, lng: 2.3522 }),
        row(6, { neighborhood: 'Akwa', lat: 3.848, lng: 11.502 }),
        row(7, { neighborhood: 'Akwa', lat: 4.05 }),
        row(8, { neighborhood: undefined }),
      ];
      const file = work.write('points.ndjson', toJsonLines(rows));
      const result = await importFile(t.db.pool, { file, format: 'ndjson', source: src });
      expect(result.counts).toMatchObject({ rows: 9, accepted: 5, rejected: 4 });
      expect(result.rejected_sample.map((r) => [r.line, r.reason])).toEqual([
        [6, expect.stringMatching(/^lat, lng: \(48\.8566, 2\.3522\) is outside Cameroon/)],
        [7, expect.stringMatching(/^lat, lng: \(3\.848, 11\.502\) is \d+ km outside Douala$/)],
        [8, 'lng: is required with lat'],
        [9, 'neighborhood: is required (or lat and lng)'],
      ]);

      const { rows: ids } = await t.db.pool.query<{ id: string; source_ref: string }>(
        'SELECT id, source_ref FROM listings WHERE source = $1 ORDER BY source_ref',
        [src],
      );
      const located = [];
      for (const { id } of ids) {
        const res = await get(t.baseUrl, `/api/v1/listings/${id}`, t.key);
        expect(res.status).toBe(200);
        located.push([res.body.data.neighborhood, res.body.data.location]);
      }
      expect(located).toEqual([
        ['Bonapriso', { lat: 4.0256, lng: 9.693, precision: 'neighborhood' }],
        ['Logbessou II', { lat: 4.0811, lng: 9.797, precision: 'neighborhood' }],
        [null, { lat: 4.0483, lng: 9.7043, precision: 'city' }],
        ['Akwa', { lat: 4.051, lng: 9.705, precision: 'street' }],
        [null, { lat: 4.061, lng: 9.739, precision: 'street' }],
      ]);

      // The export writes the same locations, built by the database.
      const res = await fetch(`${t.baseUrl}/api/v1/exports/listings?city=Douala&status=any`, {
        headers: { 'X-API-Key': t.key, 'Accept-Encoding': 'identity' },
      });
      const lines = (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: string; location: unknown });
      const byId = new Map(lines.map((l) => [l.id, l.location]));
      expect(ids.map(({ id }) => byId.get(id))).toEqual(located.map(([, location]) => location));
      // Every Douala listing, seeded or imported, is placed.
      expect(lines.every((l) => l.location !== null)).toBe(true);
    } finally {
      await removeSource(t.db, src);
      work.remove();
    }
  });
});
