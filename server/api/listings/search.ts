/**
 * Listing search with keyset pagination: `(sort_key, id) > / < (last row)` on an index
 * that starts with the same columns, so page N costs what page 1 costs. The exact total
 * is counted on page 1 only and travels in the cursor.
 */
import { type Dataset, table } from '../dataset.js';
import type { TListing, TListingsQueryParsed } from '../../../contract/schemas.js';
import { ApiError } from '../../platform/errors.js';
import type { CursorCodec } from './cursor.js';
import { canonicalFilters, effectiveFilters, listingFilterSql, type SqlConditions } from './filters.js';
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

function countTotal(data: Dataset, where: SqlConditions, totals?: TotalsCache): Promise<number> {
  const sql = `SELECT count(*) AS n FROM ${table(data, 'listings')} l ${where.where()}`;
  const load = () => data.pool.query<{ n: string }>(sql, where.params).then((r) => Number(r.rows[0].n));
  return totals ? totals.get(`${sql}\0${JSON.stringify(where.params)}`, load) : load();
}

/** What a cursor is bound to: the filters as applied (see filters.ts) and the sort; not the page size or currency. */
function boundFilters(q: TListingsQueryParsed): Record<string, unknown> {
  return { ...canonicalFilters(effectiveFilters(q)), sort: q.sort };
}

/** Where exact totals may be remembered (see http/data-cache.ts); absent: counted every time. */
export interface TotalsCache {
  get(key: string, load: () => Promise<number>): Promise<number>;
}

export async function searchListings(
  data: Dataset,
  cursors: CursorCodec,
  q: TListingsQueryParsed,
  totals?: TotalsCache,
): Promise<SearchResult> {
  const sort = SORTS[q.sort];
  const bound = boundFilters(q);
  const position = q.cursor !== undefined ? cursors.decode(q.cursor, bound) : null;

  const page = listingFilterSql(q, 'l');
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

  const countQuery = position ? null : listingFilterSql(q, 'l');
  const [rowsResult, total] = await Promise.all([
    data.pool.query<PublicRow & { price: string }>(sql, page.params),
    countQuery ? countTotal(data, countQuery, totals) : Promise.resolve(position!.total),
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
