/**
 * Repeats counted once: an advert repeated in one feed, or re-crawled under a new
 * reference, is stored once; the report lists each repeat; the market figures count the
 * distinct adverts, worked out here independently of the importer's fingerprint.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { importFile } from '../../server/ingest/import.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { seedListings } from '../../server/generate/seed.js';
import { SAMPLE } from '../../server/generate/sample-data.js';
import { crawlFeed, type CrawlRow } from './crawl-feed.js';
import { removeSource, testDatabase, testSource, toJsonLines, workdir, type Workdir } from './helpers.js';

let db: Database;
let work: Workdir;
const src = testSource();
// A gazetteer city (a feed's city must be one) few other tests use; its quarters here are
// Douala's, so they resolve to nothing and the rows are filed under the city alone.
const city = 'Ebolowa';
const cityKey = 'ebolowa';
const first = new Date('2026-11-01T10:00:00Z');

type Row = CrawlRow & { title?: string; contact_phone?: string; lat?: number; lng?: number };

/** What the test takes for "the same advert": every field but the reference. */
const content = (r: Row) =>
  JSON.stringify({
    ...r,
    source_ref: undefined,
    title: r.title?.toLowerCase().replace(/\s+/g, ' ').trim(),
    contact_phone: r.contact_phone?.replace(/\D/g, ''),
  });

/** The first crawl: 40 adverts, exact repeats of some under new references, near misses that are not. */
function firstCrawl(): Row[] {
  const base: Row[] = crawlFeed(40, 'a').map((r) => ({ ...r, city }));
  base[5] = { ...base[5], title: 'Bel appartement  meublé à Bonapriso', contact_phone: '+237 690 11 22 33' };
  base[6] = { ...base[6], lat: 4.0511, lng: 9.7679, city: 'Douala' };
  const rows: Row[] = [...base];
  // An agent's identical units and a re-crawl mid-file: the same adverts under new references.
  for (const i of [1, 2, 2, 7, 13, 30]) rows.push({ ...base[i], source_ref: `b-${rows.length}` });
  // The same title in another case and spacing, the same phone written otherwise: the same advert.
  rows.push({ ...base[5], source_ref: 'b-title', title: 'BEL APPARTEMENT meublé à  Bonapriso', contact_phone: '237690112233' });
  rows.push({ ...base[6], source_ref: 'b-point' });
  // Not repeats: another price, another point, another phone.
  rows.push({ ...base[3], source_ref: 'c-price', price: base[3].price + 5_000 });
  rows.push({ ...base[6], source_ref: 'c-point', lat: 4.0521 });
  rows.push({ ...base[5], source_ref: 'c-phone', contact_phone: '+237 690 99 88 77' });
  return rows;
}

/** The reference of the first row of `rows` with the same content as each, when another. */
function expectedRepeats(rows: Row[]): Array<{ line: number; source_ref: string; repeats_source_ref: string }> {
  const firstRef = new Map<string, string>();
  const out = [];
  for (const [i, r] of rows.entries()) {
    const kept = firstRef.get(content(r));
    if (kept === undefined) firstRef.set(content(r), r.source_ref);
    else out.push({ line: i + 1, source_ref: r.source_ref, repeats_source_ref: kept });
  }
  return out;
}

async function activeRefs(): Promise<string[]> {
  const { rows } = await db.pool.query<{ source_ref: string }>(
    "SELECT source_ref FROM listings WHERE source = $1 AND status = 'active' ORDER BY source_ref",
    [src],
  );
  return rows.map((r) => r.source_ref);
}

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

describe('repeats', () => {
  const rows = firstCrawl();
  const repeats = expectedRepeats(rows);
  const distinct = rows.filter((r) => !repeats.some((x) => x.source_ref === r.source_ref));

  it('are stored once, each listed in the report with its line and the row it repeats', async () => {
    expect(repeats.length).toBeGreaterThanOrEqual(8);
    const file = work.write('first.ndjson', toJsonLines(rows));
    const result = await importFile(db.pool, { file, format: 'ndjson', source: src, now: first });

    expect(result.counts).toMatchObject({
      rows: rows.length,
      accepted: rows.length,
      rejected: 0,
      inserted: distinct.length,
      repeats_folded: repeats.length,
      unchanged: 0,
    });
    expect(await activeRefs()).toEqual(distinct.map((r) => r.source_ref).sort());
    expect(await activeRefs()).toEqual(expect.arrayContaining(['c-price', 'c-point', 'c-phone']));
    const report = JSON.parse(readFileSync(result.report_path, 'utf8')) as { repeats: unknown[]; rejected: unknown[] };
    expect(report.repeats).toEqual(repeats);
    expect(report.rejected).toEqual([]);
    expect(result.repeats_sample).toEqual(repeats.slice(0, 20));
  });

  it('never count in the market figures', async () => {
    // The city's figure: this file's distinct adverts, and the listings other sources have there.
    await refreshMarketFigures(db.pool);
    const { rows: others } = await db.pool.query<{ price: string }>(
      "SELECT price FROM listings WHERE city_key = $1 AND purpose = 'rent' AND status = 'active' AND source <> $2",
      [cityKey, src],
    );
    const rent = [
      ...distinct.filter((r) => r.purpose === 'rent' && r.city === city).map((r) => r.price),
      ...others.map((o) => Number(o.price)),
    ];
    const { rows: direct } = await db.pool.query<{ volume: number; median: string }>(
      'SELECT count(*)::int AS volume, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY p))::bigint AS median FROM unnest($1::bigint[]) p',
      [rent],
    );
    const { rows: stored } = await db.pool.query<{ volume: number; median_price: string }>(
      `SELECT volume, median_price FROM market_stats
       WHERE city_key = $1 AND neighborhood_key IS NULL AND purpose = 'rent' AND type IS NULL AND bedrooms IS NULL`,
      [cityKey],
    );
    expect(stored).toEqual([{ volume: direct[0].volume, median_price: direct[0].median }]);
    expect(stored[0].volume).toBeLessThan(rows.filter((r) => r.purpose === 'rent' && r.city === city).length + others.length);
  });

  it('a re-crawl under new references stores nothing new, and --full keeps the listings it repeats', async () => {
    const recrawl = distinct.map((r, i) => ({ ...r, source_ref: `z-${i}` }));
    const now = new Date('2026-11-02T10:00:00Z');
    const file = work.write('recrawl.ndjson', toJsonLines(recrawl));
    const result = await importFile(db.pool, { file, format: 'ndjson', source: src, now, full: true });

    expect(result.counts).toMatchObject({ inserted: 0, updated: 0, unchanged: 0, removed: 0, repeats_folded: recrawl.length });
    expect(await activeRefs()).toEqual(distinct.map((r) => r.source_ref).sort());
    const report = JSON.parse(readFileSync(result.report_path, 'utf8')) as { repeats: Array<{ line: number }> };
    // Listed as each batch is written: sorted here by line.
    expect(report.repeats.sort((a, b) => a.line - b.line)).toEqual(
      recrawl.map((r, i) => ({ line: i + 1, source_ref: r.source_ref, repeats_source_ref: distinct[i].source_ref, repeats_stored: true })),
    );
  });

  it("the kept listing's own reference is an ordinary update; a new reference with another price a new listing", async () => {
    const kept = distinct[0];
    const file = work.write(
      'later.ndjson',
      toJsonLines([
        { ...kept, price: kept.price + 1_000 },
        { ...distinct[1], source_ref: 'n-1', price: 1_234_000 },
      ]),
    );
    const result = await importFile(db.pool, { file, format: 'ndjson', source: src, now: new Date('2026-11-03T10:00:00Z') });
    expect(result.counts).toMatchObject({ inserted: 1, updated: 1, repriced: 1, repeats_folded: 0 });
  });

  it('stores the same fingerprint the SQL function computes, for imported and seeded listings alike', async () => {
    // Listings seeded here (other test files rewrite the shared seed's contacts by hand), this
    // file's imports, and the public sample.
    const seeded = `${src}-seeded`;
    await seedListings(db.pool, { listings: 1_200, seed: 3, source: seeded });
    try {
      const SAME = `fingerprint = listing_fingerprint(city_key, neighborhood_key, neighborhood, raw_neighborhood, type::text,
        purpose::text, price, surface, bedrooms, bathrooms, title, lat, lng, contact_phone)`;
      for (const [table, sources] of [
        ['listings', [seeded, src]],
        ['sample.listings', [SAMPLE.source, SAMPLE.source]],
      ] as const) {
        const { rows: r } = await db.pool.query<{ n: number; same: number; seeded_without: number }>(
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE ${SAME})::int AS same,
                  count(*) FILTER (WHERE fingerprint IS NULL)::int AS seeded_without
           FROM ${table} WHERE source IN ($1, $2)`,
          [...sources],
        );
        expect(r[0].n).toBeGreaterThan(1_000);
        expect(r[0]).toEqual({ n: r[0].n, same: r[0].n, seeded_without: 0 });
      }
      // Seeded listings carry titles with accents, surfaces and phones.
      const { rows: rich } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM listings
         WHERE source = $1 AND contact_phone IS NOT NULL AND surface IS NOT NULL AND title ~ '[^ -~]'`,
        [seeded],
      );
      expect(rich[0].n).toBeGreaterThan(0);
    } finally {
      await removeSource(db, seeded);
    }
  });
});
