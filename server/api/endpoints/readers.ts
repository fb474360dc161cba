/**
 * What every endpoint reads through. Each call reads its dataset, the live data or, for
 * test keys, the fixed public sample, with the same SQL; places are checked against the
 * same dataset, and cacheable answers go through its cache.
 */
import type { Dataset } from '../dataset.js';
import type { DataCache } from '../../platform/data-cache.js';
import type { RequestContext } from '../context.js';
import type { CursorCodec } from '../listings/cursor.js';
import { KnownPlaces } from '../places/known-places.js';

/** What a handler reads through: one per dataset. */
export interface DatasetDeps {
  data: Dataset;
  cursors: CursorCodec;
  /** Exact totals and market answers until the data changes (absent: read every time). */
  cache?: DataCache<unknown>;
}

export interface Reader extends DatasetDeps {
  places: KnownPlaces;
  /** The answer for `key` from the dataset's cache, or `load()` when it has none. */
  cached<T>(key: string, load: () => Promise<T>): Promise<T>;
}

export type Readers = (ctx: RequestContext) => Reader;

export function readersOf(datasets: { live: DatasetDeps; sample: DatasetDeps }): Readers {
  const reader = (d: DatasetDeps): Reader => ({
    ...d,
    places: new KnownPlaces(d.data),
    cached: <T>(key: string, load: () => Promise<T>): Promise<T> => (d.cache ? (d.cache.get(key, load) as Promise<T>) : load()),
  });
  const readers = { live: reader(datasets.live), sample: reader(datasets.sample) };
  return (ctx) => readers[ctx.dataset ?? 'live'];
}

/** The part of `meta` every answer carries: the caller's quota and the request id. */
export function callMeta(ctx: RequestContext) {
  return { quota: ctx.quota!, request_id: ctx.requestId };
}
