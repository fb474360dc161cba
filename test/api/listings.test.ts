/**
 * Listing search against the seeded database: pagination walked to the end, every
 * filter against a direct SQL count, sorts, cursors bound to their filters, detail.
 */
import { describe, expect, it } from 'vitest';
import { get, serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('enterprise');

async function walk(query: string, limit = 200) {
  const ids: string[] = [];
  let cursor: string | null = null;
  let total = -1;
  let pages = 0;
  do {
    const sep = query ? '&' : '';
    const res = await get(
      t.baseUrl,
      `/api/v1/listings?${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      t.key,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (total === -1) total = res.body.meta.total;
    expect(res.body.meta.total).toBe(total);
    expect(res.body.meta.returned).toBe(res.body.data.length);
    expect(res.body.meta.has_more).toBe(res.body.meta.next_cursor !== null);
    ids.push(...res.body.data.map((l: { id: string }) => l.id));
    cursor = res.body.meta.next_cursor;
    pages++;
  } while (cursor);
  return { ids, total, pages };
}

async function sqlCount(where: string, params: unknown[] = []) {
  const { rows } = await t.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM listings WHERE ${where}`, params);
  return rows[0].n;
}

describe('pagination', () => {
  it('walks every active listing once: as many as meta.total, no duplicates', async () => {
    const { ids, total, pages } = await walk('');
    expect(pages).toBeGreaterThan(1);
    expect(ids.length).toBe(total);
    expect(new Set(ids).size).toBe(ids.length);
    expect(total).toBe(await sqlCount("status = 'active'"));
  });

  it.each(['-listed_at', 'listed_at', 'price', '-price', 'updated_at'])('sort=%s pages in order with ties broken by id', async (sort) => {
    const column = sort.replace('-', '') as 'listed_at' | 'price' | 'updated_at';
    const desc = sort.startsWith('-');
    const rows: Array<{ id: string; v: number }> = [];
    let cursor: string | null = null;
    for (let i = 0; i < 4; i++) {
      const res = await get(t.baseUrl, `/api/v1/listings?city=Douala&sort=${sort}&limit=50${cursor ? `&cursor=${cursor}` : ''}`, t.key);
      expect(res.status).toBe(200);
      rows.push(...res.body.data.map((l: Record<string, any>) => ({ id: l.id, v: column === 'price' ? l.price : Date.parse(l[column]) })));
      cursor = res.body.meta.next_cursor;
      if (!cursor) break;
    }
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      const ordered = desc ? a.v > b.v || (a.v === b.v && a.id > b.id) : a.v < b.v || (a.v === b.v && a.id < b.id);
      expect(ordered, `${JSON.stringify(a)} then ${JSON.stringify(b)}`).toBe(true);
    }
  });

  it('status=any with sort=updated_at and updated_after is a complete sync feed, removals included', async () => {
    const since = '2020-01-01T00:00:00Z';
    const { ids, total } = await walk(`status=any&sort=updated_at&updated_after=${since}`);
    expect(ids.length).toBe(total);
    expect(total).toBe(await sqlCount('updated_at > $1', [since]));
    expect(await sqlCount("status <> 'active'")).toBeGreaterThan(0);
  });

  it('defaults limit to 20 and accepts 1 and 200', async () => {
    expect((await get(t.baseUrl, '/api/v1/listings', t.key)).body.meta.limit).toBe(20);
    expect((await get(t.baseUrl, '/api/v1/listings?limit=1', t.key)).body.data).toHaveLength(1);
    expect((await get(t.baseUrl, '/api/v1/listings?limit=200', t.key)).body.data).toHaveLength(200);
  });
});

describe('filters equal a direct SQL count', () => {
  const cases: Array<[string, string, unknown[]]> = [
    ['city=Douala', "status = 'active' AND city = 'Douala'", []],
    ['city=yaounde', "status = 'active' AND city = 'Yaoundé'", []],
    ['city=YAOUNDÉ&neighborhood=bastos', "status = 'active' AND city = 'Yaoundé' AND neighborhood = 'Bastos'", []],
    ['type=villa', "status = 'active' AND type = 'villa'", []],
    ['purpose=rent', "status = 'active' AND purpose = 'rent'", []],
    [
      'purpose=sale&min_price=50000000&max_price=200000000',
      "status = 'active' AND purpose = 'sale' AND price BETWEEN 50000000 AND 200000000",
      [],
    ],
    ['min_surface=100&max_surface=300', "status = 'active' AND surface BETWEEN 100 AND 300", []],
    ['min_bedrooms=3&min_bathrooms=2', "status = 'active' AND bedrooms >= 3 AND bathrooms >= 2", []],
    ['listed_after=2026-06-01', "status = 'active' AND listed_at >= '2026-06-01T00:00:00Z'", []],
    ['status=withdrawn', "status = 'withdrawn'", []],
    ['status=any', 'TRUE', []],
    [
      'city=Douala&type=apartment&purpose=rent&min_bedrooms=2',
      "status = 'active' AND city = 'Douala' AND type = 'apartment' AND purpose = 'rent' AND bedrooms >= 2",
      [],
    ],
  ];
  it.each(cases)('%s', async (query, where, params) => {
    const res = await get(t.baseUrl, `/api/v1/listings?${query}&limit=5`, t.key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta.total).toBe(await sqlCount(where, params));
  });

  it('returns only matching rows', async () => {
    const res = await get(t.baseUrl, '/api/v1/listings?city=douala&type=villa&purpose=sale&min_price=100000000&limit=100', t.key);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const l of res.body.data) {
      expect(l).toMatchObject({ city: 'Douala', type: 'villa', purpose: 'sale', status: 'active', currency: 'XAF' });
      expect(l.price).toBeGreaterThanOrEqual(100000000);
    }
  });
});

describe('cursors', () => {
  it('are refused with other filters or another sort: 400 invalid_cursor', async () => {
    const first = await get(t.baseUrl, '/api/v1/listings?city=Douala&limit=10', t.key);
    const cursor = first.body.meta.next_cursor;
    for (const other of ['city=Kribi', 'city=Douala&sort=price', 'city=Douala&type=villa', '']) {
      const res = await get(t.baseUrl, `/api/v1/listings?${other}&cursor=${cursor}`, t.key);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    // Same filters, other spelling of the city and another page size: accepted.
    const ok = await get(t.baseUrl, `/api/v1/listings?city=DOUALA&limit=7&cursor=${cursor}`, t.key);
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].id).not.toBe(first.body.data[0].id);
  });

  it('are refused when tampered with', async () => {
    const first = await get(t.baseUrl, '/api/v1/listings?limit=10', t.key);
    const [body, sig] = first.body.meta.next_cursor.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.t = 1;
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
    for (const bad of [forged, 'garbage', `${body}.AAAA`, 'a.b.c']) {
      const res = await get(t.baseUrl, `/api/v1/listings?cursor=${encodeURIComponent(bad)}`, t.key);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
  });

  it('carry the total: later pages keep the first page total', async () => {
    const first = await get(t.baseUrl, '/api/v1/listings?limit=5', t.key);
    const second = await get(t.baseUrl, `/api/v1/listings?limit=5&cursor=${first.body.meta.next_cursor}`, t.key);
    expect(second.body.meta.total).toBe(first.body.meta.total);
  });
});

describe('detail', () => {
  it('returns public fields and the price history, oldest first, ending at the current price', async () => {
    const { rows } = await t.db.pool.query<{ listing_id: string }>(
      'SELECT listing_id FROM price_history GROUP BY listing_id HAVING count(*) > 1 LIMIT 1',
    );
    expect(rows.length).toBe(1);
    const res = await get(t.baseUrl, `/api/v1/listings/${rows[0].listing_id}`, t.key);
    expect(res.status).toBe(200);
    const l = res.body.data;
    expect(l.price_history.length).toBeGreaterThan(1);
    const dates = l.price_history.map((h: { date: string }) => Date.parse(h.date));
    expect([...dates].sort((a, b) => a - b)).toEqual(dates);
    expect(l.price_history.at(-1).price).toBe(l.price);
    expect(Object.keys(res.body.meta).sort()).toEqual(['dataset', 'quota', 'request_id']);
  });

  it('answers 404 not_found for an unknown id, 400 for a malformed one', async () => {
    const missing = await get(t.baseUrl, `/api/v1/listings/lst_${'a'.repeat(20)}`, t.key);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('not_found');
    const malformed = await get(t.baseUrl, '/api/v1/listings/12345', t.key);
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_error');
  });
});

describe('no PII leaves the API', () => {
  it('planted contact details never appear in search, detail or market answers', async () => {
    const planted = {
      name: 'Zéphirin Planted-Contact',
      phone: '+237 699 00 11 22',
      email: 'planted.pii@example.cm',
      street: '12 Rue Planted-Address, Bonapriso',
      ref: 'PLANTED-SOURCE-REF-1',
    };
    const { rows } = await t.db.pool.query<{ id: string }>(
      `UPDATE listings SET contact_name = $1, contact_phone = $2, contact_email = $3, street_address = $4
       WHERE id = (SELECT id FROM listings WHERE status = 'active' AND city = 'Douala' ORDER BY listed_at DESC LIMIT 1)
       RETURNING id`,
      [planted.name, planted.phone, planted.email, planted.street],
    );
    const id = rows[0].id;
    const bodies = [
      await get(t.baseUrl, `/api/v1/listings/${id}`, t.key),
      await get(t.baseUrl, '/api/v1/listings?city=Douala&limit=200', t.key),
      await get(t.baseUrl, '/api/v1/listings?status=any&sort=updated_at&limit=200', t.key),
      await get(t.baseUrl, '/api/v1/market/stats', t.key),
      await get(t.baseUrl, '/api/v1/market/trends?city=Douala', t.key),
    ];
    expect(bodies[1].body.data.map((l: { id: string }) => l.id)).toContain(id);
    for (const res of bodies) {
      expect(res.status).toBe(200);
      for (const value of [planted.name, planted.phone, planted.email, planted.street, 'contact', 'street_address', 'source_ref']) {
        expect(res.text).not.toContain(value);
      }
    }
    const detailKeys = Object.keys(bodies[0].body.data).sort();
    expect(detailKeys).toEqual(
      [
        'advance_months',
        'bathrooms',
        'bedrooms',
        'city',
        'currency',
        'days_on_market',
        'deposit_months',
        'furnished',
        'id',
        'land_title',
        'listed_at',
        'listed_at_precision',
        'location',
        'neighborhood',
        'price',
        'price_history',
        'price_per_m2',
        'purpose',
        'removed_at',
        'standing',
        'status',
        'surface',
        'title',
        'type',
        'updated_at',
      ].sort(),
    );
  });
});
