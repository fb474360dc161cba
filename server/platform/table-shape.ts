/**
 * What a table is made of, read from PostgreSQL's catalog in a form that compares across
 * schemas: its columns, its indexes (constraint-backed ones included), its CHECK
 * constraints and its triggers, each definition with the table's own schema-qualified name
 * taken out. The sample's derivation (sample-schema.ts) compares a live table with its
 * sample copy through these.
 */
import type pg from 'pg';

type Queryable = Pick<pg.ClientBase, 'query'>;

export interface ColumnShape {
  name: string;
  /** format_type: `bigint`, `text`, `"LandTitle"`, `timestamp(3) with time zone`... */
  type: string;
  notNull: boolean;
  /** The default's expression (the generation expression of a generated column), or null. */
  default: string | null;
  /** pg_attribute.attidentity: '' (none), 'a' (always), 'd' (by default). */
  identity: string;
  /** pg_attribute.attgenerated: '' or 's' (stored). */
  generated: string;
}

export interface IndexShape {
  name: string;
  /** `p`, `u` or `x` when the index backs a constraint (its definition then is the constraint's). */
  constraint: string | null;
  unique: boolean;
  /** The definition without its name and table: `UNIQUE INDEX USING btree (source, source_ref)`. */
  key: string;
  /** What follows the table in CREATE INDEX (`USING btree (...) ...`), or the constraint's definition. */
  body: string;
}

export interface NamedDefinition {
  name: string;
  /** The definition with the table's qualified name replaced by `<table>`. */
  def: string;
}

export interface TableShape {
  /** pg_class.relkind: 'r' (table), 'p' (partitioned table). */
  kind: string;
  columns: ColumnShape[];
  indexes: IndexShape[];
  checks: NamedDefinition[];
  /** BEFORE ... FOR EACH ROW triggers: they shape the row being written. */
  rowTriggers: NamedDefinition[];
  /** Every other trigger (AFTER, statement-level): they act elsewhere. */
  otherTriggers: NamedDefinition[];
}

/** A name as PostgreSQL prints it in a definition. */
export function ident(name: string): string {
  return /^[a-z_][a-z0-9_$]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

export function qualified(schema: string, table: string): string {
  return `${ident(schema)}.${ident(table)}`;
}

const INDEX_DEF = /^CREATE (UNIQUE )?INDEX \S+ ON (?:ONLY )?(\S+) (.*)$/s;

/** The shape of `schema.table`, or null when there is no such table. */
export async function readTableShape(db: Queryable, schema: string, table: string): Promise<TableShape | null> {
  const name = qualified(schema, table);
  const { rows: rel } = await db.query<{ oid: number; kind: string }>(
    `SELECT c.oid::int AS oid, c.relkind::text AS kind FROM pg_class c
     WHERE c.relnamespace = to_regnamespace($1) AND c.relname = $2 AND c.relkind IN ('r', 'p')`,
    [schema, table],
  );
  if (rel.length === 0) return null;
  const oid = rel[0].oid;
  const columns = await db.query<ColumnShape>(
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull AS "notNull",
            pg_get_expr(d.adbin, d.adrelid) AS default, a.attidentity::text AS identity, a.attgenerated::text AS generated
     FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    [oid],
  );
  const indexes = await db.query<{ name: string; def: string; constraint: string | null; constraint_def: string | null }>(
    `SELECT i.relname AS name, pg_get_indexdef(x.indexrelid) AS def, c.contype::text AS constraint,
            pg_get_constraintdef(c.oid) AS constraint_def
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.conrelid = x.indrelid AND c.contype IN ('p', 'u', 'x')
     WHERE x.indrelid = $1 ORDER BY i.relname`,
    [oid],
  );
  const checks = await db.query<NamedDefinition>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE conrelid = $1 AND contype = 'c' ORDER BY conname`,
    [oid],
  );
  const triggers = await db.query<NamedDefinition & { before_row: boolean }>(
    `SELECT tgname AS name, pg_get_triggerdef(oid) AS def, (tgtype & 3) = 3 AS before_row FROM pg_trigger
     WHERE tgrelid = $1 AND NOT tgisinternal ORDER BY tgname`,
    [oid],
  );
  const trigger = (t: NamedDefinition) => ({ name: t.name, def: t.def.replace(` ON ${name} `, ' ON <table> ') });
  return {
    kind: rel[0].kind,
    columns: columns.rows,
    indexes: indexes.rows.map((i) => {
      const m = INDEX_DEF.exec(i.def);
      if (!m) throw new Error(`unexpected index definition: ${i.def}`);
      const body = i.constraint ? i.constraint_def! : m[3];
      return {
        name: i.name,
        constraint: i.constraint,
        unique: Boolean(m[1]),
        key: `${i.constraint ? `[${i.constraint}] ` : ''}${m[1] ?? ''}INDEX ${body}`,
        body,
      };
    }),
    checks: checks.rows,
    rowTriggers: triggers.rows.filter((t) => t.before_row).map(trigger),
    otherTriggers: triggers.rows.filter((t) => !t.before_row).map(trigger),
  };
}

const NEXTVAL = /nextval\('((?:[^']|'')+)'::regclass\)/g;

/** A sequence's name as nextval's argument writes it, without its schema or quotes. */
function bareSequence(written: string): string {
  return written.replace(/^(?:"(?:[^"]|"")*"|[^."]+)\./, '').replace(/^"(.*)"$/, '$1');
}

/**
 * A default with every sequence it draws from moved to `schema` (a sequence of the same
 * name there): a copy must not draw its ids from the live table's sequence.
 */
export function defaultIn(expression: string | null, schema: string): string | null {
  return expression?.replace(NEXTVAL, (_all, seq: string) => `nextval('${qualified(schema, bareSequence(seq))}'::regclass)`) ?? null;
}

/** The sequences a default draws from (their names without schema). */
export function sequencesOf(expression: string | null): string[] {
  return expression ? [...expression.matchAll(NEXTVAL)].map((m) => bareSequence(m[1])) : [];
}
