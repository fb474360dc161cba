/**
 * What a Cameroonian advert says beyond price and size: whether the place is furnished, a
 * rent's months of advance and of deposit (6 to 12 months of advance are usual in
 * Yaoundé), and the land title (titre foncier) on which a plot's value hangs.
 */

export const LAND_TITLES = ['titled', 'untitled', 'in_progress', 'unknown'] as const;

/** Bounds of the rent terms, in months: beyond them a value is a shifted column. */
export const MAX_ADVANCE_MONTHS = 24;
export const MAX_DEPOSIT_MONTHS = 12;
