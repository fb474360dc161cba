/**
 * The /api/v1 handlers, one module per endpoint. Each builds its body from the contract's
 * shapes; `meta` comes from the chain. Places are checked before anything is read: an
 * unknown city or neighbourhood is a 400 with suggestions (and, being an error, never
 * charged). `defineHandlers` checks that every route of the contract has its handler.
 */
import { contract } from '../../../contract/router.js';
import { defineHandlers } from '../handler.js';
import { type ExportDeps, exportListings } from './export.js';
import { listing } from './listing.js';
import { ping } from './ping.js';
import { type DatasetDeps, readersOf } from './readers.js';
import { search } from './search.js';
import { stats } from './stats.js';
import { trends } from './trends.js';

export type { DatasetDeps } from './readers.js';

export function apiRouter(datasets: { live: DatasetDeps; sample: DatasetDeps }, exports: ExportDeps) {
  const of = readersOf(datasets);
  return defineHandlers(contract, {
    listings: { search: search(of), get: listing(of) },
    market: { stats: stats(of), trends: trends(of) },
    exports: { listings: exportListings(of, exports) },
    ping,
  });
}
