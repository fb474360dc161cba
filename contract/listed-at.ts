/**
 * What a listing's `listed_at` is: the advert's publication date, or, when its source gave
 * none and its import named none (`admin import --listed-at`), the day Mboa first saw it.
 * schemas.ts spreads the field into the Listing, after `listed_at`.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/** `listed_at_precision`: a date from the source (or a backfill's), or unknown (first seen by Mboa). */
const LISTED_AT_PRECISIONS = ['day', 'unknown'] as const;

export const LISTED_AT_FIELDS = {
  listed_at_precision: extendApi(z.enum(LISTED_AT_PRECISIONS), {
    description:
      "What `listed_at` is: `day`, the advert's publication date, as its source gave it or as the import of an old adverts' backfill named it (right at least to the day); `unknown`, the source gave no date, and `listed_at` is when Mboa first saw the advert (it was published then or earlier). An undated listing counts in `/market/stats` and valuations, in `/market/history`'s active listings from the month Mboa first saw it, never as a new listing, and not in `/market/trends`.",
    example: 'day',
  }),
};
