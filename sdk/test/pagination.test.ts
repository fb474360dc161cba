import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { CursorPage, MboaError } from '../src/index.js';
import { API, client, listing, page, server, useMockServer } from './helpers.js';

useMockServer();

/** Five listings in three pages (2, 2, 1) behind cursors c1 and c2; records each query. */
function threePages() {
  const queries: URLSearchParams[] = [];
  const items = [1, 2, 3, 4, 5].map((n) => listing(n));
  server.use(
    http.get(`${API}/listings`, ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const cursor = query.get('cursor');
      if (cursor === null) return page(items.slice(0, 2), 'c1', { total: 5, limit: 2 });
      if (cursor === 'c1') return page(items.slice(2, 4), 'c2', { total: 5, limit: 2 });
      if (cursor === 'c2') return page(items.slice(4), null, { total: 5, limit: 2 });
      throw new Error(`unexpected cursor ${cursor}`);
    }),
  );
  return { queries, items };
}

describe('listings.search pagination', () => {
  it('walks every page with for await, repeating the filters with each cursor', async () => {
    const { queries, items } = threePages();
    const seen = [];
    for await (const l of client().listings.search({ city: 'Douala', purpose: 'sale', limit: 2 })) seen.push(l);

    expect(seen).toEqual(items);
    expect(queries.map((q) => Object.fromEntries(q))).toEqual([
      { city: 'Douala', purpose: 'sale', limit: '2' },
      { city: 'Douala', purpose: 'sale', limit: '2', cursor: 'c1' },
      { city: 'Douala', purpose: 'sale', limit: '2', cursor: 'c2' },
    ]);
  });

  it('awaits to one page with data, meta and page navigation', async () => {
    threePages();
    const first = await client().listings.search({ limit: 2 });
    expect(first).toBeInstanceOf(CursorPage);
    expect(first.data.map((l) => l.id)).toEqual([listing(1).id, listing(2).id]);
    expect(first.meta).toMatchObject({ total: 5, returned: 2, limit: 2, next_cursor: 'c1', has_more: true });
    expect(first.hasNextPage()).toBe(true);

    const second = await first.getNextPage();
    const last = await second.getNextPage();
    expect(last.data).toHaveLength(1);
    expect(last.hasNextPage()).toBe(false);
    await expect(last.getNextPage()).rejects.toMatchObject({ code: 'no_next_page' });
  });

  it('iterPages yields each page once, from the promise or from a page', async () => {
    threePages();
    const sizes = [];
    for await (const p of client().listings.search({ limit: 2 }).iterPages()) sizes.push(p.meta.returned);
    expect(sizes).toEqual([2, 2, 1]);

    const first = await client().listings.search({ limit: 2 });
    const cursors = [];
    for await (const p of first.iterPages()) cursors.push(p.meta.next_cursor);
    expect(cursors).toEqual(['c1', 'c2', null]);
  });

  it('stops fetching when the loop breaks', async () => {
    const { queries } = threePages();
    for await (const l of client().listings.search({ limit: 2 })) {
      if (l.id === listing(1).id) break;
    }
    expect(queries).toHaveLength(1);
  });

  it('resumes from a saved cursor with the same filters', async () => {
    const { queries, items } = threePages();
    const rest = await client().listings.search({ city: 'Douala', limit: 2, cursor: 'c1' }).toArray({ max: 100 });
    expect(rest).toEqual(items.slice(2));
    expect(queries.map((q) => q.get('cursor'))).toEqual(['c1', 'c2']);
    expect(queries.every((q) => q.get('city') === 'Douala')).toBe(true);
  });

  it('toArray stops at max and fetches no page beyond it', async () => {
    const { queries, items } = threePages();
    expect(await client().listings.search({ limit: 2 }).toArray({ max: 3 })).toEqual(items.slice(0, 3));
    expect(queries).toHaveLength(2);
    expect(await client().listings.search({ limit: 2 }).toArray({ max: 0 })).toEqual([]);
  });

  it('toArray refuses to run without a cap', async () => {
    threePages();
    const search = client().listings.search({ limit: 2 });
    // @ts-expect-error max is required
    await expect(search.toArray()).rejects.toMatchObject({ code: 'invalid_argument' });
    await expect(search.toArray({ max: 1.5 })).rejects.toBeInstanceOf(MboaError);
    const first = await search;
    await expect(first.toArray({ max: -1 })).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('an empty result is one page with nothing to iterate', async () => {
    server.use(http.get(`${API}/listings`, () => page([], null, { total: 0 })));
    const first = await client().listings.search({ city: 'Kribi' });
    expect(first.meta.total).toBe(0);
    expect(first.hasNextPage()).toBe(false);
    expect(await first.toArray({ max: 10 })).toEqual([]);
  });

  it('does not loop forever when the API repeats a cursor', async () => {
    server.use(http.get(`${API}/listings`, () => page([listing(1)], 'same')));
    await expect(client().listings.search().toArray({ max: 100 })).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('sends no unset parameter', async () => {
    const { queries } = threePages();
    await client().listings.search({ city: 'Douala', type: undefined, min_price: 0 });
    expect(Object.fromEntries(queries[0]!)).toEqual({ city: 'Douala', min_price: '0' });
  });
});
