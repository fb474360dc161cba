/**
 * `group_by` of `/market/stats`: by number of bedrooms (as `/market/trends`), or by
 * neighbourhood, every quarter of a city in one answer, each row the figures a call
 * with that quarter's `neighborhood` returns.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { BEDROOMS_TOP } from './bedrooms.js';
import { enumParam } from './params.js';

export const STATS_GROUPINGS = ['bedrooms', 'neighborhood'] as const;

export const statsGroupByParam = () =>
  extendApi(enumParam(STATS_GROUPINGS), {
    description: [
      `\`bedrooms\`: one row per number of bedrooms (0 to ${BEDROOMS_TOP}, ${BEDROOMS_TOP}: ${BEDROOMS_TOP} or more) instead of one for every count, each with its own sample size; listings without a bedroom count are left out.`,
      '`neighborhood`: one row per neighbourhood (of `city` when given) instead of one per city, each the same figures as a call with that `neighborhood`; a neighbourhood without active listings has no row. Not with `neighborhood`.',
      'One call, charged as one, in any case.',
    ].join(' '),
    example: 'neighborhood',
  }).optional();

/** `group_by=neighborhood` lists the neighbourhoods: naming one as well is a contradiction, refused. */
export function checkStatsGrouping(q: { neighborhood?: string; group_by?: string }, ctx: z.RefinementCtx): void {
  if (q.group_by === 'neighborhood' && q.neighborhood !== undefined) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message:
        'group_by=neighborhood gives one row per neighbourhood: leave out `neighborhood`, or leave out `group_by` for one neighbourhood',
      path: ['group_by'],
    });
  }
}
