/**
 * Undated rows never pose as new (issue 30): a feed row without `listed_at`, imported
 * without `--listed-at`, is dated from the import that first saw it and marked undated.
 * It counts in /market/stats, in the history's active listings from the import's month
 * (never earlier), never as a new listing, not in the 30-day trends; the API says
 * `listed_at_precision: "unknown"`. With a backfill's date the same rows are dated.
 * Figures are checked against SQL written here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../../server/ingest/import.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { get, serverWithAccount } from '../helpers/server.js';
import { removeSource, testSource, toJsonLines, workdir, type Workdir } from './helpers.js';

const t = serverWithAccount('enterprise');
const undatedSource = testSource();
const backfillSource = testSource();
let work: Workdir;

// A series no other test plants in: warehouses for rent in Ebolowa.
const SERIES = { city: 'Ebolowa', type: 'warehouse', purpose: 'rent' } as const;
const SERIES_SQL = `city_key = 'ebolowa' AND type = 'warehouse' AND purpose = 'rent'`;
const SERIES_QUERY = 'city=ebolowa&type=warehouse&purpose=rent';

/** The 15th of last month (UTC): the import's day, in a month the history already holds. */
const importDay = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() - 1, 15, 10));
const importMonth = importDay.toISOString().slice(0, 7);
const monthBefore = new Date(Date.UTC(importDay.getUTCFullYear(), importDay.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);

const row = (src: string, ref: string, price: number, extra: Record<string, unknown> = {}) => ({
  source_ref: `${src}-${ref}`,
  ...SERIES,
  neighborhood: 'Mekalat',
  bedrooms: 0,
  surface: 300,
  price,
  ...extra,
});

beforeAll(async () => {
  work = workdir();
  // Five undated adverts (years old, perhaps: the feed does not say) and one dated in the import's month.
  const undated = [1, 2, 3, 4, 5].map((i) => row(undatedSource, `u${i}`, 400_000 + i * 10_000));
  const dated = row(undatedSource, 'd1', 455_000, { listed_at: new Date(importDay.getTime() - 2 * 86_400_000).toISOString() });
  const file = work.write('undated.ndjson', toJsonLines([...undated, dated]));
  const result = await importFile(t.db.pool, { file, format: 'ndjson', source: undatedSource, now: importDay });
  expect(result.counts, JSON.stringify(result.rejected_sample)).toMatchObject({ rows: 6, accepted: 6, inserted: 6 });
  await refreshMarketFigures(t.db.pool);
});
afterAll(async () => {
  await removeSource(t.db, undatedSource, backfillSource);
  await refreshMarketFigures(t.db.pool);
  work.remove();
});

async function stored(source: string) {
  const { rows } = await t.db.pool.query<{ id: string; source_ref: string; listed_at: Date; listed_at_known: boolean }>(
    'SELECT id, source_ref, listed_at, listed_at_known FROM listings WHERE source = $1 ORDER BY source_ref',
    [source],
  );
  return rows;
}

describe('an import of rows without a date', () => {
  it('dates them from the import and marks them undated; a row with its date keeps it', async () => {
    const rows = await stored(undatedSource);
    expect(rows.map((r) => [r.source_ref.slice(undatedSource.length + 1), r.listed_at_known])).toEqual([
      ['d1', true],
      ['u1', false],
      ['u2', false],
      ['u3', false],
      ['u4', false],
      ['u5', false],
    ]);
    for (const r of rows.filter((x) => !x.listed_at_known)) expect(r.listed_at.toISOString()).toBe(importDay.toISOString());
  });

  it('keeps them undated, with the first import date, when the same feed comes again', async () => {
    const file = work.write('again.ndjson', toJsonLines([row(undatedSource, 'u1', 410_000)]));
    await importFile(t.db.pool, { file, format: 'ndjson', source: undatedSource, now: new Date(importDay.getTime() + 86_400_000) });
    const u1 = (await stored(undatedSource)).find((r) => r.source_ref.endsWith('-u1'))!;
    expect(u1).toMatchObject({ listed_at_known: false, listed_at: importDay });
  });

  it('says in the answer that the date is unknown, in the listing, the search and the export', async () => {
    const rows = await stored(undatedSource);
    const undated = rows.find((r) => !r.listed_at_known)!;
    const dated = rows.find((r) => r.listed_at_known)!;
    const one = await get(t.baseUrl, `/api/v1/listings/${undated.id}`, t.key);
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ listed_at: importDay.toISOString(), listed_at_precision: 'unknown' });
    const other = await get(t.baseUrl, `/api/v1/listings/${dated.id}`, t.key);
    expect(other.body.data.listed_at_precision).toBe('day');

    const search = await get(t.baseUrl, `/api/v1/listings?${SERIES_QUERY}&limit=100`, t.key);
    expect(search.status).toBe(200);
    const mine = (search.body.data as { id: string; listed_at_precision: string }[]).filter((l) => rows.some((r) => r.id === l.id));
    expect(mine.map((l) => [l.id, l.listed_at_precision]).sort()).toEqual(
      rows.map((r) => [r.id, r.listed_at_known ? 'day' : 'unknown']).sort(),
    );

    const exported = await fetch(`${t.baseUrl}/api/v1/exports/listings?${SERIES_QUERY}`, {
      headers: { 'X-API-Key': t.key, 'Accept-Encoding': 'identity' },
    });
    expect(exported.status).toBe(200);
    const lines = (await exported.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; listed_at: string; listed_at_precision: string })
      .filter((l) => rows.some((r) => r.id === l.id));
    expect(lines.map((l) => [l.id, l.listed_at, l.listed_at_precision]).sort()).toEqual(
      rows.map((r) => [r.id, r.listed_at.toISOString(), r.listed_at_known ? 'day' : 'unknown']).sort(),
    );
  });

  it('counts them in /market/stats, as SQL over the active listings does', async () => {
    const res = await get(t.baseUrl, `/api/v1/market/stats?${SERIES_QUERY}`, t.key);
    expect(res.status).toBe(200);
    const { rows } = await t.db.pool.query(`SELECT count(*)::int AS n FROM listings WHERE ${SERIES_SQL} AND status = 'active'`);
    const { rows: undated } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM listings WHERE ${SERIES_SQL} AND status = 'active' AND NOT listed_at_known`,
    );
    expect(undated[0].n).toBe(5);
    const point = (res.body.data as { purpose: string; volume: number }[]).find((p) => p.purpose === 'rent')!;
    expect(point.volume).toBe(rows[0].n);
  });

  it('keeps them out of the new listings of the import month and out of every earlier month', async () => {
    const res = await get(t.baseUrl, `/api/v1/market/history?${SERIES_QUERY}`, t.key);
    expect(res.status).toBe(200);
    const points = res.body.data as { month: string; active_listings: number; new_listings: number }[];
    const at = (month: string) => points.find((p) => p.month === month)!;
    // SQL here: active at the month's end by listed_at; new only when the date is known.
    const direct = async (month: string) => {
      const { rows } = await t.db.pool.query(
        `WITH m AS (SELECT ($1 || '-01')::timestamp AT TIME ZONE 'UTC' AS s, (($1 || '-01')::timestamp + interval '1 month') AT TIME ZONE 'UTC' AS e)
         SELECT count(*) FILTER (WHERE l.listed_at < m.e AND (l.removed_at IS NULL OR l.removed_at >= m.e))::int AS active,
                count(*) FILTER (WHERE l.listed_at_known AND l.listed_at >= m.s AND l.listed_at < m.e)::int AS new,
                count(*) FILTER (WHERE l.source = $2 AND l.listed_at < m.e)::int AS ours
         FROM listings l, m WHERE ${SERIES_SQL}`,
        [month, undatedSource],
      );
      return rows[0] as { active: number; new: number; ours: number };
    };
    const now = await direct(importMonth);
    expect(now.ours).toBe(6);
    expect(at(importMonth)).toMatchObject({ active_listings: now.active, new_listings: now.new });
    // The five undated adverts are active that month, and only the dated one is new of ours.
    const { rows: ourNew } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM listings WHERE source = $1 AND listed_at_known AND to_char(listed_at, 'YYYY-MM') = $2`,
      [undatedSource, importMonth],
    );
    expect(ourNew[0].n).toBe(1);
    const before = await direct(monthBefore);
    expect(before.ours).toBe(0);
    expect(at(monthBefore)).toMatchObject({ active_listings: before.active, new_listings: before.new });
  });

  it('leaves them out of the 30-day trends', async () => {
    // Imported today: by their date alone they would be in the current period.
    const file = work.write('today.ndjson', toJsonLines([row(undatedSource, 't1', 421_000), row(undatedSource, 't2', 433_000)]));
    await importFile(t.db.pool, { file, format: 'ndjson', source: undatedSource });
    await refreshMarketFigures(t.db.pool);
    const { rows: trends } = await t.db.pool.query(
      `SELECT coalesce(sum(new_listings), 0)::int AS n, min(period_start) AS s, min(period_end) AS e
       FROM market_trends WHERE city_key = 'ebolowa' AND bedrooms IS NULL`,
    );
    const { s, e } = (await t.db.pool.query('SELECT min(period_start) AS s, min(period_end) AS e FROM market_trends')).rows[0];
    const { rows: ours } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM listings WHERE source = $1 AND NOT listed_at_known AND neighborhood_key IS NOT NULL
         AND listed_at >= $2 AND listed_at < $3`,
      [undatedSource, s, e],
    );
    expect(ours[0].n).toBe(2);
    const { rows: direct } = await t.db.pool.query(
      `SELECT count(*)::int AS n FROM listings WHERE city_key = 'ebolowa' AND neighborhood_key IS NOT NULL AND listed_at_known
         AND listed_at >= $1 AND listed_at < $2`,
      [s, e],
    );
    expect(trends[0].n).toBe(direct[0].n);
  });
});

describe('the same rows with a backfill date (--listed-at)', () => {
  it('are dated, and the answer says so', async () => {
    const file = work.write('backfill.ndjson', toJsonLines([row(backfillSource, 'b1', 400_000), row(backfillSource, 'b2', 410_000)]));
    const listedAt = new Date('2021-06-01T00:00:00.000Z');
    await importFile(t.db.pool, { file, format: 'ndjson', source: backfillSource, listedAt });
    const rows = await stored(backfillSource);
    expect(rows.map((r) => [r.listed_at.toISOString(), r.listed_at_known])).toEqual([
      [listedAt.toISOString(), true],
      [listedAt.toISOString(), true],
    ]);
    const one = await get(t.baseUrl, `/api/v1/listings/${rows[0].id}`, t.key);
    expect(one.body.data).toMatchObject({ listed_at: listedAt.toISOString(), listed_at_precision: 'day' });
  });
});
