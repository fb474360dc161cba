/**
 * The cities Mboa covers, as a type: editors suggest them for every `city` parameter,
 * while any other spelling still type-checks (the API matches cities without regard to
 * case or accents, so `yaounde` finds Yaoundé).
 */

/** A city Mboa covers, spelt as the API returns it. */
export type KnownCity =
  'Douala' | 'Yaoundé' | 'Bafoussam' | 'Garoua' | 'Bamenda' | 'Buea' | 'Limbe' | 'Kribi' | 'Maroua' | 'Ngaoundéré' | 'Bertoua' | 'Ebolowa';

/**
 * A city parameter: one of the known cities (suggested by editors), or any string, such
 * as an accent-free `Yaounde`. `string & {}` keeps the suggestions: a plain `string` in
 * the union would absorb them.
 */
export type City = KnownCity | (string & {});
