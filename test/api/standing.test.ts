/**
 * A listing's `standing`: stated by the feed (any case) or read at import from its title and
 * description, stored, never missing from a public listing (search, detail, export), and
 * filtered by `standing=` on the search, the export and saved searches exactly as SQL selects.
 * Rows imported in Ngaoundéré's Gambara and Onaref (no other test file writes there); the
 * seeded rows of the city count too, as SQL sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STANDINGS } from '../../contract/advert-terms.js';
import { ColumnMap } from '../../server/ingest/column-map.js';
import { importFile } from '../../server/ingest/import.js';
import { get, serverWithAccount } from '../helpers/server.js';
import { removeSource, testSource, toJsonLines, workdir } from '../ingest/helpers.js';

const t = serverWithAccount('enterprise');
const src = testSource();

/** [title, description, stated standing, the standing expected stored]: worked out by hand, not by the reader. */
const ADVERTS: Array<[string | null, string | null, string | null, string | null]> = [
  ['Appartement haut standing 3 chambres à Gambara', null, null, 'high'],
  ['APPARTEMENT DE LUXE À ONARAF', null, null, 'high'],
  ['Luxury 2-bedroom flat', null, null, 'high'],
  ['Studio moderne à louer', null, null, 'standard'],
  ['Appartement 2 chambres', 'Immeuble neuf, carrelé', null, 'standard'],
  ['Appartement bon standing', null, null, 'standard'],
  ['Chambre simple à louer', null, null, 'basic'],
  ['Studio sans commodités', null, null, 'basic'],
  ['Maison bas standing', null, null, 'basic'],
  ['Appartement 2 chambres à louer', null, null, null],
  [null, null, null, null], // a title written from the fields says no standing
  ['Appartement 3 chambres', null, 'High', 'high'], // the feed's own word, in any case
  ['Appartement haut standing', null, 'basic', 'basic'], // the feed's word wins over the title's
  ['Villa', 'Quartier calme', ' Standard ', 'standard'],
];

beforeAll(async () => {
  const work = workdir();
  try {
    const rows = ADVERTS.map(([title, description, standing], i) => ({
      source_ref: `${src}-${i}`,
      price: 50_000 + i * 10_000,
      city: 'Ngaoundéré',
      neighborhood: i % 2 ? 'Onaref' : 'Gambara',
      type: 'apartment',
      purpose: 'rent',
      bedrooms: 1 + (i % 3),
      ...(title === null ? {} : { title }),
      ...(description === null ? {} : { description }),
      ...(standing === null ? {} : { standing }),
    }));
    // Half as NDJSON, half as CSV (its header in the feed's names).
    const ndjson = work.write('standing.ndjson', toJsonLines(rows.slice(0, 7)));
    const columns = ['source_ref', 'price', 'city', 'neighborhood', 'type', 'purpose', 'bedrooms', 'title', 'description', 'standing'];
    const csv = [
      columns.join(','),
      ...rows.slice(7).map((r) => columns.map((c) => JSON.stringify((r as Record<string, unknown>)[c] ?? '')).join(',')),
    ];
    const csvFile = work.write('standing.csv', csv.join('\n') + '\n');
    for (const [file, format] of [
      [ndjson, 'ndjson'],
      [csvFile, 'csv'],
    ] as const) {
      const result = await importFile(t.db.pool, { file, format, source: src });
      expect(result.counts.rejected, JSON.stringify(result.counts)).toBe(0);
    }
  } finally {
    work.remove();
  }
});
afterAll(() => removeSource(t.db, src));

async function sqlIds(where: string, params: unknown[] = []): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ id: string }>(
    `SELECT id FROM listings WHERE city_key = 'ngaoundere' AND status = 'active' AND ${where} ORDER BY id`,
    params,
  );
  return rows.map((r) => r.id);
}

async function searchAll(query: string): Promise<{ items: Record<string, unknown>[]; total: number }> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const page = await get(t.baseUrl, `/api/v1/listings?${query}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, t.key);
    expect(page.status, page.text).toBe(200);
    if (total < 0) total = page.body.meta.total;
    items.push(...page.body.data);
    cursor = page.body.meta.next_cursor;
  } while (cursor);
  return { items, total };
}

async function exportLines(query: string): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${t.baseUrl}/api/v1/exports/listings?${query}`, { headers: { 'X-API-Key': t.key } });
  expect(res.status).toBe(200);
  return (await res.text())
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('the standing of an imported advert', () => {
  it('is the feed’s own word, else the one its title or description claims, else null', async () => {
    const { rows } = await t.db.pool.query<{ source_ref: string; standing: string | null }>(
      'SELECT source_ref, standing::text FROM listings WHERE source = $1',
      [src],
    );
    const stored = new Map(rows.map((r) => [r.source_ref, r.standing]));
    expect(stored.size).toBe(ADVERTS.length);
    ADVERTS.forEach(([title, , , expected], i) =>
      expect({ title, standing: stored.get(`${src}-${i}`) }).toEqual({ title, standing: expected }),
    );
  });

  it("comes from a partner's own columns through a column map: their labels, else their description", async () => {
    const work = workdir();
    const source = `${src}-map`;
    try {
      const csv = [
        'Ref;Prix;Ville;Quartier;Niveau;Texte',
        'a;90000;Ngaoundéré;Gambara;Haut standing;',
        'b;80000;Ngaoundéré;Gambara;ECONOMIQUE;Immeuble neuf',
        'c;70000;Ngaoundéré;Gambara;;Chambre simple, douche externe',
        'd;60000;Ngaoundéré;Gambara;;',
      ].join('\n');
      const file = work.write('partner.csv', `${csv}\n`);
      const map = work.write(
        'map.json',
        JSON.stringify({
          columns: { Ref: 'source_ref', Prix: 'price', Ville: 'city', Quartier: 'neighborhood', Niveau: 'standing', Texte: 'description' },
          values: { standing: { 'Haut standing': 'high', Economique: 'basic' } },
          constants: { type: 'apartment', purpose: 'rent' },
        }),
      );
      const result = await importFile(t.db.pool, { file, format: 'csv', source, columns: ColumnMap.load(map) });
      expect(result.counts, JSON.stringify(result)).toMatchObject({ rows: 4, accepted: 4 });
      const { rows } = await t.db.pool.query<{ source_ref: string; standing: string | null }>(
        'SELECT source_ref, standing::text FROM listings WHERE source = $1 ORDER BY source_ref',
        [source],
      );
      expect(rows).toEqual([
        { source_ref: 'a', standing: 'high' },
        { source_ref: 'b', standing: 'basic' }, // the partner's label wins over the words
        { source_ref: 'c', standing: 'basic' },
        { source_ref: 'd', standing: null },
      ]);
      expect(() => new ColumnMap({ values: { standing: { Luxe: 'luxury' } } })).toThrow(/not one of high, standard, basic/);
    } finally {
      work.remove();
      await removeSource(t.db, source);
    }
  });

  it('refuses a standing that is none of the three, naming the field', async () => {
    const work = workdir();
    try {
      const file = work.write(
        'bad.ndjson',
        toJsonLines([
          {
            source_ref: `${src}-bad`,
            price: 1,
            city: 'Ngaoundéré',
            neighborhood: 'Gambara',
            type: 'room',
            purpose: 'rent',
            standing: 'luxe',
          },
        ]),
      );
      const result = await importFile(t.db.pool, { file, format: 'ndjson', source: `${src}-bad` });
      expect(result.counts).toMatchObject({ rows: 1, rejected: 1 });
      expect(JSON.stringify(result)).toMatch(/standing: must be one of high, standard, basic/);
    } finally {
      work.remove();
    }
  });
});

describe('standing in the API', () => {
  it('is on every listing, search, detail and export alike, null when unknown', async () => {
    const { items: ours } = await searchAll('city=Ngaoundere&status=any');
    expect(ours.length).toBeGreaterThanOrEqual(ADVERTS.length);
    for (const item of ours) {
      expect(Object.keys(item)).toContain('standing');
      expect([...STANDINGS, null]).toContain(item.standing);
    }
    const stored = new Map(
      (
        await t.db.pool.query<{ id: string; standing: string | null }>(
          `SELECT id, standing::text FROM listings WHERE city_key = 'ngaoundere'`,
        )
      ).rows.map((r) => [r.id, r.standing]),
    );
    for (const item of ours) expect(item.standing).toBe(stored.get(item.id as string));
    const unknown = ours.find((l) => l.standing === null)!;
    const known = ours.find((l) => l.standing === 'high')!;
    for (const listing of [unknown, known]) {
      const detail = await get(t.baseUrl, `/api/v1/listings/${listing.id as string}`, t.key);
      expect(detail.status).toBe(200);
      expect(detail.text).toContain(`"standing":${JSON.stringify(listing.standing)}`);
    }
    const lines = await exportLines('city=Ngaoundere&status=any');
    expect(lines.map((l) => [l.id, l.standing])).toEqual(ours.map((l) => [l.id, l.standing]).sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
  });

  const cases: Array<[string, string]> = [
    ['standing=high', "standing = 'high'"],
    ['standing=STANDARD', "standing = 'standard'"],
    ['standing=basic', "standing = 'basic'"],
    ['standing=high,basic', "standing IN ('high', 'basic')"],
    ['standing=basic,standard,high', 'standing IS NOT NULL'],
    ['standing=high&min_bedrooms=2', "standing = 'high' AND bedrooms >= 2"],
  ];
  it.each(cases)('%s selects what SQL selects, in the search, the export and a saved search', async (query, where) => {
    const q = query;
    const expected = await sqlIds(where);
    expect(expected.length, 'the case selects some listings').toBeGreaterThan(0);
    const { items, total } = await searchAll(`city=Ngaoundere&${q}`);
    expect(items.map((l) => l.id).sort()).toEqual(expected);
    expect(total).toBe(expected.length);
    expect((await exportLines(`city=Ngaoundere&${q}`)).map((l) => l.id)).toEqual(expected);

    const filters = Object.fromEntries(new URLSearchParams(`city=Ngaoundere&${q}`));
    const created = await fetch(`${t.baseUrl}/api/v1/saved-searches`, {
      method: 'POST',
      headers: { 'X-API-Key': t.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `standing ${query}`, filters }),
    });
    const saved = (await created.json()) as { data: { id: string } };
    expect(created.status, JSON.stringify(saved)).toBe(201);
    const matched = await get(t.baseUrl, `/api/v1/saved-searches/${saved.data.id}/listings?limit=100`, t.key);
    expect(matched.status).toBe(200);
    expect(matched.body.data.map((l: { id: string }) => l.id).sort()).toEqual(expected);
  });

  it.each(['standing=luxe', 'standing=high,', 'standing=high&standing=basic'])('%s is a 400 naming the parameter', async (query) => {
    for (const path of ['/api/v1/listings', '/api/v1/exports/listings']) {
      const res = await get(t.baseUrl, `${path}?${query}`, t.key);
      expect(res.status, `${path}?${query}: ${res.text}`).toBe(400);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['standing']);
    }
  });
});
