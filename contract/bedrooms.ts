/**
 * Market figures by number of bedrooms: Cameroonian rents are quoted by rooms, and most
 * adverts give no surface. `/market/stats`, `/market/trends` and `/market/history` count
 * bedrooms in the same buckets, 0 to BEDROOMS_TOP, the top one meaning "that many or
 * more"; a listing without a bedroom count is in no bucket, only in the every-count rows.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { enumParam, wholeNumberParam } from './params.js';

/** The top bedrooms bucket: `bedrooms=5` is five bedrooms or more. */
export const BEDROOMS_TOP = 5;

export const MARKET_GROUPINGS = ['bedrooms'] as const;

const BUCKETS = `${BEDROOMS_TOP}: ${BEDROOMS_TOP} or more`;

/** `bedrooms` and `group_by` of `/market/stats` and `/market/trends`. */
export const MARKET_BEDROOMS_PARAMS = {
  bedrooms: wholeNumberParam(
    `Only the figures of listings with this many bedrooms (${BUCKETS}): rows whose \`bedrooms\` is this count. Listings without a bedroom count are in no such row. Every count (and none) together when absent and \`group_by\` is not \`bedrooms\`.`,
    2,
    0,
    BEDROOMS_TOP,
  ).optional(),
  group_by: extendApi(enumParam(MARKET_GROUPINGS), {
    description: `\`bedrooms\`: one row per number of bedrooms (0 to ${BEDROOMS_TOP}, ${BUCKETS}) instead of one for every count, each with its own sample size; listings without a bedroom count are left out. In any case.`,
    example: 'bedrooms',
  }).optional(),
};

/** The `bedrooms` of a stats or trends row. */
export const marketBedroomsField = () =>
  extendApi(z.number().int().min(0).max(BEDROOMS_TOP).nullable(), {
    description: `Bedrooms of the listings this row aggregates (${BUCKETS}), with \`bedrooms\` or \`group_by=bedrooms\`; null when every count is aggregated, listings without one included.`,
    example: null,
  });
