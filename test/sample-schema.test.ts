/**
 * The sample's tables derived from the live ones (server/platform/sample-schema.ts), which
 * the migration runner does after every run: a change made to `public` only shows up in
 * `sample`, the sample's rows kept. Each case changes the schema inside a transaction it
 * rolls back, so the shared database is left as it was.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATASET_TABLES } from '../server/platform/dataset-tables.js';
import { deriveSampleSchema } from '../server/platform/sample-schema.js';

let db: pg.Client;
beforeAll(async () => {
  db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db.end();
});

/** Runs `body` in a transaction that is always rolled back. */
async function rolledBack(body: () => Promise<void>) {
  await db.query('BEGIN');
  try {
    await body();
  } finally {
    await db.query('ROLLBACK');
  }
}

const derive = (options: Parameters<typeof deriveSampleSchema>[1] = {}) => deriveSampleSchema(db, { inTransaction: true, ...options });
const one = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T> =>
  (await db.query<T>(sql, params)).rows[0];
const maybe = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T | undefined> =>
  (await db.query<T>(sql, params)).rows[0];
const column = (schema: string, table: string, name: string) =>
  maybe<{ type: string; not_null: boolean; def: string | null }>(
    `SELECT format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS def
     FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = format('%I.%I', $1::text, $2::text)::regclass AND a.attname = $3 AND NOT a.attisdropped`,
    [schema, table, name],
  );
const indexDef = (schema: string, name: string) =>
  maybe<{ def: string }>('SELECT indexdef AS def FROM pg_indexes WHERE schemaname = $1 AND indexname = $2', [schema, name]).then(
    // A partitioned table's index is ON ONLY the table: the same definition for a plain copy.
    (r) => r?.def.replace(` ON ${schema}.`, ' ON ').replace(` ON ONLY ${schema}.`, ' ON '),
  );

describe('the sample derived from the live tables', () => {
  it('is derived already after migrating: a run finds nothing to change', async () => {
    await rolledBack(async () => {
      expect(await derive()).toEqual([]);
    });
  });

  it('follows a column, an index, a check and a sequence added to public and an index dropped there, its rows kept', async () => {
    await rolledBack(async () => {
      const before = await one<{ n: number; version: number | null }>(
        'SELECT (SELECT count(*)::int FROM sample.listings) AS n, (SELECT max(version) FROM sample.version) AS version',
      );
      expect(before.n).toBeGreaterThan(1000);
      expect(before.version).not.toBeNull();
      // A migration as they are written now: public only.
      await db.query(`ALTER TABLE public.listings ADD COLUMN probe_grade text NOT NULL DEFAULT 'b'`);
      await db.query(`CREATE INDEX listings_probe_grade_idx ON public.listings (probe_grade, city_key) WHERE status = 'active'`);
      await db.query(`ALTER TABLE public.listings ADD CONSTRAINT listings_probe_grade_check CHECK (probe_grade <> '')`);
      await db.query('ALTER TABLE public.price_history ADD COLUMN probe_seq bigserial');
      await db.query('DROP INDEX public.market_history_month_idx');

      const changes = await derive();
      expect(changes).toContain('sample.listings: column probe_grade added');
      expect(changes).toContain('sample.listings: index listings_probe_grade_idx created');
      expect(changes).toContain('sample.market_history: index market_history_month_idx dropped');

      expect(await column('sample', 'listings', 'probe_grade')).toEqual(await column('public', 'listings', 'probe_grade'));
      expect(await indexDef('sample', 'listings_probe_grade_idx')).toBe(await indexDef('public', 'listings_probe_grade_idx'));
      expect(await indexDef('sample', 'listings_probe_grade_idx')).toMatch(/\(probe_grade, city_key\) WHERE/);
      expect(await indexDef('sample', 'market_history_month_idx')).toBeUndefined();
      const check = await one<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_constraint WHERE conrelid = 'sample.listings'::regclass AND conname = 'listings_probe_grade_check'",
      );
      expect(check.n).toBe(1);
      // The sample's rows are still there, with the new column's default; the loader will
      // reload them (the version is gone), so they become what a load writes.
      const after = await one<{ n: number; b: number; versions: number }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE probe_grade = 'b')::int AS b,
                (SELECT count(*)::int FROM sample.version) AS versions FROM sample.listings`,
      );
      expect(after).toEqual({ n: before.n, b: before.n, versions: 0 });
      // The new serial draws from a sequence of the sample's own, past the ids it holds.
      const seq = await column('sample', 'price_history', 'probe_seq');
      expect(seq?.def).toBe("nextval('sample.price_history_probe_seq_seq'::regclass)");
      const ids = await one<{ next: string; max: string | null }>(
        "SELECT nextval('sample.price_history_probe_seq_seq')::text AS next, (SELECT max(probe_seq)::text FROM sample.price_history) AS max",
      );
      expect(BigInt(ids.next)).toBeGreaterThan(BigInt(ids.max ?? 0));

      // Idempotent: a second run changes nothing.
      expect(await derive()).toEqual([]);

      // And back: what public drops, the sample drops.
      await db.query('ALTER TABLE public.listings DROP COLUMN probe_grade');
      const dropped = await derive();
      expect(dropped).toContain('sample.listings: column probe_grade dropped');
      expect(await column('sample', 'listings', 'probe_grade')).toBeUndefined();
      expect(await indexDef('sample', 'listings_probe_grade_idx')).toBeUndefined();
    });
  });

  it('leaves alone a migration that still writes the sample DDL itself', async () => {
    await rolledBack(async () => {
      await db.query('ALTER TABLE public.listings ADD COLUMN probe_standing text');
      await db.query('ALTER TABLE sample.listings ADD COLUMN probe_standing text');
      await db.query('CREATE INDEX listings_probe_standing_idx ON public.listings (probe_standing)');
      await db.query('CREATE INDEX listings_probe_standing_idx ON sample.listings (probe_standing)');
      expect(await derive()).toEqual([]);
      expect(await one('SELECT count(*)::int AS n FROM sample.version')).toEqual({ n: 1 });
    });
  });

  it('creates a dataset table the sample lacks: columns, indexes, checks, its own sequence, the row triggers only', async () => {
    await rolledBack(async () => {
      await db.query(`CREATE TABLE public.probe_places (
        id bigserial PRIMARY KEY, city_key text NOT NULL, n integer DEFAULT 3 CHECK (n > 0), seen timestamptz(3) NOT NULL DEFAULT now())`);
      await db.query('CREATE UNIQUE INDEX probe_places_city_key_idx ON public.probe_places (city_key)');
      await db.query(`CREATE FUNCTION public.probe_places_fill() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN NEW.n := 7; RETURN NEW; END $$`);
      await db.query(
        'CREATE TRIGGER probe_places_fill BEFORE INSERT ON public.probe_places FOR EACH ROW EXECUTE FUNCTION probe_places_fill()',
      );
      await db.query(
        'CREATE TRIGGER probe_places_notify AFTER INSERT ON public.probe_places FOR EACH STATEMENT EXECUTE FUNCTION mboa_notify_data_change()',
      );
      const changes = await derive({ tables: [...DATASET_TABLES, 'probe_places'] });
      expect(changes).toContain('sample.probe_places: created');
      // Created while the sample is loaded: the loader fills it at its next run.
      expect(changes).toContain('sample: data to be reloaded (probe_places changed)');
      expect(await indexDef('sample', 'probe_places_city_key_idx')).toBe(await indexDef('public', 'probe_places_city_key_idx'));
      expect(await indexDef('sample', 'probe_places_pkey')).toBe(await indexDef('public', 'probe_places_pkey'));
      const triggers = await db.query<{ tgname: string }>(
        "SELECT tgname FROM pg_trigger WHERE tgrelid = 'sample.probe_places'::regclass AND NOT tgisinternal",
      );
      expect(triggers.rows.map((r) => r.tgname)).toEqual(['probe_places_fill']);
      const publicSeq = await one<{ v: string }>('SELECT last_value::text AS v FROM public.probe_places_id_seq');
      const row = await one<{ id: string; n: number }>(
        "INSERT INTO sample.probe_places (city_key) VALUES ('douala') RETURNING id::text, n",
      );
      expect(row).toEqual({ id: '1', n: 7 });
      expect(await one('SELECT last_value::text AS v FROM public.probe_places_id_seq')).toEqual(publicSeq);
      expect(await derive({ tables: [...DATASET_TABLES, 'probe_places'] })).toEqual([]);
    });
  });

  it('retypes in place, empties the copy when its rows refuse a change, and copies a partitioned table as a plain one', async () => {
    await rolledBack(async () => {
      await db.query('CREATE SCHEMA probe_live');
      await db.query('CREATE SCHEMA probe_copy');
      await db.query(`CREATE TABLE probe_live.events (id integer NOT NULL, at date NOT NULL, v integer) PARTITION BY RANGE (at)`);
      await db.query(`CREATE TABLE probe_live.events_2026 PARTITION OF probe_live.events FOR VALUES FROM ('2026-01-01') TO ('2027-01-01')`);
      await db.query('CREATE INDEX events_at_idx ON probe_live.events (at, id)');
      await db.query('CREATE TABLE probe_live.counts (k text PRIMARY KEY, n integer)');
      await db.query('CREATE TABLE probe_copy.version (version integer NOT NULL)');
      const options = { tables: ['events', 'counts'], from: 'probe_live', to: 'probe_copy' };
      await derive(options);
      expect(await one("SELECT relkind::text AS kind FROM pg_class WHERE oid = 'probe_copy.events'::regclass")).toEqual({ kind: 'r' });
      expect(await indexDef('probe_copy', 'events_at_idx')).toBe(await indexDef('probe_live', 'events_at_idx'));

      // Loaded: rows and a version.
      await db.query("INSERT INTO probe_copy.counts VALUES ('a', 1), ('b', 2)");
      await db.query("INSERT INTO probe_copy.events VALUES (1, '2026-05-01', 4)");
      await db.query('INSERT INTO probe_copy.version VALUES (1)');
      // A type widened: retyped in place, rows kept (marked for reload).
      await db.query('ALTER TABLE probe_live.counts ALTER COLUMN n TYPE bigint');
      expect(await derive(options)).toEqual(['probe_copy.counts.n: type bigint', 'probe_copy: data to be reloaded (counts changed)']);
      expect(await one('SELECT sum(n)::int AS n FROM probe_copy.counts')).toEqual({ n: 3 });
      // A NOT NULL column without a default: the copy's rows cannot take it, so the copy is emptied first.
      await db.query('ALTER TABLE probe_live.events ADD COLUMN w integer NOT NULL');
      const changes = await derive(options);
      expect(changes[0]).toMatch(/^probe_copy: emptied, to be reloaded \(probe_copy\.events: column w added: /);
      expect(await column('probe_copy', 'events', 'w')).toEqual({ type: 'integer', not_null: true, def: null });
      expect(
        await one(
          'SELECT (SELECT count(*)::int FROM probe_copy.events) + (SELECT count(*)::int FROM probe_copy.counts) + (SELECT count(*)::int FROM probe_copy.version) AS n',
        ),
      ).toEqual({ n: 0 });
      expect(await derive(options)).toEqual([]);
    });
  });
});
