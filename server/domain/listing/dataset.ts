/**
 * Where an API call reads: the live tables (`public`) or the fixed sample that test keys
 * read (`sample`, the same tables in a schema of their own). Query modules name their
 * tables through `table(...)`, so one SQL text serves both; the schema is one of these two
 * words, never input.
 */
import type pg from 'pg';

export type Schema = 'public' | 'sample';
/**
 * Every table of a dataset: the live ones in `public`, their copies in `sample`. A
 * migration that changes one changes both; test/api/test-keys.test.ts holds their columns
 * and indexes equal, table by table, from this list.
 */
export const DATASET_TABLES = [
  'listings',
  'price_history',
  'market_stats',
  'market_trends',
  'market_history',
  'market_history_dirty',
  'places',
] as const;
export type TableName = (typeof DATASET_TABLES)[number];

export interface Dataset {
  pool: pg.Pool;
  schema: Schema;
}

export function table(dataset: Dataset, name: TableName): string {
  return `${dataset.schema}.${name}`;
}

/** The live data, through a pool. */
export const live = (pool: pg.Pool): Dataset => ({ pool, schema: 'public' });
