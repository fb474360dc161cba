/**
 * What a Cameroonian advert says beyond price and size: whether the place is furnished, a
 * rent's months of advance and of deposit (6 to 12 months of advance are usual in
 * Yaoundé), and the land title (titre foncier) on which a plot's value hangs. The public
 * Listing's fields and the listing filters on them; schemas.ts spreads both in.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { enumListParam, oneOf, wholeNumberParam } from './params.js';

export const LAND_TITLES = ['titled', 'untitled', 'in_progress', 'unknown'] as const;

/** The standing an advert's words claim (server/domain/listing/standing.ts reads it at import). */
export const STANDINGS = ['high', 'standard', 'basic'] as const;
export type Standing = (typeof STANDINGS)[number];
const STANDING_VALUES =
  '`high` ("haut standing", "luxe", "prestige", "luxury"), `standard` ("moderne", "neuf", "moyen standing", "bon standing", "modern") or `basic` ("simple", "sans commodités", "ordinaire", "basic")';

/** Bounds of the rent terms, in months: beyond them a value is a shifted column. */
export const MAX_ADVANCE_MONTHS = 24;
export const MAX_DEPOSIT_MONTHS = 12;

const LAND_TITLE_VALUES =
  '`titled` (a titre foncier is issued), `untitled` (none: customary land, a deed of sale only), `in_progress` (the procedure is under way) or `unknown` (the advert does not say)';

/** The Listing's fields (same order in the search, the detail and the export). */
export const ADVERT_TERM_FIELDS = {
  furnished: extendApi(z.boolean().nullable(), {
    description:
      'Whether the place comes furnished; null when the advert does not say. Always true for `furnished_rent` (a rent advertised furnished is filed as `furnished_rent`).',
    example: false,
  }),
  advance_months: extendApi(z.number().int().nullable(), {
    description: `Rents: months of rent asked in advance at signing (0 to ${MAX_ADVANCE_MONTHS}; 6 to 12 are usual in Yaoundé). Null when the advert does not say, and for sales.`,
    example: null,
  }),
  deposit_months: extendApi(z.number().int().nullable(), {
    description: `Rents: months of rent asked as a deposit (caution), 0 to ${MAX_DEPOSIT_MONTHS}. Null when the advert does not say, and for sales.`,
    example: null,
  }),
  land_title: extendApi(oneOf(LAND_TITLES).nullable(), {
    description: `Land title (titre foncier): ${LAND_TITLE_VALUES}. A sale is never null (\`unknown\` when not said); a rent carries it only when its advert states it, else null.`,
    example: 'titled',
  }),
  standing: extendApi(oneOf(STANDINGS).nullable(), {
    description: `The standing the advert claims, as the feed states it or as read at import from its title and description: ${STANDING_VALUES}, French or English, whatever the case and accents. Null when neither says (most adverts). The word lists are in the valuations guide.`,
    example: 'high',
  }),
};

/** `true` or `false` in any case; typed clients pass a boolean. */
function booleanParam() {
  const schema = z.preprocess((value, ctx) => {
    if (typeof value === 'boolean') return value;
    const folded = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    if (folded === 'true' || folded === 'false') return folded === 'true';
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: Array.isArray(value) ? 'must be given once' : 'must be true or false' });
    return z.NEVER;
  }, z.boolean());
  return schema as unknown as z.ZodEffects<z.ZodBoolean, boolean, boolean>;
}

/** The listing filters on those fields (the search and the export). */
export const ADVERT_TERM_FILTERS = {
  furnished: extendApi(booleanParam(), {
    description:
      '`true`: furnished listings only (every `furnished_rent`, and sales or rents whose advert says furnished); `false`: unfurnished ones only. Listings whose advert does not say are left out either way. In any case.',
    example: true,
  }).optional(),
  max_advance_months: wholeNumberParam(
    'Rents asking at most this many months of rent in advance. Listings whose advance is unknown (every sale, and rents whose advert does not say) never match.',
    6,
    0,
    MAX_ADVANCE_MONTHS,
  ).optional(),
  land_title: enumListParam(
    LAND_TITLES,
    `Land title (titre foncier): listings with any of those given, ${LAND_TITLE_VALUES}. Rents that do not state one never match.`,
  ).optional(),
  standing: enumListParam(
    STANDINGS,
    `Standing the advert claims: listings with any of those given, ${STANDING_VALUES}. Listings whose advert says none never match.`,
  ).optional(),
};
