/**
 * The column map's row rules one by one (positional columns, splits counted from either
 * end with the city skipped, keyword and pattern rules, defaults, unknown labels, content
 * references), its errors naming the key and the fix, prices and counts in words, and the
 * approximate quarter names, with no database.
 */
import { describe, expect, it } from 'vitest';
import { ColumnMap } from '../../server/ingest/column-map.js';
import { approximateNeighborhood } from '../../server/domain/places/approximate-neighborhood.js';
import { readPrice } from '../../server/ingest/money.js';
import { readRoomCount } from '../../server/ingest/room-counts.js';
import { GAZETTEER } from '../../server/domain/places/gazetteer.js';

/** A file's header as the reader reads it (once per file): fieldOf for each cell. */
const headers = new WeakMap<ColumnMap, Array<string | null | undefined>>();

/** A CSV row as the reader gives it: the header's fields, then apply. */
function row(map: ColumnMap, header: string[], cells: string[]): Record<string, unknown> {
  let fields = headers.get(map);
  if (!fields) headers.set(map, (fields = header.map((h, i) => map.fieldOf(h, i))));
  const value: Record<string, unknown> = {};
  fields.forEach((f, i) => {
    if (f && cells[i] !== '') value[f] = cells[i];
  });
  map.apply(value, false);
  return value;
}

describe('column map rules', () => {
  it('names columns by position, splits one column counted from either end, skips the city', () => {
    const map = new ColumnMap({
      columns: {
        '#1': null,
        '#2': { split: ',', parts: { city: -1, neighborhood: 1 }, skip_city: true },
        Prix: 'price',
      },
    });
    const header = ['', 'Lieu', 'Prix'];
    expect(row(map, header, ['7', 'Douala, Akwa, Douala', '100'])).toEqual({ city: 'Douala', neighborhood: 'Akwa', price: '100' });
    expect(row(map, header, ['8', 'Yaoundé, Bastos, Yaoundé', '100'])).toEqual({ city: 'Yaoundé', neighborhood: 'Bastos', price: '100' });
    expect([...map.provided].sort()).toEqual(['city', 'neighborhood']);
  });

  it('finds values by keyword or pattern in any column, with accents folded, then defaults; drops unknown labels', () => {
    const map = new ColumnMap({
      columns: { Titre: 'title', Chambres: 'bedrooms', Note: null },
      match: {
        type: [{ in: 'Titre', pattern: '^appart', value: 'apartment' }],
        purpose: [{ in: ['Note', 'title'], keywords: ['meublée', 'furnished'], value: 'furnished_rent' }],
      },
      defaults: { purpose: 'rent', type: 'house' },
      values: { bedrooms: { 'Non précisé': null } },
    });
    const header = ['Titre', 'Chambres', 'Note'];
    expect(row(map, header, ['APPARTEMENT à louer', 'N/D', 'MEUBLEE'])).toEqual({
      title: 'APPARTEMENT à louer',
      type: 'apartment',
      purpose: 'furnished_rent',
    });
    expect(row(map, header, ['Grande maison', 'Non précisé', '-'])).toEqual({ title: 'Grande maison', type: 'house', purpose: 'rent' });
  });

  it('writes the same reference for the same content, and numbers identical rows', () => {
    const header = ['Lieu', 'Prix'];
    const refs = (map: ColumnMap) => [
      row(map, header, ['Akwa', '100']).source_ref,
      row(map, header, ['Akwa', '200']).source_ref,
      row(map, header, ['Akwa', '100']).source_ref,
    ];
    const a = refs(new ColumnMap({ columns: { Lieu: 'neighborhood', Prix: 'price' }, reference: { prefix: 'x-' } }));
    expect(a[0]).toMatch(/^x-[0-9a-f]{16}$/);
    expect(a[1]).not.toBe(a[0]);
    expect(a[2]).toBe(`${a[0]}-2`);
    // Another import (a new header) gives the same references.
    expect(refs(new ColumnMap({ columns: { Lieu: 'neighborhood', Prix: 'price' }, reference: { prefix: 'x-' } }))).toEqual(a);
    // From the place alone: a new price keeps the reference.
    const byPlace = new ColumnMap({ columns: { Lieu: 'neighborhood', Prix: 'price' }, reference: { from: ['Lieu'] } });
    expect(row(byPlace, header, ['Bali', '1']).source_ref).toBe(String(row(byPlace, header, ['Bali', '2']).source_ref).replace(/-2$/, ''));
  });

  it.each([
    [
      { columns: { '---': null } },
      'columns."---": a column name needs a letter or digit (write "" for an unnamed column, or "#1" for the first)',
    ],
    [
      { columns: { A: { split: ',', parts: { city: 0 } } } },
      'columns."A".parts."city": 0 is not a part; write its position (1 the first part, -1 the last) or a range such as "1..-3"',
    ],
    [{ columns: { A: { split: '', parts: { city: 1 } } } }, 'columns."A".split: must be the separator between parts'],
    [{ columns: { A: { split: '/', parts: { ville: 1 } } } }, 'columns."A".parts."ville": not a field; the fields are source_ref'],
    [
      { columns: { A: 'city', B: { split: '/', parts: { city: 1 } } } },
      'columns."B".parts."city": "A" already gives city; map one of them to null',
    ],
    [
      { match: { type: [{ in: 'Titre', keywords: ['x'], value: 'apartment' }] } },
      'match."type"[0].in: "Titre" is neither a field nor a column named in "columns"',
    ],
    [{ match: { type: [{ in: 'title', pattern: '(', value: 'apartment' }] } }, 'match."type"[0].pattern: not a regular expression'],
    [
      { match: { type: [{ in: 'title', keywords: ['x'], pattern: 'x', value: 'flat' }] } },
      'match."type"[0]: give either "pattern" (a regular expression) or "keywords"',
    ],
    [{ match: { type: [{ in: 'title', keywords: ['x'], value: 'flat' }] } }, 'match."type"[0].value: "flat" is not one of'],
    [{ defaults: { purpose: 'louer' } }, 'defaults."purpose": "louer" is not one of sale, rent'],
    [
      { constants: { city: 'Douala' }, defaults: { city: 'Douala' } },
      'defaults."city": "constants" already gives city to every row; keep one',
    ],
    [{ unknown: 'NA' }, '"unknown" must be a list of the labels that mean no value'],
    [{ reference: { prefix: 1 } }, 'reference.prefix: must be a string'],
  ])('refuses %j naming the key and the fix', (json, message) => {
    expect(() => new ColumnMap(json)).toThrow(message);
  });
});

describe('numbers with words and units', () => {
  it.each([
    ['> 130 000 FCFA', 130_000],
    ['CFA  500,000', 500_000],
    ['150k', 150_000],
    ['1,2 million', 1_200_000],
    ['130 000 FCFA', 130_000],
  ])('reads the price %s', (text, xaf) => {
    expect(readPrice(text)).toEqual({ kind: 'amount', xaf });
  });
  it('reads counts after a bullet', () => {
    expect(readRoomCount('bedrooms', '> 2 bedrooms')).toEqual({ ok: true, value: 2 });
    expect(readRoomCount('bathrooms', '> 1 bathroom')).toEqual({ ok: true, value: 1 });
  });
});

describe('names as advertisers write them', () => {
  const douala = GAZETTEER.get('douala')!;
  const yaounde = GAZETTEER.get('yaounde')!;
  const match = (city = douala, raw: string) => {
    const m = approximateNeighborhood(city, raw);
    return m && [m.neighborhood.name, m.how];
  };
  it('tries every part, strips landmark words, and forgives one slip', () => {
    expect(match(douala, 'Rue 1.234, Makepe')).toEqual(['Makepe', 'part "Makepe"']);
    expect(match(douala, 'Carrefour Bépanda')).toEqual(['Bépanda', 'landmark words around "Bépanda"']);
    expect(match(douala, 'En face de la pharmacie, Derrière Logpom')).toEqual(['Logpom', 'landmark words around "Logpom"']);
    expect(match(douala, 'Makepe garage Tsekenis')).toEqual(['Makepe', 'landmark words around "Makepe"']);
    expect(match(douala, 'Manbanda')).toEqual(['Mabanda', 'spelling of "Mambanda" (Mabanda)']);
    expect(match(douala, 'Bepand')).toEqual(['Bépanda', 'spelling of "Bépanda"']);
    expect(match(douala, 'Bonamousadi')).toEqual(['Bonamoussadi', 'spelling of "Bonamoussadi"']);
    expect(match(yaounde, 'Nkolbissom')).toEqual(['Nkolbisson', 'spelling of "Nkolbisson"']);
  });
  it('never guesses between quarters nor matches short names loosely', () => {
    expect(match(yaounde, 'Elig')).toBeNull(); // four Elig- quarters
    expect(match(douala, 'Kondo')).toBeNull(); // two slips from Kotto, one from Congo: too short
    expect(match(douala, 'Cite Ubo Palmiers')).toBeNull();
    expect(match(douala, 'Akwa, Bonapriso')).toBeNull(); // two quarters named
    expect(match(douala, 'Zzyzx Nowhere')).toBeNull();
  });
  it('leaves a name an operator refused', () => {
    const refused = new Map([['douala', new Map([['carrefourbepanda', '']])]]);
    expect(approximateNeighborhood(douala, 'Carrefour Bépanda', refused)).toBeNull();
  });
});
