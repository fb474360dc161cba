/**
 * Parameters of the Enterprise bulk export (`GET /api/v1/exports/listings`): the search's
 * filters, a currency, and the id to start after. No sort, page size or cursor: an
 * export is every matching listing in `id` order, in one stream.
 */
import type { ListingSearchParams } from './types.js';

/**
 * Filters of `exports.listings`: those of `listings.search` (city and neighbourhood
 * matched without regard to case or accents; `status` `active` by default, `any` for
 * removed listings too), plus `currency` and `after`.
 */
export interface ListingExportParams extends Omit<ListingSearchParams, 'sort' | 'limit' | 'cursor'> {
  /** Currency of the amounts: `XAF` (default) or `EUR` (converted at 655.957 XAF = 1 EUR). */
  currency?: 'XAF' | 'EUR' | undefined;
  /**
   * A listing id: only listings with a greater id are sent. To continue an export in a
   * later run, pass the `id` of the last listing you stored (or `export.lastId`). Within
   * one run the client resumes by itself.
   */
  after?: string | undefined;
}
