/**
 * Every route declares what the front door resolves for it (its contract metadata's
 * `inputs`), and receives only that: a route whose query names places has them checked, and
 * its filters carry its own default radius, not another route's.
 */
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { ZodEffects, ZodObject, type ZodTypeAny } from 'zod';
import { describe, expect, it } from 'vitest';
import { RADIUS_DEFAULT_M } from '../../contract/geo.js';
import { HISTORY_RADIUS_DEFAULT_M, ZHistoryQuery } from '../../contract/history.js';
import { contract, type RouteMetadata } from '../../contract/router.js';
import { ZListingsQuery } from '../../contract/schemas.js';
import { effectiveFilters } from '../../server/domain/listing/filters.js';

function routes(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((node) => (isAppRoute(node) ? [node] : routes(node as AppRouter)));
}
function parameters(route: AppRoute): string[] {
  let schema = route.query as ZodTypeAny | null | undefined;
  while (schema instanceof ZodEffects) schema = schema.innerType() as ZodTypeAny;
  return schema instanceof ZodObject ? Object.keys(schema.shape as object) : [];
}

describe('route inputs', () => {
  it('every route whose query names a place declares its places checked, and no other route does', () => {
    const all = routes(contract);
    expect(all.length).toBeGreaterThan(5);
    for (const route of all) {
      const names = parameters(route);
      const takesPlaces = names.includes('city') || names.includes('neighborhood');
      const inputs = (route.metadata as RouteMetadata).inputs;
      expect(inputs !== undefined, `${route.method} ${route.path}`).toBe(takesPlaces);
    }
  });

  it("a history's `near` reaches the history's default radius, a search's the search's", () => {
    const history = routes(contract).find((r) => r.path.endsWith('/market/history'))!;
    const search = routes(contract).find((r) => r.path.endsWith('/listings') && r.method === 'GET')!;
    const historyInputs = (history.metadata as RouteMetadata).inputs!;
    const searchInputs = (search.metadata as RouteMetadata).inputs!;
    expect(historyInputs.radiusDefault).toBe(HISTORY_RADIUS_DEFAULT_M);
    expect(searchInputs.radiusDefault).toBe(RADIUS_DEFAULT_M);
    expect(HISTORY_RADIUS_DEFAULT_M).not.toBe(RADIUS_DEFAULT_M);
    const h = ZHistoryQuery.parse({ city: 'Douala', purpose: 'rent', near: '4.05,9.7' });
    expect(effectiveFilters({ near: h.near }, historyInputs.radiusDefault).radiusM).toBe(HISTORY_RADIUS_DEFAULT_M);
    const s = ZListingsQuery.parse({ near: '4.05,9.7' });
    expect(effectiveFilters(s, searchInputs.radiusDefault).radiusM).toBe(RADIUS_DEFAULT_M);
  });
});
