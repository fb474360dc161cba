/**
 * The matching key of a city or neighbourhood: lower case, accents and punctuation folded,
 * so `yaounde`, `Yaoundé` and `YAOUNDÉ` all find the same rows.
 */
export function matchKey(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
