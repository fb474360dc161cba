/**
 * An advert's terms in the API: every listing carries `furnished`, `advance_months`,
 * `deposit_months` and `land_title` (search, detail, export: the same values, never a
 * private field), and the filters `furnished`, `max_advance_months` and `land_title`
 * select exactly the rows the same conditions select in SQL, page after page with their
 * cursors, on the search and the export. Rows imported here, in a city no other test file
 * writes to (Bertoua); the seeded rows there count too, as SQL sees them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodTypeAny } from 'zod';
import { ZListing } from '../../contract/schemas.js';
import { createKey } from '../../server/accounts/keys.js';
import { importFile } from '../../server/ingest/import.js';
import { get, serverWithAccount } from '../helpers/server.js';
import { removeSource, testSource, toJsonLines, workdir } from '../ingest/helpers.js';

const t = serverWithAccount('enterprise');
const STRICT_LISTING = z.object(ZListing.shape as Record<string, ZodTypeAny>).strict();
const src = testSource();
const PHONE = '+237 677 12 34 56';
const STREET = 'Rue des Termes Privés 7';

interface Item {
  id: string;
  purpose: string;
  furnished: boolean | null;
  advance_months: number | null;
  deposit_months: number | null;
  land_title: string | null;
}

/** 48 adverts: each purpose, furnishing said or not, advances and titles of every kind, a few withdrawn. */
function adverts(): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < 48; i++) {
    const purpose = ['rent', 'furnished_rent', 'sale'][i % 3];
    const rent = purpose !== 'sale';
    const withdrawn = i % 11 === 5;
    rows.push({
      source_ref: `${src}-${String(i).padStart(2, '0')}`,
      price: rent ? 60_000 + i * 5_000 : 8_000_000 + i * 1_000_000,
      city: 'Bertoua',
      neighborhood: 'Centre Administratif',
      type: rent ? 'apartment' : ['land', 'house'][i % 2],
      purpose,
      ...(withdrawn ? { status: 'withdrawn', removed_at: '2026-11-20T00:00:00Z', listed_at: '2026-10-01T00:00:00Z' } : {}),
      ...(purpose === 'furnished_rent' ? {} : { furnished: [true, false, null, false][i % 4] }),
      ...(rent ? { advance_months: [null, 0, 3, 6, 10, 12, 24][i % 7], deposit_months: [null, 1, 2, 3][i % 4] } : {}),
      ...(i % 5 === 0 ? {} : { land_title: ['titled', 'untitled', 'in_progress', 'unknown'][i % 4] }),
      contact_phone: PHONE,
      street_address: STREET,
    });
  }
  return rows;
}

beforeAll(async () => {
  const work = workdir();
  try {
    const file = work.write('terms.ndjson', toJsonLines(adverts()));
    const result = await importFile(t.db.pool, { file, format: 'ndjson', source: src });
    expect(result.counts).toMatchObject({ rows: 48, accepted: 48 });
  } finally {
    work.remove();
  }
});
afterAll(() => removeSource(t.db, src));

/** Every listing of a search, page after page; and the total page 1 announced. */
async function searchAll(query: string, limit = 200): Promise<{ items: Item[]; total: number }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let total = -1;
  do {
    const page = await get(
      t.baseUrl,
      `/api/v1/listings?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      t.key,
    );
    expect(page.status, page.text).toBe(200);
    if (total < 0) total = page.body.meta.total;
    items.push(...page.body.data);
    cursor = page.body.meta.next_cursor;
  } while (cursor);
  return { items, total };
}

async function exportText(query: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${t.baseUrl}/api/v1/exports/listings?${query}`, {
    headers: { 'X-API-Key': t.key, 'Accept-Encoding': 'identity' },
  });
  return { status: res.status, text: await res.text() };
}
const linesOf = (text: string) =>
  text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Item);

async function sqlIds(where: string, params: unknown[] = [], order = 'id'): Promise<string[]> {
  const { rows } = await t.db.pool.query<{ id: string }>(
    `SELECT id FROM listings WHERE city_key = 'bertoua' AND ${where} ORDER BY ${order}`,
    params,
  );
  return rows.map((r) => r.id);
}

describe('the advert terms of a listing', () => {
  it('are the stored ones, in the search, the detail and the export, without any private field', async () => {
    const { rows } = await t.db.pool.query<Item>(
      `SELECT id, purpose::text, furnished, advance_months, deposit_months, land_title::text FROM listings WHERE source = $1 ORDER BY id`,
      [src],
    );
    expect(rows).toHaveLength(48);
    // The import settled them: furnished rents are furnished_rent, sales have a title, rents no sale terms.
    expect(rows.filter((r) => r.purpose === 'rent' && r.furnished === true)).toEqual([]);
    expect(rows.filter((r) => r.purpose === 'sale' && (r.land_title === null || r.advance_months !== null))).toEqual([]);
    const stored = new Map(rows.map((r) => [r.id, r]));

    const { items } = await searchAll('city=Bertoua&status=any');
    const ours = items.filter((l) => stored.has(l.id));
    expect(ours).toHaveLength(48);
    for (const item of ours) {
      expect(STRICT_LISTING.safeParse(item).success).toBe(true);
      const { id, purpose, furnished, advance_months, deposit_months, land_title } = item;
      expect({ id, purpose, furnished, advance_months, deposit_months, land_title }).toEqual(stored.get(id));
    }

    const furnishedRent = ours.find((l) => l.purpose === 'furnished_rent' && l.advance_months !== null)!;
    const detail = await get(t.baseUrl, `/api/v1/listings/${furnishedRent.id}`, t.key);
    expect(detail.status).toBe(200);
    const { price_history: _history, ...listing } = detail.body.data;
    expect(listing).toEqual(furnishedRent);

    const exported = await exportText('city=bertoua&status=any');
    expect(exported.status).toBe(200);
    const lines = linesOf(exported.text);
    expect(lines).toEqual([...items].sort((a, b) => (a.id < b.id ? -1 : 1)));
    for (const text of [exported.text, JSON.stringify(items), JSON.stringify(detail.body)]) {
      for (const value of [PHONE, STREET, 'contact_', 'street_address', 'source_ref']) expect(text).not.toContain(value);
    }
  });
});

describe('filters on the advert terms', () => {
  const cases: Array<[string, string, unknown[]]> = [
    ['furnished=true', 'furnished = true', []],
    ['furnished=FALSE', 'furnished = false', []],
    ['max_advance_months=6', 'advance_months <= $1', [6]],
    ['max_advance_months=0', 'advance_months <= $1', [0]],
    ['land_title=in_progress,titled', 'land_title::text = ANY($1::text[])', [['titled', 'in_progress']]],
    ['land_title=UNKNOWN', "land_title::text = 'unknown'", []],
    ['furnished=true&max_advance_months=10&land_title=titled', "furnished AND advance_months <= 10 AND land_title::text = 'titled'", []],
    ['purpose=rent&furnished=false&status=any', "purpose = 'rent' AND furnished = false", []],
  ];

  it.each(cases)('%s selects what SQL selects, in the search and the export', async (query, where, params) => {
    const active = query.includes('status=any') ? 'true' : "status = 'active'";
    const expected = await sqlIds(`${active} AND ${where}`, params);
    expect(expected.length, 'the case selects some listings').toBeGreaterThan(0);
    const { items, total } = await searchAll(`city=Bertoua&${query}`);
    expect(items.map((l) => l.id).sort()).toEqual(expected);
    expect(total).toBe(expected.length);
    const exported = await exportText(`city=Bertoua&${query}`);
    expect(exported.status).toBe(200);
    expect(linesOf(exported.text).map((l) => l.id)).toEqual(expected);
  });

  it('leave out the listings whose advert does not say', async () => {
    const said = await sqlIds("status = 'active' AND furnished IS NOT NULL");
    const unsaid = await sqlIds("status = 'active' AND furnished IS NULL");
    expect(unsaid.length).toBeGreaterThan(0);
    const yes = (await searchAll('city=Bertoua&furnished=true')).items.map((l) => l.id);
    const no = (await searchAll('city=Bertoua&furnished=false')).items.map((l) => l.id);
    expect([...yes, ...no].sort()).toEqual(said);
    const advance = (await searchAll(`city=Bertoua&max_advance_months=24`)).items;
    expect(advance.map((l) => l.id).sort()).toEqual(await sqlIds("status = 'active' AND advance_months IS NOT NULL"));
    expect(advance.every((l) => l.purpose !== 'sale')).toBe(true);
  });

  it('page correctly with cursors bound to them', async () => {
    const query = 'city=Bertoua&furnished=true&max_advance_months=12&status=any&sort=price';
    const expected = await sqlIds('furnished AND advance_months <= 12', [], 'price, id');
    expect(expected.length).toBeGreaterThan(4);
    const { items, total } = await searchAll(query, 2);
    expect(items.map((l) => l.id)).toEqual(expected);
    expect(total).toBe(expected.length);

    const first = await get(t.baseUrl, `/api/v1/listings?${query}&limit=2`, t.key);
    const cursor = encodeURIComponent(first.body.meta.next_cursor);
    for (const other of [
      'city=Bertoua&furnished=false&max_advance_months=12&status=any&sort=price',
      'city=Bertoua&furnished=true&max_advance_months=11&status=any&sort=price',
      'city=Bertoua&furnished=true&max_advance_months=12&status=any&sort=price&land_title=titled',
    ]) {
      const res = await get(t.baseUrl, `/api/v1/listings?${other}&limit=2&cursor=${cursor}`, t.key);
      expect(res.status, other).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    // Another spelling of the same filters keeps the cursor.
    const same = await get(
      t.baseUrl,
      `/api/v1/listings?city=bertoua&furnished=TRUE&max_advance_months=012&status=any&sort=price&limit=2&cursor=${cursor}`,
      t.key,
    );
    expect(same.status).toBe(200);
    expect(same.body.data.map((l: Item) => l.id)).toEqual(expected.slice(2, 4));

    const titled = 'city=Bertoua&land_title=titled,in_progress&status=any&sort=price';
    const titledFirst = await get(t.baseUrl, `/api/v1/listings?${titled}&limit=2`, t.key);
    const swapped = await get(
      t.baseUrl,
      `/api/v1/listings?city=Bertoua&land_title=in_progress,TITLED&status=any&sort=price&limit=2&cursor=${encodeURIComponent(titledFirst.body.meta.next_cursor)}`,
      t.key,
    );
    expect(swapped.status).toBe(200);
    const titledIds = await sqlIds("land_title IN ('titled', 'in_progress')", [], 'price, id');
    expect(swapped.body.data.map((l: Item) => l.id)).toEqual(titledIds.slice(2, 4));
  });

  const bad: Array<[string, string, RegExp]> = [
    ['furnished=maybe', 'furnished', /true or false/],
    ['furnished=1', 'furnished', /true or false/],
    ['furnished=', 'furnished', /true or false/],
    ['furnished=true&furnished=false', 'furnished', /given once/],
    ['max_advance_months=25', 'max_advance_months', /between 0 and 24/],
    ['max_advance_months=-1', 'max_advance_months', /whole number written in digits/],
    ['max_advance_months=6.5', 'max_advance_months', /whole number written in digits/],
    ['land_title=freehold', 'land_title', /titled, untitled, in_progress, unknown/],
    ['land_title=titled,', 'land_title', /titled, untitled, in_progress, unknown/],
  ];

  it.each(bad)('%s is a 400 naming the parameter, on the search and the export', async (query, parameter, message) => {
    for (const path of ['/api/v1/listings', '/api/v1/exports/listings']) {
      const res = await get(t.baseUrl, `${path}?${query}`, t.key);
      expect(res.status, `${path}?${query}: ${res.text}`).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('validation_error');
      const errors = res.body.errors.filter((e: { path: string }) => e.path === parameter);
      expect(errors, JSON.stringify(res.body.errors)).toHaveLength(1);
      const [error] = errors;
      expect(error.message).toMatch(message);
    }
  });
});

describe('the fixed public sample (test keys)', () => {
  it('carries the terms too: furnished rents are furnished, sales carry their land title, rents their advance', async () => {
    const { key } = await createKey(t.db.prisma, t.caller.id, 'terms', new Date(), { kind: 'test' });
    const count = async (where: string) =>
      (await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM sample.listings WHERE status = 'active' AND ${where}`)).rows[0]
        .n;
    const furnished = await get(t.baseUrl, '/api/v1/listings?furnished=true&limit=1', key);
    expect(furnished.status, furnished.text).toBe(200);
    expect(furnished.body.meta.dataset).toBe('sample');
    expect(furnished.body.meta.total).toBe(await count("purpose = 'furnished_rent'"));
    expect(furnished.body.meta.total).toBe(await count('furnished'));
    expect(furnished.body.meta.total).toBeGreaterThan(0);
    // The generator states titles on most sales (README, "Demo data"); unsaid is `unknown`.
    const titled = await get(t.baseUrl, '/api/v1/listings?land_title=titled&limit=1', key);
    expect(titled.body.meta.total).toBe(await count("land_title = 'titled'"));
    expect(titled.body.meta.total).toBeGreaterThan(0);
    const unknown = await get(t.baseUrl, '/api/v1/listings?land_title=unknown&limit=1', key);
    expect(unknown.body.meta.total).toBe(await count("purpose = 'sale' AND land_title = 'unknown'"));
    expect(unknown.body.data[0]).toMatchObject({ purpose: 'sale', land_title: 'unknown', advance_months: null });
    const sixMonths = await get(t.baseUrl, '/api/v1/listings?max_advance_months=6&limit=1', key);
    expect(sixMonths.body.meta.total).toBe(await count('advance_months <= 6'));
    expect(sixMonths.body.meta.total).toBeGreaterThan(0);
    expect(sixMonths.body.meta.total).toBeLessThan(await count("purpose <> 'sale'"));
  });
});
