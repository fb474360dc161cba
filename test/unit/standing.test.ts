/**
 * The standing read from an advert's words (server/domain/listing/standing.ts): each list
 * in French and English, whatever the case and accents, whole words only, the longest
 * phrase first ("bas standing" is not "standing"), the highest level when several, and
 * null when the words say nothing of it.
 */
import { describe, expect, it } from 'vitest';
import { STANDINGS } from '../../contract/advert-terms.js';
import { readStanding, STANDING_WORDS } from '../../server/domain/listing/standing.js';

describe('readStanding', () => {
  it.each([
    ['Appartement haut standing 3 chambres à louer à Bonapriso', 'high'],
    ['APPARTEMENT TRÈS HAUT STANDING À BASTOS', 'high'],
    ['Villa de luxe avec piscine', 'high'],
    ['Duplex luxueux, quartier prestigieux', 'high'],
    ['Appartement standing à Bonamoussadi', 'high'],
    ['Luxury 3-bedroom apartment for rent in Molyko', 'high'],
    ['High-standing flat, Buea Town', 'high'],
    ['Studio moderne à louer à Makepe', 'standard'],
    ['Appartement neuf 2 chambres', 'standard'],
    ['Appartement bon standing à Logpom', 'standard'],
    ['Appartement moyen standing', 'standard'],
    ['Maison récente, jamais habitée', 'standard'],
    ['Brand new 2-bedroom apartment', 'standard'],
    ['Modern studio for rent in Bonduma', 'standard'],
    ['Chambre simple à louer à Mendong', 'basic'],
    ['Studio sans commodités', 'basic'],
    ['Studio SANS COMMODITE à Obili', 'basic'],
    ['Maison ordinaire à vendre', 'basic'],
    ['Appartement bas standing à Nkolbisson', 'basic'],
    ['Basic room for rent in Mile 17', 'basic'],
    ['Appartement économique', 'basic'],
  ])('%s → %s', (title, level) => {
    expect(readStanding(title)).toBe(level);
  });

  it('is null when the words say nothing of the standing, or only look like it', () => {
    for (const title of [
      'Appartement 2 chambres à louer à Akwa',
      '2 bedrooms apartment to rent',
      'Studio à New Bell',
      'Terrain titré de 500 m² à vendre',
      'Appartement à Simplex', // a word that starts with "simple" is not "simple"
      'Villa Standingville', // nor one that starts with "standing"
      '',
    ]) {
      expect(readStanding(title), title).toBeNull();
    }
    expect(readStanding(null, undefined)).toBeNull();
  });

  it('reads the description when the title says nothing, and takes the highest level named', () => {
    expect(readStanding('Appartement 3 chambres à Kotto', 'Immeuble neuf, finitions modernes')).toBe('standard');
    expect(readStanding('Studio simple et moderne')).toBe('standard');
    expect(readStanding('Chambre simple', 'Dans une résidence de haut standing')).toBe('high');
    expect(readStanding('Appartement bas standing', null)).toBe('basic');
  });

  it('gives every phrase of every list its own level', () => {
    for (const level of STANDINGS) {
      for (const phrase of STANDING_WORDS[level]) expect(readStanding(`Maison ${phrase} à Akwa`), phrase).toBe(level);
    }
  });
});
