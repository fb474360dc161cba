/**
 * Listing search with keyset pagination: `(sort_key, id) > / < (last row)` on an index
 * that starts with the same columns, so page N costs what page 1 costs. The exact total
 * is counted on page 1 only and travels in the cursor.
 */
import { type Dataset, table } from '../dataset.js';
import type { TListing, TListingsQueryParsed } from '../../../contract/schemas.js';
import { ApiError } from '../../platform/errors.js';
import type { CursorCodec } from './cursor.js';
import { canonicalFilters, type EffectiveFilters, listingFilterSql } from './filters.js';
import { PUBLIC_COLUMNS, type PublicRow, toListing } from './public-row.js';

type Sort = TListingsQueryParsed['sort'];

const SORTS: Record<Sort, { column: 'listed_at' | 'price' | 'updated_at'; desc: boolean }> = {
  '-listed_at': { column: 'listed_at', desc: true },
  listed_at: { column: 'listed_at', desc: false },
  price: { column: 'price', desc: false },
  '-price': { column: 'price', desc: true },
  updated_at: { column: 'updated_at', desc: false },
};

export interface SearchResult {
  data: TListing[];
  total: number;
  nextCursor: string | null;
}

function countTotal(data: Dataset, where: string, params: unknown[], totals?: TotalsCache): Promise<number> {
  const sql = `SELECT count(*) AS n FROM ${table(data, 'listings')} l ${where}`;
  const load = () => data.pool.query<{ n: string }>(sql, params).then((r) => Number(r.rows[0].n));
  return totals ? totals.get(`${sql}\0${JSON.stringify(params)}`, load) : load();
}

/** Where exact totals may be remembered (see http/data-cache.ts); absent: counted every time. */
export interface TotalsCache {
  get(key: string, load: () => Promise<number>): Promise<number>;
}

/** One page of the listings that match `filters` (the query's, as `effectiveFilters` works them out). */
export async function searchListings(
  data: Dataset,
  cursors: CursorCodec,
  q: TListingsQueryParsed,
  filters: EffectiveFilters,
  totals?: TotalsCache,
): Promise<SearchResult> {
  const sort = SORTS[q.sort];
  // What a cursor is bound to: the filters as applied and the sort; not the page size or currency.
  const bound = { ...canonicalFilters(filters), sort: q.sort };
  const position = q.cursor !== undefined ? cursors.decode(q.cursor, bound) : null;

  const page = listingFilterSql(filters, 'l');
  // Page 1 counts the matches under the filters alone: their conditions, before the page's own join them.
  const count = position ? null : { where: page.where(), params: [...page.params] };
  if (position) {
    const value = sort.column === 'price' ? Number(position.value) : new Date(String(position.value));
    if (sort.column === 'price' ? typeof position.value !== 'number' : Number.isNaN((value as Date).getTime())) {
      // Signed, so only a change of format between versions could lead here.
      throw new ApiError('invalid_cursor', 'The cursor is from another version of the API. Start again without `cursor`.');
    }
    page.add(`(l.${sort.column}, l.id) ${sort.desc ? '<' : '>'} (${page.param(value)}, ${page.param(position.id)})`);
  }
  const direction = sort.desc ? 'DESC' : 'ASC';
  const sql = `SELECT ${PUBLIC_COLUMNS} FROM ${table(data, 'listings')} l ${page.where()}
    ORDER BY l.${sort.column} ${direction}, l.id ${direction} LIMIT ${page.param(q.limit + 1)}`;

  const [rowsResult, total] = await Promise.all([
    data.pool.query<PublicRow & { price: string }>(sql, page.params),
    count ? countTotal(data, count.where, count.params, totals) : position!.total,
  ]);

  const rows = rowsResult.rows;
  const hasMore = rows.length > q.limit;
  const pageRows = hasMore ? rows.slice(0, q.limit) : rows;
  const last = pageRows.at(-1);
  const nextCursor =
    hasMore && last
      ? cursors.encode(bound, {
          value: sort.column === 'price' ? Number(last.price) : (last[sort.column] as Date).toISOString(),
          id: last.id,
          total,
        })
      : null;
  return { data: pageRows.map((row) => toListing(row, q.currency)), total, nextCursor };
}
