/** Suggestions for unknown place names: typing slips and beginnings, accents and case ignored. */
import { describe, expect, it } from 'vitest';
import { CITY_NAMES, NEIGHBORHOODS_BY_CITY } from '../../contract/places.js';
import { closestNames, editDistance } from '../../server/platform/text.js';

describe('closestNames', () => {
  it('finds the city behind a typing slip', () => {
    expect(closestNames('Doula', CITY_NAMES)).toEqual(['Douala']);
    expect(closestNames('yaounde', CITY_NAMES)).toEqual(['Yaoundé']);
    expect(closestNames('NGAOUNDERE', CITY_NAMES)).toEqual(['Ngaoundéré']);
    expect(closestNames('Bameda', CITY_NAMES)).toEqual(['Bamenda']);
    expect(closestNames('Kirbi', CITY_NAMES)).toEqual(['Kribi']);
  });

  it('finds neighbourhoods from their beginning, closest first', () => {
    expect(closestNames('bona', NEIGHBORHOODS_BY_CITY.Douala)).toEqual(['Bonabéri', 'Bonamoussadi', 'Bonanjo']);
    expect(closestNames('Bonaprisso', NEIGHBORHOODS_BY_CITY.Douala)[0]).toBe('Bonapriso');
    expect(closestNames('biyem assi', NEIGHBORHOODS_BY_CITY['Yaoundé'])).toEqual(['Biyem-Assi']);
  });

  it('suggests nothing for a name far from every known one', () => {
    expect(closestNames('Paris', CITY_NAMES)).toEqual([]);
    expect(closestNames('!!!', CITY_NAMES)).toEqual([]);
  });

  it('counts a swap of two neighbours as one edit', () => {
    expect(editDistance('kirbi', 'kribi')).toBe(1);
    expect(editDistance('douala', 'doula')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
