/**
 * `GET /market/history`: JSON by default; CSV (a header row, one line per month) when the
 * caller's `Accept` prefers `text/csv`, for loading straight into a spreadsheet. Both are
 * counted alike; both go through the dataset's cache (the figures change only with the data).
 * An area around `near` is computed for the point and radius rounded to a grid
 * (market/area-grid.ts), which the answer states.
 */
import type { contract } from '../../../contract/router.js';
import { historyCsvOf } from '../../../contract/history.js';
import { callMeta } from '../context.js';
import type { RouteHandler } from '../handler.js';
import { marketHistory } from '../../domain/market/history.js';
import { areaHeader, areaHistoryKey, areaOf } from '../../domain/market/area-grid.js';

/** Whether the caller asks for CSV: `text/csv` listed in Accept before any JSON type. */
function wantsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  for (const part of accept.split(',')) {
    const type = part.split(';')[0].trim().toLowerCase();
    if (type === 'text/csv') return !/;\s*q=0(\.0*)?\s*$/.test(part);
    if (type === 'application/json' || type === '*/*' || type === 'application/*') return false;
  }
  return false;
}

export const history: RouteHandler<typeof contract.market.history> = async ({ query, filters, reader, ctx, req, res }) => {
  const area = areaOf(query);
  const key = area
    ? areaHistoryKey(query, area)
    : `history:${query.currency}:${filters.cityKey}:${filters.neighborhoodKey ?? '-'}:${filters.subNeighborhood ?? '-'}:${query.purpose}:${query.type ?? '-'}:${query.bedrooms ?? '-'}:${query.months}`;
  const asked = area ? { ...query, near: { lat: area.lat, lng: area.lng }, radius_m: area.radius_m } : query;
  const data = await reader.cached(key, () => marketHistory(reader.data, asked, filters));
  if (area) ctx.headers!.setHeader('X-Mboa-Area', areaHeader(area));
  if (wantsCsv(req.headers.accept)) {
    const csv = historyCsvOf(data);
    ctx.headers!.writeHead(res, 200, 'Content-Type', 'text/csv; charset=utf-8', 'Content-Length', String(Buffer.byteLength(csv)));
    res.end(csv);
    return { status: 'streamed' };
  }
  const meta = { total: data.length, returned: data.length, ...(area ? { area } : {}), ...callMeta(ctx) };
  return { status: 200 as const, body: { data, meta } };
};
