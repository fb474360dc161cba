/**
 * Parameters of the Enterprise bulk export (`GET /api/v1/exports/listings`): the search's
 * filters, a currency, and the id to start after (no sort, page size or cursor: an export
 * is every matching listing in `id` order, in one stream). Generated from the contract
 * with the other types; kept here for the modules that import it from this file.
 */
export type { ListingExportParams } from './types.js';
