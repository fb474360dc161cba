/**
 * What a call reads, chosen by its key: the live data or, for test keys, the fixed public
 * sample, with the same SQL. Places are checked against the same dataset, and cacheable
 * answers go through its cache. The API's front handler picks one per call and hands it
 * to the route's handler, through the pool of the call's kind (api/costs.ts: a heavy read
 * reads through the heavy pool, the same dataset and cache).
 */
import type pg from 'pg';
import type { DataCache } from '../platform/data-cache.js';
import type { Dataset } from '../domain/listing/dataset.js';
import type { CursorCodec } from './listings/cursor.js';
import { KnownPlaces } from './places/known-places.js';
import type { ModelStore } from '../domain/valuations/model-store.js';

/** A dataset and what reads it: one for the live data, one for the sample. */
export interface DatasetDeps {
  data: Dataset;
  cursors: CursorCodec;
  /** Exact totals and market answers until the data changes (absent: read every time). */
  cache?: DataCache<unknown>;
  /** The dataset's valuation model, fitted in the background. */
  valuations: ModelStore;
}

export interface Reader extends DatasetDeps {
  places: KnownPlaces;
  /** The answer for `key` from the dataset's cache, or `load()` when it has none. */
  cached<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Whether the dataset's cache holds the answer for `key` now. */
  has(key: string): boolean;
  /** The same dataset, places, cache and model, read through another pool. */
  through(pool: pg.Pool): Reader;
}

/** Built once per dataset when the server starts. */
export function readerOf(d: DatasetDeps, known?: KnownPlaces): Reader {
  const cached = <T>(key: string, load: () => Promise<T>): Promise<T> => (d.cache ? (d.cache.get(key, load) as Promise<T>) : load());
  const places = known ?? new KnownPlaces(d.data, cached);
  return {
    ...d,
    places,
    cached,
    has: (key) => d.cache?.has(key) ?? false,
    through: (pool) => readerOf({ ...d, data: { ...d.data, pool } }, places),
  };
}
