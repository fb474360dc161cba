/**
 * Listing search with keyset pagination: `(sort_key, id) > / < (last row)` on an index
 * that starts with the same columns, so page N costs what page 1 costs. The exact total
 * is counted on page 1 only and travels in the cursor.
 */
import type pg from 'pg';
import type { TListing, TListingsQueryParsed } from '../../contract/schemas.js';
import { matchKey } from '../text.js';
import type { CursorCodec } from './cursor.js';
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

/** `2026-10-01` is midnight UTC; a timestamp is taken as given. */
function instant(value: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

class SqlBuilder {
  readonly params: unknown[] = [];
  readonly where: string[] = [];
  param(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
  add(condition: string): void {
    this.where.push(condition);
  }
  clause(): string {
    return this.where.length ? `WHERE ${this.where.join(' AND ')}` : '';
  }
}

function filtersOf(q: TListingsQueryParsed): SqlBuilder {
  const b = new SqlBuilder();
  if (q.status !== 'any') b.add(`l.status = ${b.param(q.status)}::"ListingStatus"`);
  if (q.city !== undefined) b.add(`l.city_key = ${b.param(matchKey(q.city))}`);
  if (q.neighborhood !== undefined) b.add(`l.neighborhood_key = ${b.param(matchKey(q.neighborhood))}`);
  if (q.type !== undefined) b.add(`l.type = ${b.param(q.type)}::"PropertyType"`);
  if (q.purpose !== undefined) b.add(`l.purpose = ${b.param(q.purpose)}::"Purpose"`);
  if (q.min_price !== undefined) b.add(`l.price >= ${b.param(q.min_price)}`);
  if (q.max_price !== undefined) b.add(`l.price <= ${b.param(q.max_price)}`);
  if (q.min_surface !== undefined) b.add(`l.surface >= ${b.param(q.min_surface)}`);
  if (q.max_surface !== undefined) b.add(`l.surface <= ${b.param(q.max_surface)}`);
  if (q.min_bedrooms !== undefined) b.add(`l.bedrooms >= ${b.param(q.min_bedrooms)}`);
  if (q.min_bathrooms !== undefined) b.add(`l.bathrooms >= ${b.param(q.min_bathrooms)}`);
  if (q.listed_after !== undefined) b.add(`l.listed_at >= ${b.param(instant(q.listed_after))}`);
  if (q.updated_after !== undefined) b.add(`l.updated_at > ${b.param(instant(q.updated_after))}`);
  return b;
}

/** What a cursor is bound to: every filter and the sort, not the page size. */
function boundFilters(q: TListingsQueryParsed): Record<string, unknown> {
  const { limit: _limit, cursor: _cursor, ...rest } = q;
  const bound: Record<string, unknown> = { ...rest };
  if (rest.city !== undefined) bound.city = matchKey(rest.city);
  if (rest.neighborhood !== undefined) bound.neighborhood = matchKey(rest.neighborhood);
  return bound;
}

export async function searchListings(
  pool: pg.Pool,
  cursors: CursorCodec,
  q: TListingsQueryParsed,
): Promise<SearchResult> {
  const sort = SORTS[q.sort];
  const bound = boundFilters(q);
  const position = q.cursor !== undefined ? cursors.decode(q.cursor, bound) : null;

  const page = filtersOf(q);
  if (position) {
    const value = sort.column === 'price' ? Number(position.value) : new Date(String(position.value));
    if (sort.column === 'price' ? !Number.isFinite(value) : Number.isNaN((value as Date).getTime())) {
      // Signed, so only a server-side change of format could lead here.
      throw new Error('cursor position unreadable');
    }
    page.add(`(l.${sort.column}, l.id) ${sort.desc ? '<' : '>'} (${page.param(value)}, ${page.param(position.id)})`);
  }
  const direction = sort.desc ? 'DESC' : 'ASC';
  const sql = `SELECT ${PUBLIC_COLUMNS} FROM listings l ${page.clause()}
    ORDER BY l.${sort.column} ${direction}, l.id ${direction} LIMIT ${page.param(q.limit + 1)}`;

  const countQuery = position ? null : filtersOf(q);
  const [rowsResult, total] = await Promise.all([
    pool.query<PublicRow & { price: string }>(sql, page.params),
    countQuery
      ? pool
          .query<{ n: string }>(`SELECT count(*) AS n FROM listings l ${countQuery.clause()}`, countQuery.params)
          .then((r) => Number(r.rows[0].n))
      : Promise.resolve(position!.total),
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
  return { data: pageRows.map(toListing), total, nextCursor };
}
