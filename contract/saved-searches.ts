/**
 * Saved searches: the filters of `GET /listings` under a name, kept per account. Their
 * matching listings are read by the search's own SQL, so a saved search and the search
 * with the same filters never disagree. Pro and Enterprise (counts per plan in plans.ts).
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { checkGeoParams } from './geo.js';
import { ZDataset } from './dataset.js';
import { ZCollectionMeta, ZSingleMeta } from './meta.js';
import { currencyParam, enumParam, wholeNumberParam } from './params.js';
import { checkListingFilterRanges, LIMIT_DEFAULT, LIMIT_MAX, LISTING_SORTS, ZListingFilters } from './schemas.js';

export const SAVED_SEARCH_ID = /^ss_[a-z2-7]{16}$/;

export const ZSavedSearchParams = z.object({
  id: extendApi(z.string().regex(SAVED_SEARCH_ID, 'is not a saved search id (ss_ followed by 16 characters)'), {
    description: 'Saved search identifier.',
    example: 'ss_k3m6x2q7a4b2c5d6',
  }),
});

/** The filters as a request body gives them: `GET /listings`'s names and values (numbers may be JSON numbers, lists arrays). */
export const ZSavedSearchFiltersInput = extendApi(
  z.preprocess(
    // A list may be a JSON array: the query string's commas, as the search reads them.
    (value) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]))
        : value,
    ZListingFilters.strict().superRefine(checkListingFilterRanges).superRefine(checkGeoParams),
  ),
  {
    description:
      'The filters of `GET /listings` (without `sort`, `limit`, `cursor` or `currency`; prices in XAF). A list may be a JSON array or text with commas.',
  },
);

const name = extendApi(z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'), {
  description: 'A name of your choosing.',
  example: '3-bedroom flats under 250,000 XAF in Bonamoussadi',
});

export const ZSavedSearchCreate = z.object({ name, filters: ZSavedSearchFiltersInput }).strict();

export const ZSavedSearchUpdate = z
  .object({ name: name.optional(), filters: ZSavedSearchFiltersInput.optional() })
  .strict()
  .refine((v) => v.name !== undefined || v.filters !== undefined, { message: 'give name, filters or both' });

export const ZSavedSearch = z.object({
  id: extendApi(z.string(), { description: 'Stable identifier.', example: 'ss_k3m6x2q7a4b2c5d6' }),
  name: extendApi(z.string(), { description: 'Its name.', example: '3-bedroom flats under 250,000 XAF in Bonamoussadi' }),
  filters: extendApi(z.record(z.string()), {
    description:
      'The filters, written as the query string of `GET /listings` carries them (lists joined by commas): the same parameters give the same listings.',
    example: { city: 'Douala', neighborhood: 'Bonamoussadi', type: 'apartment', min_bedrooms: '3', max_price: '250000' },
  }),
  dataset: ZDataset,
  created_at: extendApi(z.string().datetime({ offset: true }), {
    description: 'When it was saved (UTC).',
    example: '2026-11-27T10:00:00.000Z',
  }),
  updated_at: extendApi(z.string().datetime({ offset: true }), { description: 'Last change (UTC).', example: '2026-11-27T10:00:00.000Z' }),
});
export type TSavedSearch = z.infer<typeof ZSavedSearch>;

export const ZSavedSearchResponse = z.object({ data: ZSavedSearch, meta: ZSingleMeta });
export const ZSavedSearchList = z.object({ data: z.array(ZSavedSearch), meta: ZCollectionMeta });
export const ZSavedSearchDeleted = z.object({
  data: z.object({
    id: extendApi(z.string(), { description: 'The saved search deleted.', example: 'ss_k3m6x2q7a4b2c5d6' }),
    deleted: extendApi(z.literal(true), { description: 'Always true.', example: true }),
  }),
  meta: ZSingleMeta,
});

export const ZSavedSearchListingsQuery = z
  .object({
    sort: extendApi(enumParam(LISTING_SORTS), { description: 'As for `GET /listings`.', example: '-listed_at' }).default('-listed_at'),
    limit: wholeNumberParam('Page size.', 50, 1, LIMIT_MAX).default(LIMIT_DEFAULT),
    cursor: extendApi(z.string().min(1).max(2000), { description: '`meta.next_cursor` of the previous page.' }).optional(),
    currency: currencyParam('`price` and `price_per_m2`'),
  })
  .strict();
