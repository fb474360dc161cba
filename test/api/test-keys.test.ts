/**
 * Test keys (`mboa_test_…`): the same endpoints and contract as live keys, over the fixed
 * public sample, never counted in the quota, with a per-minute limit of their own.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEYS } from '../../contract/plans.js';
import { createKey } from '../../server/accounts/keys.js';
import { DATASET_TABLES } from '../../server/platform/dataset-tables.js';
import { SAMPLE } from '../../server/generate/sample-data.js';
import { itWhen } from '../helpers/requires.js';
import { get, startTestServer, storedUsage, type TestServer } from '../helpers/server.js';

let t: TestServer;
let sample: pg.Client;
beforeAll(async () => {
  t = await startTestServer();
  sample = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await sample.connect();
});
afterAll(async () => {
  await sample.end();
  await t.close();
});

async function accountWithTestKey(plan: 'starter' | 'pro' = 'pro') {
  const account = await t.account(plan);
  const { key } = await createKey(t.db.prisma, account.id, 'CI suite', new Date(), { kind: 'test' });
  expect(key).toMatch(/^mboa_test_[0-9A-Za-z]{32}$/);
  return { ...account, testKey: key };
}

describe('a test key', () => {
  it('reads the fixed public sample, never the live listings', async () => {
    const { testKey, key } = await accountWithTestKey();
    const { rows } = await sample.query<{ n: number }>("SELECT count(*)::int AS n FROM sample.listings WHERE status = 'active'");
    expect(rows[0].n).toBeGreaterThan(0);
    const page = await get(t.baseUrl, '/api/v1/listings?limit=50', testKey);
    expect(page.status).toBe(200);
    expect(page.body.meta.total).toBe(rows[0].n);
    const ids = page.body.data.map((l: { id: string }) => l.id);
    expect(ids.length).toBe(50);
    const inSample = await sample.query<{ n: number }>('SELECT count(*)::int AS n FROM sample.listings WHERE id = ANY($1)', [ids]);
    expect(inSample.rows[0].n).toBe(50);
    const inLive = await sample.query<{ n: number }>('SELECT count(*)::int AS n FROM public.listings WHERE id = ANY($1)', [ids]);
    expect(inLive.rows[0].n).toBe(0);

    // Detail and market figures come from the sample too; a live id is unknown there.
    expect((await get(t.baseUrl, `/api/v1/listings/${ids[0]}`, testKey)).status).toBe(200);
    expect((await get(t.baseUrl, `/api/v1/listings/${ids[0]}`, key)).status).toBe(404);
    const stats = await get(t.baseUrl, '/api/v1/market/stats?city=Douala&purpose=sale', testKey);
    expect(stats.status).toBe(200);
    const { rows: volume } = await sample.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM sample.listings WHERE status = 'active' AND city = 'Douala' AND purpose = 'sale'",
    );
    expect(volume[0].n).toBeGreaterThan(0);
    expect(stats.body.data[0].volume).toBe(volume[0].n);
    expect((await get(t.baseUrl, '/api/v1/market/trends?city=Douala', testKey)).status).toBe(200);
  });

  it('marks every answer: meta.dataset and X-Mboa-Dataset say sample, and live for a live key', async () => {
    const { testKey, key } = await accountWithTestKey('pro');
    const page = await get(t.baseUrl, '/api/v1/listings?limit=1', testKey);
    const id = page.body.data[0].id as string;
    for (const path of [
      '/api/v1/listings?limit=1',
      `/api/v1/listings/${id}`,
      '/api/v1/market/stats',
      '/api/v1/market/trends',
      '/api/v1/ping',
    ]) {
      const res = await get(t.baseUrl, path, testKey);
      expect(res.status, path).toBe(200);
      expect(res.body.meta.dataset, path).toBe('sample');
      expect(res.headers.get('x-mboa-dataset'), path).toBe('sample');
      const live = await get(t.baseUrl, path.replace(id, page.body.data[0].id), key);
      expect(live.headers.get('x-mboa-dataset'), path).toBe('live');
      if (live.status === 200) expect(live.body.meta.dataset, path).toBe('live');
    }
    // Errors of a known caller say it too.
    const refused = await get(t.baseUrl, '/api/v1/listings?limit=0', testKey);
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-mboa-dataset')).toBe('sample');
    expect(refused.body.meta.dataset).toBe('sample');
    const liveRefused = await get(t.baseUrl, '/api/v1/listings?limit=0', key);
    expect(liveRefused.body.meta.dataset).toBe('live');
    // Before the key is known, nothing is said about a dataset.
    const unknownKey = await get(t.baseUrl, '/api/v1/listings', 'mboa_live_unknown');
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.body.meta).not.toHaveProperty('dataset');
  });

  it('answers the same on every run: the sample is fixed', async () => {
    const { testKey } = await accountWithTestKey();
    const { rows } = await sample.query<{ version: number; n: number }>(
      'SELECT (SELECT max(version) FROM sample.version) AS version, (SELECT count(*)::int FROM sample.listings) AS n',
    );
    // The sample's generated rows, but for the active repeats folded as an import folds them (seed.test.ts).
    expect(rows[0].version).toBe(SAMPLE.version);
    expect(rows[0].n).toBeGreaterThan(0.85 * SAMPLE.listings);
    expect(rows[0].n).toBeLessThan(SAMPLE.listings);
    const first = await get(t.baseUrl, '/api/v1/listings?city=Yaound%C3%A9&sort=price&limit=5', testKey);
    const again = await get(t.baseUrl, '/api/v1/listings?city=Yaound%C3%A9&sort=price&limit=5', testKey);
    expect(first.body.data.map((l: { id: string }) => l.id)).toEqual(again.body.data.map((l: { id: string }) => l.id));
    expect(first.body.data.length).toBe(5);
  });

  it('is never counted, and shows the live quota as it stands', async () => {
    const { id, key, testKey } = await accountWithTestKey();
    expect((await get(t.baseUrl, '/api/v1/listings?limit=1', key)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      const res = await get(t.baseUrl, '/api/v1/listings?limit=1', testKey);
      expect(res.status).toBe(200);
      expect(res.body.meta.quota).toMatchObject({ plan: 'pro', used: 1 });
    }
    expect(await storedUsage(t, id)).toBe(1);
    const { rows } = await t.db.pool.query<{ calls: number }>(
      'SELECT coalesce(sum(calls), 0)::int AS calls FROM daily_usage WHERE account_id = $1',
      [id],
    );
    expect(rows[0].calls).toBe(1);
  });

  it(`has its own per-minute limit (${TEST_KEYS.ratePerMinute}), apart from the account's live calls`, async () => {
    const { key, testKey } = await accountWithTestKey('starter');
    const first = await get(t.baseUrl, '/api/v1/listings?limit=1', testKey);
    expect(first.headers.get('ratelimit-policy')).toBe(`"minute";q=${TEST_KEYS.ratePerMinute};w=60`);
    let refused = null;
    // Twice the limit and more: should the minute turn during the loop, the next window fills too.
    for (let i = 1; i <= 2 * TEST_KEYS.ratePerMinute + 2 && !refused; i++) {
      const res = await get(t.baseUrl, '/api/v1/listings?limit=1', testKey);
      if (res.status === 429) refused = { at: i, res };
    }
    expect(refused?.res.body.code).toBe('rate_limited');
    // A test key's ping still answers, showing its spent window.
    const ping = await get(t.baseUrl, '/api/v1/ping', testKey);
    expect(ping.status).toBe(200);
    expect(ping.headers.get('ratelimit')).toMatch(/^"minute";r=0;/);
    // The live key still has its whole window (Starter: 30 a minute).
    const live = await get(t.baseUrl, '/api/v1/listings?limit=1', key);
    expect(live.status).toBe(200);
    expect(live.headers.get('ratelimit')).toMatch(/^"minute";r=29;/);
  });

  it("keeps cursors apart: a test key's cursor is refused on the live data, and the reverse", async () => {
    const { key, testKey } = await accountWithTestKey();
    const sampleCursor = (await get(t.baseUrl, '/api/v1/listings?limit=2', testKey)).body.meta.next_cursor;
    const liveCursor = (await get(t.baseUrl, '/api/v1/listings?limit=2', key)).body.meta.next_cursor;
    const crossed = [
      await get(t.baseUrl, `/api/v1/listings?limit=2&cursor=${encodeURIComponent(sampleCursor)}`, key),
      await get(t.baseUrl, `/api/v1/listings?limit=2&cursor=${encodeURIComponent(liveCursor)}`, testKey),
    ];
    for (const res of crossed) expect(res.body.code).toBe('invalid_cursor');
    expect((await get(t.baseUrl, `/api/v1/listings?limit=2&cursor=${encodeURIComponent(sampleCursor)}`, testKey)).status).toBe(200);
  });

  it('keeps the plan: a Starter test key is refused the trends, like its live keys', async () => {
    const { testKey } = await accountWithTestKey('starter');
    const res = await get(t.baseUrl, '/api/v1/market/trends', testKey);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('plan_forbidden');
  });
});

itWhen(Boolean(process.env.REDIS_URL), 'Redis (REDIS_URL)')('is never counted with Redis either', async () => {
  const r = await startTestServer({ redis: true });
  try {
    const account = await r.account('pro');
    const { key: testKey } = await createKey(r.db.prisma, account.id, 'CI', new Date(), { kind: 'test' });
    for (let i = 0; i < 3; i++) expect((await get(r.baseUrl, '/api/v1/listings?limit=1', testKey)).status).toBe(200);
    const live = await get(r.baseUrl, '/api/v1/listings?limit=1', account.key);
    expect(live.body.meta.quota.used).toBe(1);
    expect(await storedUsage(r, account.id)).toBe(1);
  } finally {
    await r.close();
  }
});

// Independent of the derivation's own reading of the catalog (server/platform/table-shape.ts):
// information_schema and pg_indexes, as an operator would compare them.
it("the sample tables are the live tables' copies: columns, indexes, checks and row triggers (derived after migrating)", async () => {
  const tables = [...DATASET_TABLES];
  // Columns: name, type, nullability and default; a sequence's default draws from the sample's own sequence.
  const { rows } = await sample.query<{ schema: string; table_name: string; columns: string }>(
    `SELECT table_schema AS schema, table_name,
            string_agg(column_name || ':' || (SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
                                             WHERE a.attrelid = format('%I.%I', table_schema, table_name)::regclass
                                               AND a.attname = column_name)
                       || ':' || is_nullable || ':' || coalesce(column_default, '-'), ', ' ORDER BY column_name) AS columns
     FROM information_schema.columns WHERE table_schema IN ('public', 'sample') AND table_name = ANY($1::text[])
     GROUP BY 1, 2 ORDER BY 2, 1`,
    [tables],
  );
  for (const t of tables) {
    const live = rows.find((r) => r.schema === 'public' && r.table_name === t)?.columns;
    const copy = rows.find((r) => r.schema === 'sample' && r.table_name === t)?.columns;
    expect(live, t).toBeDefined();
    expect(copy?.replace(/nextval\('sample\./g, "nextval('"), t).toBe(live);
    expect(copy, t).not.toMatch(/nextval\('(?!sample\.)/);
  }
  // The sample holds nothing else but its version table.
  const { rows: extra } = await sample.query<{ t: string }>(
    "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'sample' AND table_name <> ALL($1::text[])",
    [tables],
  );
  expect(extra.map((r) => r.t)).toEqual(['version']);

  // Indexes: the same definitions, names included, but for the schema.
  const { rows: indexes } = await sample.query<{ schemaname: string; def: string }>(
    `SELECT schemaname, regexp_replace(indexdef, ' ON (ONLY )?(public|sample)\\.', ' ON ') AS def
     FROM pg_indexes WHERE schemaname IN ('public', 'sample') AND tablename = ANY($1::text[])`,
    [tables],
  );
  const of = (schema: string) =>
    indexes
      .filter((i) => i.schemaname === schema)
      .map((i) => i.def)
      .sort();
  expect(of('public').length).toBeGreaterThan(2 * tables.length);
  expect(of('sample')).toEqual(of('public'));

  // CHECK constraints, and the triggers that shape a written row (BEFORE ... FOR EACH ROW) and
  // no other: the AFTER triggers act on the live data (dirty months, change notices, webhooks).
  const { rows: parts } = await sample.query<{ schema: string; part: string }>(
    `SELECT c.relnamespace::regnamespace::text AS schema, c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) AS part
     FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
     WHERE k.contype = 'c' AND c.relnamespace::regnamespace::text IN ('public', 'sample') AND c.relname = ANY($1::text[])
     UNION ALL
     SELECT c.relnamespace::regnamespace::text, regexp_replace(pg_get_triggerdef(g.oid), ' ON (public|sample)\\.', ' ON ')
     FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid
     WHERE NOT g.tgisinternal AND c.relnamespace::regnamespace::text IN ('public', 'sample') AND c.relname = ANY($1::text[])
       AND (c.relnamespace::regnamespace::text = 'sample' OR (g.tgtype & 3) = 3)`,
    [tables],
  );
  const partsOf = (schema: string) =>
    parts
      .filter((p) => p.schema === schema)
      .map((p) => p.part)
      .sort();
  expect(partsOf('public').some((p) => p.startsWith('CREATE TRIGGER listings_geo_insert BEFORE INSERT ON listings'))).toBe(true);
  expect(partsOf('sample')).toEqual(partsOf('public'));
});
