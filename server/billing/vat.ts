/**
 * Cameroon's VAT on services: 19.25 % (17.5 % VAT and the 10 % additional council tax on
 * it). Amounts are whole francs: VAT is rounded half up on the invoice's total before tax.
 */
export const VAT_RATE_BASIS_POINTS = 1925;

/** VAT on an amount before tax, in whole francs, rounded half up. */
export function vatOn(amountXaf: number, basisPoints = VAT_RATE_BASIS_POINTS): number {
  return Math.floor((2 * amountXaf * basisPoints + 10_000) / 20_000);
}

/** `19.25` (for labels: each language writes its own separator). */
export function ratePercent(basisPoints = VAT_RATE_BASIS_POINTS): number {
  return basisPoints / 100;
}
