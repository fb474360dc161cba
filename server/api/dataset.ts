/**
 * Where an API call reads: the live tables (`public`) or the fixed sample that test keys
 * read (`sample`, the same tables in a schema of their own). Query modules name their
 * tables through `table(...)`, so one SQL text serves both; the schema is one of these two
 * words, never input.
 */
import type pg from 'pg';

export type Schema = 'public' | 'sample';
export type TableName = 'listings' | 'price_history' | 'market_stats' | 'market_trends' | 'market_history' | 'places';

export interface Dataset {
  pool: pg.Pool;
  schema: Schema;
}

export function table(dataset: Dataset, name: TableName): string {
  return `${dataset.schema}.${name}`;
}

/** The live data, through a pool. */
export const live = (pool: pg.Pool): Dataset => ({ pool, schema: 'public' });
