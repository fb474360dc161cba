/**
 * The listing's field table (server/domain/listing/fields.ts) against what stays written by
 * hand: the migrated database (`listings` and `sample.listings`: every column, its type and
 * nullability), prisma/schema.prisma's Listing, the contract's public Listing and the
 * feed record's fields. A field added in one place and not in the table (or the reverse)
 * fails here, naming it.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { ZodObject, ZodRawShape, ZodTypeAny } from 'zod';
import { ZListing } from '../../contract/schemas.js';
import { FEED_FIELDS, LISTING_COLUMNS, LISTING_FIELDS, PUBLIC_NAMES, fieldOf } from '../../server/domain/listing/fields.js';
import { BATCH_COLUMNS, insertListingsFrom } from '../../server/ingest/columns.js';
import { RECORD_FIELDS, ZListingRecord } from '../../server/ingest/record.js';
import { testDatabase } from './helpers.js';

const db = testDatabase();
afterAll(() => db.close());

const sorted = (xs: Iterable<string>) => [...xs].sort();

/** PostgreSQL's name of each type of the table. */
function tableType(dataType: string, udtName: string): string {
  const types: Record<string, string> = {
    text: 'text',
    bigint: 'bigint',
    integer: 'int',
    'double precision': 'float8',
    boolean: 'bool',
    'timestamp with time zone': 'timestamptz',
    bytea: 'bytea',
  };
  return dataType === 'USER-DEFINED' ? udtName : (types[dataType] ?? `${dataType}?`);
}

describe("the listing's field table", () => {
  it.each(['public', 'sample'])('is every column of %s.listings, with its type and nullability', async (schema) => {
    const { rows } = await db.pool.query<{ column_name: string; data_type: string; udt_name: string; is_nullable: string }>(
      `SELECT column_name, data_type, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = $1 AND table_name = 'listings'`,
      [schema],
    );
    expect(sorted(rows.map((r) => r.column_name))).toEqual(sorted(LISTING_COLUMNS));
    for (const r of rows) {
      const field = fieldOf(r.column_name);
      expect({ column: r.column_name, type: tableType(r.data_type, r.udt_name), nullable: r.is_nullable === 'YES' }).toEqual({
        column: r.column_name,
        type: field.type,
        nullable: field.nullable,
      });
    }
  });

  it("is prisma/schema.prisma's Listing, column by column, nullability included", () => {
    const schema = readFileSync(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8');
    const model = /\nmodel Listing \{\n([\s\S]*?)\n\}/.exec(schema)![1];
    const columns = new Map<string, boolean>();
    for (const line of model.split('\n')) {
      const m = /^\s+(\w+)\s+(\w+)(\?|\[\])?(.*)$/.exec(line);
      if (!m || m[3] === '[]' || line.trim().startsWith('//')) continue;
      const mapped = /@map\("(\w+)"\)/.exec(m[4]);
      columns.set(mapped ? mapped[1] : m[1], m[3] === '?');
    }
    expect(sorted(columns.keys())).toEqual(sorted(LISTING_COLUMNS));
    for (const [column, nullable] of columns) expect({ column, nullable }).toEqual({ column, nullable: fieldOf(column).nullable });
  });

  it("names the contract's public Listing, key for key, nullability included", () => {
    const shape = ZListing.shape as Record<string, ZodTypeAny>;
    // Every key but what a search adds to its results (`distance_m`, optional).
    expect(sorted(Object.keys(shape).filter((k) => !shape[k].isOptional()))).toEqual(sorted(PUBLIC_NAMES));
    for (const field of LISTING_FIELDS.filter((f) => f.public !== null && f.public === f.column)) {
      expect({ field: field.public, nullable: shape[field.public!].isNullable() }).toEqual({
        field: field.public,
        nullable: field.nullable,
      });
    }
    // No private column reaches the public Listing under any name.
    for (const field of LISTING_FIELDS.filter((f) => f.role === 'private')) expect(Object.keys(shape)).not.toContain(field.column);
  });

  it("names the feed record's fields, in the order the generator writes them", () => {
    const record = (ZListingRecord as unknown as { _def: { schema: ZodObject<ZodRawShape> } })._def.schema;
    // Every field but NDJSON's `price_history` (rows of the price_history table, not a column).
    expect(sorted(Object.keys(record.shape).filter((k) => k !== 'price_history'))).toEqual(sorted(FEED_FIELDS));
    expect(RECORD_FIELDS).toEqual(FEED_FIELDS);
    expect(RECORD_FIELDS.slice(0, 3)).toEqual(['source_ref', 'title', 'price']);
  });

  it("makes the import's INSERT write every column but the database's own", () => {
    const written = insertListingsFrom('$1')
      .columns.replace(/[()\s]/g, '')
      .split(',');
    const own = LISTING_FIELDS.filter((f) => f.role === 'trigger').map((f) => f.column!);
    expect(sorted([...written, ...own])).toEqual(sorted(LISTING_COLUMNS));
    expect(new Set(BATCH_COLUMNS).size).toBe(BATCH_COLUMNS.length);
  });
});
