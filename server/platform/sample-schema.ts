/**
 * The sample's tables derived from the live ones: after every migration run (the migration
 * runner calls this under its lock), each table of DATASET_TABLES in `sample` is brought
 * to its twin in `public`, so a migration changes `public` only.
 *
 * - A missing table is created `LIKE` its twin (columns, defaults, CHECKs, indexes).
 * - Columns public lacks are dropped; missing ones added; a type, nullability or default
 *   that differs is changed in place. A default drawing from a sequence draws from the
 *   sample's own sequence of the same name (created, owned by the sample's column, set past
 *   the ids already there): the sample never takes the live tables' ids, nor holds their
 *   sequences from being dropped.
 * - CHECK constraints and indexes (constraint-backed ones included) are made equal by
 *   definition: the sample's that public lacks are dropped, the missing ones created under
 *   public's name, an equal one named otherwise is renamed. Foreign keys are not copied:
 *   the sample is loaded whole.
 * - Triggers: the sample carries public's BEFORE ... FOR EACH ROW triggers (they shape the
 *   row written, as listings' point is), and nothing else: AFTER and statement triggers act
 *   elsewhere (dirty months, change notices, webhooks), which the sample never must.
 * - A partitioned table's copy is a plain table with the same columns and indexes: the
 *   sample is small.
 *
 * The sample's rows are kept. When a change leaves them other than a load would write them
 * (a column added or retyped, a table created while the sample is loaded), `sample.version`
 * is emptied, so the deploy step's loader (generate/sample-data.ts, run after the
 * migrations by `npm run db:migrate`, demo mode and the tests) reloads it (about 20 s). A
 * statement the rows refuse (NOT NULL, CHECK, UNIQUE, a cast) empties the sample's tables
 * first. Idempotent: a second run finds nothing to change and takes no lock on the tables.
 * All in one transaction.
 */
import type pg from 'pg';
import { DATASET_TABLES } from './dataset-tables.js';
import { type ColumnShape, defaultIn, ident, qualified, readTableShape, sequencesOf, type TableShape } from './table-shape.js';

export interface DeriveOptions {
  /** The tables to derive (DATASET_TABLES). */
  tables?: readonly string[];
  from?: string;
  to?: string;
  /** Run inside the caller's transaction (a savepoint of its own) rather than one of its own. */
  inTransaction?: boolean;
}

/** A statement the rows refuse: data exceptions (22xxx) and integrity violations (23xxx). */
const refusedByRows = (err: unknown) => /^2[23]/.test((err as { code?: string }).code ?? '');

class Derivation {
  readonly changes: string[] = [];
  private emptied = false;
  private reloadMarked = false;

  constructor(
    private readonly db: pg.ClientBase,
    private readonly from: string,
    private readonly to: string,
    private readonly tables: readonly string[],
  ) {}

  private q(table: string) {
    return qualified(this.to, table);
  }

  /** Runs one statement; when the rows refuse it, empties the sample and runs it again. */
  async exec(sql: string, change: string): Promise<void> {
    await this.db.query('SAVEPOINT derive_step');
    try {
      await this.db.query(sql);
    } catch (err) {
      await this.db.query('ROLLBACK TO SAVEPOINT derive_step');
      if (this.emptied || !refusedByRows(err)) throw err;
      await this.empty(`${change}: ${(err as Error).message}`);
      await this.db.query(sql);
    }
    await this.db.query('RELEASE SAVEPOINT derive_step');
    this.changes.push(change);
  }

  /** Empties every table of the sample (the loader fills them again). */
  private async empty(reason: string) {
    const existing = [];
    for (const t of [...this.tables, 'version']) {
      const { rows } = await this.db.query<{ oid: string | null }>('SELECT to_regclass($1)::text AS oid', [this.q(t)]);
      if (rows[0].oid) existing.push(this.q(t));
    }
    await this.db.query(`TRUNCATE ${existing.join(', ')}`);
    this.emptied = true;
    this.changes.push(`${this.to}: emptied, to be reloaded (${reason})`);
  }

  /** The sample's rows of `table` are no longer what a load writes: the loader reloads them. */
  async reload(table: string, created = false) {
    if (this.reloadMarked || this.emptied) return;
    const version = this.q('version');
    const { rows: known } = await this.db.query<{ oid: string | null }>('SELECT to_regclass($1)::text AS oid', [version]);
    if (!known[0].oid) return;
    const { rows } = await this.db.query<{ loaded: boolean; rows: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${version}) AS loaded, EXISTS (SELECT 1 FROM ${this.q(table)}) AS rows`,
    );
    if (!rows[0].loaded || !(rows[0].rows || created)) return;
    await this.db.query(`DELETE FROM ${version}`);
    this.reloadMarked = true;
    this.changes.push(`${this.to}: data to be reloaded (${table} changed)`);
  }

  async table(table: string) {
    const live = await readTableShape(this.db, this.from, table);
    if (!live) throw new Error(`${this.from}.${table} does not exist: DATASET_TABLES names a table no migration creates`);
    let copy = await readTableShape(this.db, this.to, table);
    if (!copy) {
      await this.exec(`CREATE TABLE ${this.q(table)} (LIKE ${qualified(this.from, table)} INCLUDING ALL)`, `${this.q(table)}: created`);
      await this.reload(table, true);
      copy = (await readTableShape(this.db, this.to, table))!;
    }
    await this.columns(table, live, copy);
    copy = (await readTableShape(this.db, this.to, table))!;
    await this.checks(table, live, copy);
    await this.indexes(table, live, copy);
    await this.triggers(table, live, copy);
  }

  private columnSql(c: ColumnShape): string {
    const def = defaultIn(c.default, this.to);
    const rest =
      c.generated === 's'
        ? ` GENERATED ALWAYS AS (${c.default}) STORED`
        : c.identity
          ? ` GENERATED ${c.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY`
          : def !== null
            ? ` DEFAULT ${def}`
            : '';
    return `${ident(c.name)} ${c.type}${rest}${c.notNull ? ' NOT NULL' : ''}`;
  }

  /** The sample's own sequences of a default, created if missing, then owned by its column. */
  private async sequences(table: string, c: ColumnShape, own: boolean) {
    for (const seq of sequencesOf(c.default)) {
      const name = qualified(this.to, seq);
      const { rows } = await this.db.query<{ have: boolean; type: string | null; owner: string | null }>(
        `SELECT to_regclass($1) IS NOT NULL AS have,
                (SELECT format_type(s.seqtypid, NULL) FROM pg_sequence s WHERE s.seqrelid = to_regclass($2)) AS type,
                (SELECT a.attname FROM pg_depend d JOIN pg_attribute a ON a.attrelid = d.refobjid AND a.attnum = d.refobjsubid
                 WHERE d.objid = to_regclass($1) AND d.classid = 'pg_class'::regclass AND d.deptype = 'a'
                   AND d.refobjid = to_regclass($3)) AS owner`,
        [name, qualified(this.from, seq), this.q(table)],
      );
      if (!own && !rows[0].have) await this.exec(`CREATE SEQUENCE ${name} AS ${rows[0].type ?? 'bigint'}`, `${name}: created`);
      if (own && rows[0].owner !== c.name) {
        await this.exec(`ALTER SEQUENCE ${name} OWNED BY ${this.q(table)}.${ident(c.name)}`, `${name}: owned by ${table}.${c.name}`);
        await this.db.query(`SELECT setval($1, max(${ident(c.name)})) FROM ${this.q(table)} HAVING max(${ident(c.name)}) IS NOT NULL`, [
          name,
        ]);
      }
    }
  }

  private async addColumn(table: string, c: ColumnShape) {
    await this.sequences(table, c, false);
    await this.exec(`ALTER TABLE ${this.q(table)} ADD COLUMN ${this.columnSql(c)}`, `${this.q(table)}: column ${c.name} added`);
    await this.sequences(table, c, true);
    await this.reload(table);
  }

  private async dropColumn(table: string, name: string) {
    await this.exec(`ALTER TABLE ${this.q(table)} DROP COLUMN ${ident(name)} CASCADE`, `${this.q(table)}: column ${name} dropped`);
  }

  private async columns(table: string, live: TableShape, copy: TableShape) {
    const alter = `ALTER TABLE ${this.q(table)} ALTER COLUMN`;
    for (const have of copy.columns) if (!live.columns.some((c) => c.name === have.name)) await this.dropColumn(table, have.name);
    for (const c of live.columns) {
      const have = copy.columns.find((h) => h.name === c.name);
      const def = c.generated || c.identity ? null : defaultIn(c.default, this.to);
      if (!have) {
        await this.addColumn(table, c);
        continue;
      }
      const col = `${alter} ${ident(c.name)}`;
      if (have.identity !== c.identity || have.generated !== c.generated || (c.generated && have.default !== c.default)) {
        await this.dropColumn(table, c.name);
        await this.addColumn(table, c);
        continue;
      }
      if (have.type !== c.type) {
        if (have.default !== null && !c.generated && !c.identity)
          await this.exec(`${col} DROP DEFAULT`, `${this.q(table)}.${c.name}: default dropped`);
        have.default = null;
        try {
          await this.exec(`${col} TYPE ${c.type} USING ${ident(c.name)}::${c.type}`, `${this.q(table)}.${c.name}: type ${c.type}`);
        } catch {
          // No cast from the old type: the column starts again (the sample's rows are reloaded).
          await this.dropColumn(table, c.name);
          await this.addColumn(table, c);
          continue;
        }
        await this.reload(table);
      }
      if (!c.generated && !c.identity && have.default !== def) {
        await this.sequences(table, c, false);
        await this.exec(
          def === null ? `${col} DROP DEFAULT` : `${col} SET DEFAULT ${def}`,
          `${this.q(table)}.${c.name}: default ${def ?? 'dropped'}`,
        );
        await this.sequences(table, c, true);
      }
      if (have.notNull !== c.notNull) {
        await this.exec(
          `${col} ${c.notNull ? 'SET' : 'DROP'} NOT NULL`,
          `${this.q(table)}.${c.name}: ${c.notNull ? 'not null' : 'nullable'}`,
        );
      }
    }
  }

  private async checks(table: string, live: TableShape, copy: TableShape) {
    const same = (a: { name: string; def: string }, b: { name: string; def: string }) => a.name === b.name && a.def === b.def;
    for (const have of copy.checks) {
      if (live.checks.some((c) => same(c, have))) continue;
      await this.exec(`ALTER TABLE ${this.q(table)} DROP CONSTRAINT ${ident(have.name)}`, `${this.q(table)}: check ${have.name} dropped`);
    }
    for (const c of live.checks) {
      if (copy.checks.some((have) => same(c, have))) continue;
      await this.exec(`ALTER TABLE ${this.q(table)} ADD CONSTRAINT ${ident(c.name)} ${c.def}`, `${this.q(table)}: check ${c.name} added`);
    }
  }

  private async indexes(table: string, live: TableShape, copy: TableShape) {
    const left = [...copy.indexes];
    const missing = [];
    const renames = [];
    for (const index of live.indexes) {
      const at = left.findIndex((have) => have.key === index.key);
      if (at < 0) missing.push(index);
      else if (left[at].name !== index.name) renames.push({ from: left[at].name, to: index.name });
      if (at >= 0) left.splice(at, 1);
    }
    for (const extra of left) {
      await this.exec(
        extra.constraint
          ? `ALTER TABLE ${this.q(table)} DROP CONSTRAINT ${ident(extra.name)}`
          : `DROP INDEX ${qualified(this.to, extra.name)}`,
        `${this.q(table)}: index ${extra.name} dropped`,
      );
    }
    for (const r of renames) {
      const { rows } = await this.db.query<{ taken: boolean }>('SELECT to_regclass($1) IS NOT NULL AS taken', [qualified(this.to, r.to)]);
      if (rows[0].taken) continue;
      await this.exec(
        `ALTER INDEX ${qualified(this.to, r.from)} RENAME TO ${ident(r.to)}`,
        `${this.q(table)}: index ${r.from} renamed ${r.to}`,
      );
    }
    for (const index of missing) {
      await this.exec(
        index.constraint
          ? `ALTER TABLE ${this.q(table)} ADD CONSTRAINT ${ident(index.name)} ${index.body}`
          : `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${ident(index.name)} ON ${this.q(table)} ${index.body}`,
        `${this.q(table)}: index ${index.name} created`,
      );
    }
  }

  private async triggers(table: string, live: TableShape, copy: TableShape) {
    const wanted = live.rowTriggers;
    for (const have of [...copy.rowTriggers, ...copy.otherTriggers]) {
      if (wanted.some((t) => t.name === have.name && t.def === have.def)) continue;
      await this.exec(`DROP TRIGGER ${ident(have.name)} ON ${this.q(table)}`, `${this.q(table)}: trigger ${have.name} dropped`);
    }
    for (const t of wanted) {
      if (copy.rowTriggers.some((have) => have.name === t.name && have.def === t.def)) continue;
      await this.exec(t.def.replace(' ON <table> ', ` ON ${this.q(table)} `), `${this.q(table)}: trigger ${t.name} created`);
    }
  }
}

/**
 * Derives the sample's tables from the live ones (see above), in one transaction on `db`
 * (a client of its own: the search_path is set for the transaction, SET LOCAL). Returns what it changed,
 * nothing when the sample was already derived.
 */
export async function deriveSampleSchema(db: pg.ClientBase, options: DeriveOptions = {}): Promise<string[]> {
  const { tables = DATASET_TABLES, from = 'public', to = 'sample', inTransaction = false } = options;
  await db.query(inTransaction ? 'SAVEPOINT derive' : 'BEGIN');
  try {
    // Definitions print names as this path sees them: the same for both schemas.
    await db.query(`SET LOCAL search_path TO ${[...new Set([ident(from), 'public'])].join(', ')}`);
    await db.query(`CREATE SCHEMA IF NOT EXISTS ${ident(to)}`);
    const derivation = new Derivation(db, from, to, tables);
    for (const table of tables) await derivation.table(table);
    await db.query(inTransaction ? 'RELEASE SAVEPOINT derive' : 'COMMIT');
    return derivation.changes;
  } catch (err) {
    await db.query(inTransaction ? 'ROLLBACK TO SAVEPOINT derive' : 'ROLLBACK').catch(() => {});
    throw err;
  }
}
