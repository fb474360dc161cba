/**
 * Where an API call reads: the live tables (`public`) or the fixed sample that test keys
 * read (`sample`, the same tables in a schema of their own). Query modules name their
 * tables through `table(...)`, so one SQL text serves both; the schema is one of these two
 * words, never input.
 */
import type pg from 'pg';
import type { DATASET_TABLES } from '../../platform/dataset-tables.js';

export type Schema = 'public' | 'sample';
/** A table of a dataset (platform/dataset-tables.ts: its copy in `sample` is derived from `public`). */
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
