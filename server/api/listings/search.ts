/**
 * Listing search with keyset pagination: `(sort_key, id) > / < (last row)` on an index
 * that starts with the same columns, so page N costs what page 1 costs. The exact total
 * is counted on page 1 only and travels in the cursor.
 */
import { type Dataset, table } from '../../domain/listing/dataset.js';
import type { TListing, TListingsQueryParsed } from '../../../contract/schemas.js';
import { ApiError } from '../../platform/errors.js';
import type { CursorCodec } from './cursor.js';
import { distanceSql, haversineOf } from '../../domain/listing/geo.js';
import { cellPageSql, geoCells, nearestPageSql, nearestWalkFits, nearestWalkWhere } from './geo-page.js';
import { canonicalFilters, type EffectiveFilters, listingFilterSql, type SqlConditions } from '../../domain/listing/filters.js';
import { PUBLIC_COLUMNS, type PublicRow, toListing } from '../../domain/listing/public-row.js';

type Sort = TListingsQueryParsed['sort'];

const SORTS_BY_DATE: ReadonlySet<Sort> = new Set(['-listed_at', 'listed_at']);

const SORTS: Record<Exclude<Sort, 'distance'>, { column: 'listed_at' | 'price' | 'updated_at'; desc: boolean }> = {
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

type OrderKind = 'listed_at' | 'price' | 'updated_at' | 'distance';

function orderOf(sort: { column: 'listed_at' | 'price' | 'updated_at'; desc: boolean }): { key: string; desc: boolean; kind: OrderKind } {
  return { key: `l.${sort.column}`, desc: sort.desc, kind: sort.column };
}

/** A cursor's sort value as the query compares it; signed, so only a change of format between versions could fail here. */
function decodeValue(kind: OrderKind, value: string | number): number | Date {
  const stale = () => new ApiError('invalid_cursor', 'The cursor is from another version of the API. Start again without `cursor`.');
  if (kind === 'price') {
    if (typeof value !== 'number') throw stale();
    return value;
  }
  if (kind === 'distance') {
    const d = typeof value === 'string' ? Number(value) : NaN;
    if (!Number.isFinite(d) || d < 0) throw stale();
    return d;
  }
  const date = new Date(String(value));
  if (Number.isNaN(date.getTime())) throw stale();
  return date;
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
  // What a cursor is bound to: the filters as applied and the sort; not the page size or currency.
  const bound = { ...canonicalFilters(filters), sort: q.sort };
  const position = q.cursor !== undefined ? cursors.decode(q.cursor, bound) : null;

  const geographic = filters.nearLat !== undefined || filters.bboxMinLat !== undefined;
  // A geographic page by date, of one status, walks the area's grid cells (geo-page.ts) when it touches few.
  const cells = geographic && SORTS_BY_DATE.has(q.sort) && filters.status !== undefined ? geoCells(filters) : null;
  const page = listingFilterSql(filters, 'l', undefined, true, cells === null);
  // Page 1 counts the matches under the filters alone (through the GiST index when geographic).
  const counted = position ? null : cells === null ? page : listingFilterSql(filters, 'l');
  const count = counted ? { where: counted.where(), params: [...counted.params] } : null;
  // With `near`: the exact distance (sort key of sort=distance) and distance_m, rounded by the database as the export does.
  const distance = distanceSql(filters, page);
  const order = q.sort === 'distance' ? { key: distance!, desc: false, kind: 'distance' as const } : orderOf(SORTS[q.sort]);
  let after: string | null = null;
  if (position) {
    const value = decodeValue(order.kind, position.value);
    after = `(${order.key}, l.id) ${order.desc ? '<' : '>'} (${page.param(value)}${order.kind === 'distance' ? '::float8' : ''}, ${page.param(position.id)})`;
    if (order.kind === 'distance') after = distanceAfter(after, filters, page);
    page.add(after);
  }
  const direction = order.desc ? 'DESC' : 'ASC';
  const listings = table(data, 'listings');
  const limit = page.param(q.limit + 1);
  // A geographic page is chosen first by id alone, by a plan that stops at the page when
  // it can (geo-page.ts: by date cell by cell, by distance nearest first), else from the
  // covering GiST index and a sort; then its rows are read.
  const parts = { listings, where: page.where(), direction, limit } as const;
  const hits =
    cells !== null
      ? cellPageSql(parts, cells, distance, page)
      : q.sort === 'distance' && nearestWalkFits(filters)
        ? nearestPageSql(
            parts,
            distance!,
            `listing_earth(${page.param(filters.nearLat)}::float8, ${page.param(filters.nearLng)}::float8)`,
            nearestWalkWhere(filters, page, after),
          )
        : `SELECT l.id, ${order.key} AS sort_key${distance ? `, ${distance} AS distance` : ''} FROM ${listings} l ${page.where()}
           ORDER BY ${order.key} ${direction}, l.id ${direction} LIMIT ${limit}`;
  const sql = geographic
    ? `WITH hits AS (${hits})
       SELECT ${PUBLIC_COLUMNS}${distance ? ', h.distance, round(h.distance)::int AS distance_m' : ''}
       FROM hits h JOIN ${listings} l ON l.id = h.id ORDER BY h.sort_key ${direction}, h.id ${direction}`
    : `SELECT ${PUBLIC_COLUMNS} FROM ${listings} l ${page.where()} ORDER BY ${order.key} ${direction}, l.id ${direction} LIMIT ${limit}`;

  const [rowsResult, total] = await Promise.all([
    data.pool.query<PublicRow & { price: string; distance?: number; distance_m?: number }>(sql, page.params),
    count ? countTotal(data, count.where, count.params, totals) : position!.total,
  ]);

  const rows = rowsResult.rows;
  const hasMore = rows.length > q.limit;
  const pageRows = hasMore ? rows.slice(0, q.limit) : rows;
  const last = pageRows.at(-1);
  const nextCursor =
    hasMore && last
      ? cursors.encode(bound, {
          // A distance travels as the text of the exact float8, which reads back as the same number.
          value:
            order.kind === 'distance'
              ? String(last.distance)
              : order.kind === 'price'
                ? Number(last.price)
                : (last[order.kind] as Date).toISOString(),
          id: last.id,
          total,
        })
      : null;
  const listing = (row: (typeof rows)[number]) =>
    row.distance_m === undefined ? toListing(row, q.currency) : { ...toListing(row, q.currency), distance_m: row.distance_m };
  return { data: pageRows.map(listing), total, nextCursor };
}

/**
 * A distance cursor's condition, the exact comparison of (distance, id) decided by the
 * plain haversine for the points more than a metre from the cursor's distance: the same
 * rows, without computing `earth_distance` for each of those before the position.
 */
function distanceAfter(exact: string, f: EffectiveFilters, sql: SqlConditions): string {
  const value = sql.params.length - 1; // the distance just bound, before the id
  const d = `$${value}::float8`;
  const hav = haversineOf(`${sql.param(f.nearLat)}::float8`, `${sql.param(f.nearLng)}::float8`, 'l');
  return `(${hav} > ${d} + 1 OR (${hav} >= ${d} - 1 AND ${exact}))`;
}
