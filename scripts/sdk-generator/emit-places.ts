/**
 * `sdk/src/generated/places.ts`: the cities and neighbourhoods of the contract's places
 * catalogue (`contract/places.ts`), as types. Editors suggest them for the `city` and
 * `neighborhood` parameters; any other spelling still type-checks, since the API matches
 * places without regard to case or accents and also knows places its feeds bring.
 */
import { CITY_NAMES, NEIGHBORHOODS_BY_CITY } from '../../contract/places.js';
import { GENERATED_HEADER } from './emit-types.js';
import { jsDoc } from './jsdoc.js';

const union = (names: readonly string[]) => (names.length ? names.map((n) => JSON.stringify(n)).join(' | ') : 'never');

export function placesSource(
  cities: readonly string[] = CITY_NAMES,
  neighborhoodsByCity: Readonly<Record<string, readonly string[]>> = NEIGHBORHOODS_BY_CITY,
): string {
  const out = [
    GENERATED_HEADER,
    jsDoc(
      'The places Mboa covers, as types: editors suggest them for every `city` and `neighborhood` parameter, while any ' +
        'other spelling still type-checks (the API matches places without regard to case or accents, so `yaounde` finds Yaoundé).',
    ),
    `${jsDoc('A city Mboa covers, spelt as the API returns it.')}export type KnownCity = ${union(cities)};\n`,
    `${jsDoc(
      'A city parameter: one of the known cities (suggested by editors), or any string, such as an accent-free `Yaounde`. ' +
        '`string & {}` keeps the suggestions: a plain `string` in the union would absorb them.',
    )}export type City = KnownCity | (string & {});\n`,
    `${jsDoc('The neighbourhoods Mboa knows in each city it covers, spelt as the API returns them.')}export interface NeighborhoodsByCity {\n${cities
      .map((city) => `  ${JSON.stringify(city)}: ${union(neighborhoodsByCity[city] ?? [])};\n`)
      .join('')}}\n`,
    `${jsDoc('A neighbourhood Mboa knows, in any of its cities.')}export type KnownNeighborhood = NeighborhoodsByCity[KnownCity];\n`,
    `${jsDoc(
      'A neighbourhood parameter: one of the known neighbourhoods (suggested by editors), or any string. ' +
        'Matched like cities; an unknown one is a `ValidationError` suggesting the closest known names.',
    )}export type Neighborhood = KnownNeighborhood | (string & {});\n`,
  ];
  return out.join('\n');
}
