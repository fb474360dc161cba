/**
 * Importing feeds into the real database: a fixture with good and bad rows, re-imports
 * that change nothing, price changes and their history, and NDJSON against CSV.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listingId } from '../../server/platform/ids.js';
import { importFile } from '../../server/ingest/import.js';
import { historyOf, ingestSuite, listingsOf, readJsonLines, toJsonLines } from './helpers.js';

const { db, work, source } = ingestSuite();

describe('import of a feed with good and bad rows', () => {
  it('loads the good rows, and reports each bad one with its line and reason', async () => {
    const file = work.fixture('mixed.ndjson');
    const src = source();
    const result = await importFile(db.pool, { file, format: 'ndjson', source: src });

    expect(result.counts).toEqual({
      lines: 17,
      header_lines: 0,
      blank_lines: 1,
      record_lines: 16,
      records: 16,
      rows: 16,
      accepted: 8,
      rejected: 8,
      unreadable: 2,
      held: 0,
      skipped: 0,
      inserted: 8,
      updated: 0,
      unchanged: 0,
      repeats_folded: 0,
      repriced: 0,
      removed: 0,
    });
    expect(result.report_path).toBe(`${file}.report.json`);
    const report = JSON.parse(readFileSync(result.report_path, 'utf8'));
    expect(report.counts).toEqual(result.counts);
    expect(report.rejected).toEqual([
      { line: 3, source_ref: 'FX-BAD-PRICE', reason: 'price: must be greater than 0' },
      { line: 5, reason: 'invalid JSON: Unterminated string in JSON at position 43' },
      {
        line: 7,
        source_ref: 'FX-BAD-TYPE',
        reason:
          'bedrooms: must be an integer; type: must be one of villa, house, apartment, studio, duplex, room, land, office, shop, warehouse',
      },
      { line: 10, source_ref: 'FX-BAD-EMAIL', reason: 'contact_email: must be an e-mail address' },
      { line: 12, source_ref: 'FX-BAD-DATE', reason: 'listed_at: must be an ISO 8601 timestamp with a time zone (2026-11-02T17:05:00Z)' },
      { line: 14, source_ref: 'FX-EXTRA', reason: 'currency: must be XAF; unknown field(s) agent_commission' },
      { line: 16, reason: 'must be a JSON object (one listing per line)' },
      { line: 17, source_ref: 'FX-REMOVED', reason: 'removed_at: is required when status is sold' },
    ]);

    const stored = await listingsOf(db, src);
    expect(stored.map((l) => l.source_ref)).toEqual(['FX-001', 'FX-002', 'FX-003', 'FX-004', 'FX-005', 'FX-006', 'FX-007', 'FX-008']);
    // Public id from the feed identity; keys and price per m² derived.
    const fx2 = stored.find((l) => l.source_ref === 'FX-002')!;
    expect(fx2.id).toBe(listingId(src, 'FX-002'));
    expect(fx2.city_key).toBe('yaounde');
    expect(fx2.price_per_m2).toBe(Math.round(Number(fx2.price) / fx2.surface));
    // The feed's own price history is kept for a new listing.
    const line = readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.includes('"source_ref":"FX-004"'))!;
    const feed = JSON.parse(line) as { price_history: unknown[] };
    expect(feed.price_history.length).toBeGreaterThan(1);
    expect((await historyOf(db, src)).filter((h) => h.source_ref === 'FX-004')).toHaveLength(feed.price_history.length);
  });

  it('reads CSV rows that span lines, and reports CSV problems at the line they start on', async () => {
    const file = work.fixture('mixed.csv');
    const src = source();
    const result = await importFile(db.pool, { file, format: 'csv', source: src });
    const report = JSON.parse(readFileSync(result.report_path, 'utf8'));
    expect(report.rejected).toEqual([
      { line: 4, source_ref: 'FX-CSV-PRICE', reason: 'price: is in euros: only XAF (FCFA) is accepted' },
      { line: 6, source_ref: 'FX-CSV-SHORT', reason: 'has 5 fields where the header has 19' },
      { line: 11, source_ref: 'FX-CSV-ROOMS', reason: 'bedrooms: must be 0 or more' },
      { line: 15, reason: 'unreadable CSV: the quoted field opened on line 15 is never closed (an unclosed quote?)' },
    ]);
    expect(result.counts).toMatchObject({ rows: 12, accepted: 8, rejected: 4, inserted: 8 });
    const fx4 = (await listingsOf(db, src)).find((l) => l.source_ref === 'FX-004')!;
    expect(fx4.title).toBe('Commercial space for rent in Buea Town');
  });
});

describe('re-import', () => {
  it('of the same file changes nothing: no updated_at change, no new price history', async () => {
    const file = work.fixture('mixed.ndjson');
    const src = source();
    await importFile(db.pool, { file, format: 'ndjson', source: src, now: new Date('2026-11-01T10:00:00Z') });
    const before = await listingsOf(db, src);
    const historyBefore = await historyOf(db, src);

    const again = await importFile(db.pool, { file, format: 'ndjson', source: src, now: new Date('2026-11-02T10:00:00Z') });
    expect(again.counts).toMatchObject({ accepted: 8, inserted: 0, updated: 0, unchanged: 8, repriced: 0 });
    expect(await listingsOf(db, src)).toEqual(before);
    expect(await historyOf(db, src)).toEqual(historyBefore);
  });

  it('records a price change in the history and moves updated_at', async () => {
    const first = new Date('2026-11-01T10:00:00Z');
    const second = new Date('2026-11-03T09:30:00Z');
    const rows = readJsonLines(work.fixture('good.ndjson'));
    const src = source();
    await importFile(db.pool, { file: work.write('v1.ndjson', toJsonLines(rows)), format: 'ndjson', source: src, now: first });

    const changed = rows.map((r) => (r.source_ref === 'FX-002' ? { ...r, price: (r.price as number) - 1_500_000 } : r));
    const result = await importFile(db.pool, {
      file: work.write('v2.ndjson', toJsonLines(changed)),
      format: 'ndjson',
      source: src,
      now: second,
    });
    expect(result.counts).toMatchObject({ inserted: 0, updated: 1, unchanged: 7, repriced: 1 });

    const fx2 = (await listingsOf(db, src)).find((l) => l.source_ref === 'FX-002')!;
    const original = rows.find((r) => r.source_ref === 'FX-002')!;
    expect(Number(fx2.price)).toBe((original.price as number) - 1_500_000);
    expect(fx2.updated_at).toEqual(second);
    // The first price (dated from listing) then the new one (dated from the import).
    expect((await historyOf(db, src)).filter((h) => h.source_ref === 'FX-002').map((h) => [Number(h.price), h.changed_at])).toEqual([
      [original.price, new Date(original.listed_at as string)],
      [(original.price as number) - 1_500_000, second],
    ]);
    // Listings without a change kept their updated_at.
    for (const l of (await listingsOf(db, src)).filter((x) => x.source_ref !== 'FX-002')) expect(l.updated_at).toEqual(first);
  });

  it('updates a private field without moving updated_at (it is no public change)', async () => {
    const first = new Date('2026-11-01T10:00:00Z');
    const rows = readJsonLines(work.fixture('good.ndjson'));
    const src = source();
    await importFile(db.pool, { file: work.write('p1.ndjson', toJsonLines(rows)), format: 'ndjson', source: src, now: first });
    const changed = rows.map((r) => (r.source_ref === 'FX-003' ? { ...r, contact_phone: '+237 699 00 11 22' } : r));
    const result = await importFile(db.pool, {
      file: work.write('p2.ndjson', toJsonLines(changed)),
      format: 'ndjson',
      source: src,
      now: new Date(),
    });
    expect(result.counts).toMatchObject({ updated: 1, repriced: 0 });
    const fx3 = (await listingsOf(db, src)).find((l) => l.source_ref === 'FX-003')!;
    expect(fx3.contact_phone).toBe('+237 699 00 11 22');
    expect(fx3.updated_at).toEqual(first);
  });
});

describe('NDJSON and CSV', () => {
  it('load the same rows', async () => {
    const now = new Date('2026-11-05T12:00:00Z');
    const fromJson = source();
    const fromCsv = source();
    await importFile(db.pool, { file: work.fixture('good.ndjson'), format: 'ndjson', source: fromJson, now });
    await importFile(db.pool, { file: work.fixture('good.csv'), format: 'csv', source: fromCsv, now });
    const strip = (rows: Awaited<ReturnType<typeof listingsOf>>) => rows.map(({ id, ...rest }) => rest);
    const json = await listingsOf(db, fromJson);
    expect(json).toHaveLength(8);
    expect(strip(await listingsOf(db, fromCsv))).toEqual(strip(json));
  });
});
