/**
 * `import --full`: listings of the source absent from the file are withdrawn (never
 * deleted), and only when the file is plausibly the whole feed.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db.js';
import { importFile } from '../../server/ingest/import.js';
import { listingsOf, readJsonLines, removeSource, testDatabase, testSource, toJsonLines, workdir, type Workdir } from './helpers.js';

let db: Database;
let work: Workdir;
let src: string;
let rows: Record<string, unknown>[];
const first = new Date('2026-11-01T10:00:00Z');
const second = new Date('2026-11-04T08:00:00Z');

beforeAll(() => {
  db = testDatabase();
  work = workdir();
  rows = readJsonLines(work.fixture('good.ndjson'));
});
afterEach(async () => {
  await removeSource(db, src);
});
afterAll(async () => {
  work.remove();
  await db.close();
});

async function loadAll() {
  src = testSource();
  await importFile(db.pool, { file: work.write('all.ndjson', toJsonLines(rows)), format: 'ndjson', source: src, now: first });
}

describe('import --full', () => {
  it('withdraws the active listings of the source that the file no longer has', async () => {
    await loadAll();
    const other = testSource();
    await importFile(db.pool, {
      file: work.write('other.ndjson', toJsonLines(rows.slice(0, 2))),
      format: 'ndjson',
      source: other,
      now: first,
    });
    // FX-008 is already "rented" in the fixture: a removed listing stays as it was.
    const kept = rows.filter((r) => !['FX-002', 'FX-005', 'FX-008'].includes(r.source_ref as string));
    const result = await importFile(db.pool, {
      file: work.write('kept.ndjson', toJsonLines(kept)),
      format: 'ndjson',
      source: src,
      full: true,
      now: second,
    });

    expect(result.counts).toMatchObject({ accepted: 5, unchanged: 5, removed: 2 });
    const after = await listingsOf(db, src);
    expect(after).toHaveLength(8); // withdrawn, not deleted
    for (const l of after) {
      if (l.source_ref === 'FX-002' || l.source_ref === 'FX-005') {
        expect(l).toMatchObject({ status: 'withdrawn', removed_at: second, updated_at: second });
      } else if (l.source_ref === 'FX-008') {
        expect(l.status).toBe('rented');
        expect(l.updated_at).toEqual(first);
      } else {
        expect(l).toMatchObject({ status: 'active', removed_at: null, updated_at: first });
      }
    }
    // Another source is never touched.
    expect((await listingsOf(db, other)).every((l) => l.status === 'active')).toBe(true);
    await removeSource(db, other);
  });

  it('does not withdraw a listing whose row is malformed today', async () => {
    await loadAll();
    const broken = rows.map((r) => (r.source_ref === 'FX-003' ? { ...r, price: -5 } : r));
    const result = await importFile(db.pool, {
      file: work.write('broken.ndjson', toJsonLines(broken)),
      format: 'ndjson',
      source: src,
      full: true,
      now: second,
    });
    expect(result.counts).toMatchObject({ rejected: 1, removed: 0 });
    expect((await listingsOf(db, src)).find((l) => l.source_ref === 'FX-003')!.status).toBe('active');
  });

  it('refuses to withdraw everything when no row of the file is valid', async () => {
    await loadAll();
    const garbage = work.write('garbage.ndjson', 'not json\n{"also": "wrong"}\n');
    const result = await importFile(db.pool, { file: garbage, format: 'ndjson', source: src, full: true, now: second });
    expect(result.counts).toMatchObject({ accepted: 0, rejected: 2, removed: 0 });
    expect(result.full_skipped_reason).toMatch(/no valid row/);
    expect(JSON.parse(readFileSync(result.report_path, 'utf8')).full_skipped_reason).toMatch(/no valid row/);
    expect((await listingsOf(db, src)).filter((l) => l.status === 'active')).toHaveLength(7);
  });

  it('brings a withdrawn listing back when the feed carries it again', async () => {
    await loadAll();
    await importFile(db.pool, {
      file: work.write('six.ndjson', toJsonLines(rows.slice(0, 6))),
      format: 'ndjson',
      source: src,
      full: true,
      now: second,
    });
    const third = new Date('2026-11-06T08:00:00Z');
    const result = await importFile(db.pool, {
      file: work.write('again.ndjson', toJsonLines(rows)),
      format: 'ndjson',
      source: src,
      full: true,
      now: third,
    });
    expect(result.counts).toMatchObject({ updated: 1, removed: 0 }); // FX-007 back; FX-008 was rented already
    expect((await listingsOf(db, src)).find((l) => l.source_ref === 'FX-007')).toMatchObject({
      status: 'active',
      removed_at: null,
      updated_at: third,
    });
  });
});
