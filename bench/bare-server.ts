/**
 * The baseline of the hot-path benchmark: a bare `node:http` + `pg` server that runs the
 * same SQL as Mboa with the same row mapping and JSON envelope (it calls the very same
 * query functions), and nothing else: no framework, no key, no plan, no rate limit, no
 * quota, no validation, no cache (search counts its total on every page 1, a history of
 * an area is computed on every call). Valuations parse their query with the contract's
 * schema (the subject's rules live there) and use a model fitted at start. What Mboa's
 * throughput is measured against.
 *
 *   DATABASE_URL=postgresql://… PORT=3999 node --import tsx bench/bare-server.ts
 */
import { createServer } from 'node:http';
import type { TListingsQueryParsed } from '../contract/schemas.js';
import { live } from '../server/domain/listing/dataset.js';
import { openDatabase } from '../server/platform/db.js';
import { CursorCodec } from '../server/api/listings/cursor.js';
import { getListing } from '../server/api/listings/detail.js';
import { effectiveFilters } from '../server/domain/listing/filters.js';
import { searchListings } from '../server/api/listings/search.js';
import { marketStats, marketTrends } from '../server/domain/market/query.js';
import { marketHistory } from '../server/domain/market/history.js';
import { fitModel } from '../server/domain/valuations/sql.js';
import { valuation } from '../server/domain/valuations/valuation.js';
import { HISTORY_DEFAULT_MONTHS, type THistoryQueryParsed } from '../contract/history.js';
import { ZValuationQuery } from '../contract/valuations.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const db = openDatabase(url, { max: Number(process.env.DB_POOL_MAX ?? 10) });
const data = live(db.pool);
// Fitted before the server listens, as Mboa fits its own before its valuations answer.
const model = await fitModel(data);
const cursors = new CursorCodec('bare-server-cursor-secret-0123456789');
const meta = () => ({
  quota: { plan: 'enterprise', limit: null, used: 0, remaining: null, resets_at: '2026-12-01T00:00:00.000Z' },
  request_id: 'req_bare',
});

function searchQuery(p: URLSearchParams): TListingsQueryParsed {
  const num = (name: string) => (p.has(name) ? Number(p.get(name)) : undefined);
  const str = (name: string) => p.get(name) ?? undefined;
  return {
    city: str('city'),
    neighborhood: str('neighborhood'),
    type: str('type') as TListingsQueryParsed['type'],
    purpose: str('purpose') as TListingsQueryParsed['purpose'],
    min_price: num('min_price'),
    max_price: num('max_price'),
    min_surface: num('min_surface'),
    max_surface: num('max_surface'),
    min_bedrooms: num('min_bedrooms'),
    min_bathrooms: num('min_bathrooms'),
    listed_after: str('listed_after'),
    updated_after: str('updated_after'),
    status: (str('status') ?? 'active') as TListingsQueryParsed['status'],
    sort: (str('sort') ?? '-listed_at') as TListingsQueryParsed['sort'],
    limit: num('limit') ?? 20,
    cursor: str('cursor'),
    currency: 'XAF',
    ...geoQuery(p),
  } as TListingsQueryParsed;
}

/** `near`, `radius_m` and `bbox` as the contract parses them (the bench sends valid ones only). */
function geoQuery(p: URLSearchParams): Pick<TListingsQueryParsed, 'near' | 'radius_m' | 'bbox'> {
  const nums = (name: string) => p.get(name)?.split(',').map(Number);
  const near = nums('near');
  const box = nums('bbox');
  return {
    near: near ? { lat: near[0], lng: near[1] } : undefined,
    radius_m: p.has('radius_m') ? Number(p.get('radius_m')) : undefined,
    bbox: box ? { minLng: box[0], minLat: box[1], maxLng: box[2], maxLat: box[3] } : undefined,
  };
}

function send(res: import('node:http').ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

const server = createServer((req, res) => {
  const { pathname, searchParams } = new URL(req.url ?? '/', 'http://bare');
  const params = Object.fromEntries(searchParams) as Record<string, string>;
  const answer = async () => {
    if (pathname === '/api/v1/ping') {
      return send(res, 200, { data: { status: 'ok', time: new Date().toISOString(), version: 'bare' }, meta: meta() });
    }
    if (pathname === '/api/v1/listings') {
      const query = searchQuery(searchParams);
      const result = await searchListings(data, cursors, query, effectiveFilters(query));
      return send(res, 200, {
        data: result.data,
        meta: {
          total: result.total,
          returned: result.data.length,
          limit: query.limit,
          next_cursor: result.nextCursor,
          has_more: result.nextCursor !== null,
          ...meta(),
        },
      });
    }
    if (pathname.startsWith('/api/v1/listings/')) {
      const listing = await getListing(data, pathname.slice('/api/v1/listings/'.length), 'XAF');
      return listing ? send(res, 200, { data: listing, meta: meta() }) : send(res, 404, { code: 'not_found' });
    }
    if (pathname === '/api/v1/market/stats') {
      const query = { ...params, currency: 'XAF' as const };
      const rows = await marketStats(data, query, effectiveFilters(query));
      return send(res, 200, { data: rows, meta: { total: rows.length, returned: rows.length, ...meta() } });
    }
    if (pathname === '/api/v1/market/trends') {
      const query = { ...params, currency: 'XAF' as const };
      const rows = await marketTrends(data, query, effectiveFilters(query));
      return send(res, 200, { data: rows, meta: { total: rows.length, returned: rows.length, ...meta() } });
    }
    if (pathname === '/api/v1/market/history') {
      const num = (name: string) => (searchParams.has(name) ? Number(searchParams.get(name)) : undefined);
      const query = {
        city: params.city,
        neighborhood: params.neighborhood,
        ...geoQuery(searchParams),
        purpose: params.purpose,
        type: params.type,
        bedrooms: num('bedrooms'),
        months: num('months') ?? HISTORY_DEFAULT_MONTHS,
        currency: 'XAF',
      } as THistoryQueryParsed;
      const filters = effectiveFilters({ city: query.city, neighborhood: query.neighborhood, near: query.near, radius_m: query.radius_m });
      const rows = await marketHistory(data, query, filters);
      return send(res, 200, { data: rows, meta: { total: rows.length, returned: rows.length, ...meta() } });
    }
    if (pathname === '/api/v1/valuations') {
      const q = ZValuationQuery.parse(params);
      const body = await valuation(data, q, effectiveFilters({ city: q.city, neighborhood: q.neighborhood }), model);
      return send(res, 200, { data: body, meta: meta() });
    }
    send(res, 404, { code: 'not_found' });
  };
  answer().catch((err: Error) => send(res, 500, { code: 'internal_error', detail: err.message }));
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 3999), '127.0.0.1', () => {
  process.stdout.write(`bare server on http://127.0.0.1:${Number(process.env.PORT ?? 3999)}\n`);
});
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void db.close().then(() => process.exit(0));
});
