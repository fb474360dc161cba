/**
 * The tables of a dataset: the live ones in `public`, their copies in `sample` (the fixed
 * public sample that test keys read). The API's dataset switch names them (domain/listing/dataset.ts);
 * the sample's copies are derived from the live tables after every migration run
 * (platform/sample-schema.ts), so a migration changes `public` only; the sample's loader
 * empties and fills them (generate/sample-data.ts); test/api/test-keys.test.ts holds their
 * columns, indexes, checks and row triggers equal, table by table, from this list.
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
