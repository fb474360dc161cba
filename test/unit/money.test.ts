/** Partner text to Mboa values: prices to whole XAF, counts and surfaces, encodings, column maps. */
import { describe, expect, it } from 'vitest';
import { ColumnMap, ColumnMapError } from '../../server/ingest/column-map.js';
import { FeedDecoder } from '../../server/ingest/encoding.js';
import { readPrice } from '../../server/ingest/money.js';
import { readRoomCount, readSurface } from '../../server/ingest/room-counts.js';

describe('readPrice', () => {
  it.each([
    ['130 000 FCFA', 130_000],
    ['130.000 F CFA', 130_000],
    ['CFA 500,000', 500_000],
    ['1,2 million', 1_200_000],
    ['1.5M', 1_500_000],
    ['25 000 000 FCFA', 25_000_000],
    ['150 000 FCFA/mois', 150_000],
    ['150 000 FCFA par mois', 150_000],
    ['130\u202f000\u00a0FCFA', 130_000],
    ['Loyer : 75 000 F', 75_000],
    ['1 200 000 Frs', 1_200_000],
    ['130 000,00', 130_000],
    ['1.234.567,00 XAF', 1_234_567],
    ['2 milliards', 2_000_000_000],
    ['150k', 150_000],
    ['130 000 FCFA à débattre', 130_000],
  ])('%j is %d XAF', (text, xaf) => {
    expect(readPrice(text)).toEqual({ kind: 'amount', xaf });
  });

  it.each(['Prix : Contactez le vendeur', 'Prix sur demande', 'à débattre', 'Contactez-nous au 699 00 11 22', 'Price on request'])(
    '%j is a price on request',
    (text) => {
      expect(readPrice(text)).toEqual({ kind: 'on_request' });
    },
  );

  it.each([
    ['500 €', 'is in euros: only XAF (FCFA) is accepted'],
    ['$1,000', 'is in dollars: only XAF (FCFA) is accepted'],
    ['1,2', 'has a decimal part: XAF has no minor unit (write 130 000, or 1,5 million)'],
    ['100 000 - 150 000', 'is a range of prices: give one price'],
    ['25 000 FCFA/jour', 'is a price per day (rent prices are per month)'],
    ['15 000/m²', 'is a price per m² (give the whole price)'],
    ['1,2345678 million', 'is not a whole number of XAF'],
    ['12 abc', 'is not an amount in XAF (e.g. 130 000 FCFA)'],
    ['1,23,4', 'is not a number we can read unambiguously (write 130 000, or 1,5 million)'],
  ])('%j is refused: %s', (text, reason) => {
    expect(readPrice(text)).toEqual({ kind: 'refused', reason });
  });

  it('never quotes the cell in its reason', () => {
    const got = readPrice('699 00 11 22 €');
    expect(got.kind === 'refused' && got.reason).not.toMatch(/699/);
  });
});

describe('readRoomCount and readSurface', () => {
  it.each([
    ['bedrooms', '3 Chambres', 3],
    ['bedrooms', '2 ch', 2],
    ['bedrooms', 'deux chambres', 2],
    ['bedrooms', 'Studio', 0],
    ['bedrooms', '4 chambres à coucher', 4],
    ['bathrooms', '2 Salles de bain', 2],
    ['bathrooms', '1 douche', 1],
    ['bathrooms', "1 salle d'eau", 1],
    ['bathrooms', '3 SDB', 3],
  ] as const)('%s %j is %d', (field, text, n) => {
    expect(readRoomCount(field, text)).toEqual({ ok: true, value: n });
  });

  it.each([
    ['bedrooms', '2 Salles de bain', 'names bathrooms, not bedrooms (a shifted column?)'],
    ['bedrooms', '3 pièces', 'counts rooms (pièces), not bedrooms'],
    ['bathrooms', '2,5 salles de bain', 'must be a whole number'],
    ['bathrooms', 'beaucoup', 'must be a number of bathrooms (e.g. 2 salles de bain)'],
  ] as const)('%s %j is refused: %s', (field, text, reason) => {
    expect(readRoomCount(field, text)).toEqual({ ok: false, reason });
  });

  it.each([
    ['120 m²', 120],
    ['85,5 m2', 85.5],
    ['1 200 m²', 1200],
    ['1.200 m2', 1200],
    ['1,5 ha', 15_000],
  ])('surface %j is %d m²', (text, m2) => {
    expect(readSurface(text)).toEqual({ ok: true, value: m2 });
  });
});

describe('FeedDecoder', () => {
  const decode = (chunks: Buffer[], encoding?: 'auto' | 'utf-8' | 'windows-1252') => {
    const d = new FeedDecoder(encoding);
    const text = chunks.map((c) => d.write(c)).join('') + d.end();
    return { text, encoding: d.encoding };
  };

  it('reads Windows-1252 bytes as such, detected after a megabyte of ASCII too', () => {
    const latin = Buffer.from('Yaoundé, Deïdo, 130 000 €', 'latin1');
    latin[latin.length - 1] = 0x80; // € in Windows-1252
    expect(decode([latin])).toEqual({ text: 'Yaoundé, Deïdo, 130 000 €', encoding: 'windows-1252' });
    const ascii = Buffer.alloc(1 << 20, 'a');
    expect(decode([ascii, latin]).text.endsWith('Yaoundé, Deïdo, 130 000 €')).toBe(true);
  });

  it('reads UTF-8, a sequence cut between chunks included, and drops its byte order mark', () => {
    const utf8 = Buffer.from('\ufeffabc Yaoundé', 'utf8');
    for (let cut = 0; cut <= utf8.length; cut++) {
      expect(decode([utf8.subarray(0, cut), utf8.subarray(cut)])).toEqual({ text: 'abc Yaoundé', encoding: 'utf-8' });
    }
  });

  it('follows the encoding given', () => {
    expect(decode([Buffer.from('Yaoundé', 'utf8')], 'windows-1252').text).toBe('YaoundÃ©');
    expect(decode([Buffer.from('Yaoundé', 'latin1')], 'utf-8').text).toBe('Yaound\ufffd');
  });
});

describe('ColumnMap', () => {
  it.each([
    [[], 'must be a JSON object'],
    [{ colonnes: {} }, 'unknown key "colonnes": the keys are columns, values, match, constants, defaults, unknown, reference, description'],
    [{ columns: { Prix: 'prix' } }, 'columns."Prix": "prix" is not a field; the fields are source_ref, title, price'],
    [{ columns: { Prix: 'price', Montant: 'price' } }, 'columns."Montant": "Prix" already gives price'],
    [{ columns: { Prix: 'price', PRIX: 'title' } }, 'columns."PRIX": the same column as another name'],
    [{ values: { type: { Appartement: 'appart' } } }, 'values."type"."Appartement": "appart" is not one of villa, house, apartment'],
    [{ values: { kind: {} } }, 'values."kind": not a field'],
    [{ columns: { Ville: 'city' }, constants: { city: 'Douala' } }, 'constants."city": a column of "columns" already gives city'],
    [{ constants: { purpose: 'louer' } }, 'constants."purpose": "louer" is not one of sale, rent, furnished_rent'],
  ])('%j is refused: %s', (json, message) => {
    expect(() => new ColumnMap(json)).toThrow(ColumnMapError);
    expect(() => new ColumnMap(json)).toThrow(message);
  });

  it('renames, labels and fills a row whatever the case and accents', () => {
    const map = new ColumnMap({
      columns: { 'Réf.': 'source_ref', 'Type de bien': 'type', Agence: null },
      values: { type: { Appartement: 'apartment' }, purpose: { 'A louer': 'rent' } },
      constants: { city: 'Douala' },
    });
    expect([map.fieldOf('REF'), map.fieldOf('type de bien'), map.fieldOf('agence'), map.fieldOf('price'), map.fieldOf('Couleur')]).toEqual([
      'source_ref',
      'type',
      null,
      'price',
      undefined,
    ]);
    const row: Record<string, unknown> = { ref: 'A-1', 'TYPE DE BIEN': 'APPARTEMENT', purpose: 'à louer', agence: 'X' };
    map.apply(row, true);
    expect(row).toEqual({ source_ref: 'A-1', type: 'apartment', purpose: 'rent', city: 'Douala' });
  });
});
