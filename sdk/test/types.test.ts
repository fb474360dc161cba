/**
 * The SDK's types, generated from the contract (`npm run generate:sdk`), must equal the
 * contract's inferred ones: this proves the generator right, as `test/sdk/generated.test.ts`
 * proves the committed files fresh. The assertions are checked by the compiler
 * (`tsc -p sdk/tsconfig.json`); the test below runs that compiler, so `vitest` fails too.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type * as C from '../../contract/index.js';
import type * as S from '../src/types.js';
import type { ListingExportParams } from '../src/export-types.js';
import type { City, KnownCity, KnownNeighborhood, Neighborhood, NeighborhoodsByCity } from '../src/places.js';

/** Exact type equality (not mere assignability): optional vs required, extra keys, `null`s all count. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when `T` is `true`. */
type Assert<T extends true> = T;
/**
 * The SDK types `city` as `City` and `neighborhood` as `Neighborhood` (the known places,
 * suggested by editors, or any string); the contract as `string`. Apart from that the
 * parameters must be equal.
 */
type PlainCity<T> = { [K in keyof T]: K extends 'city' | 'neighborhood' ? string | undefined : T[K] };

export type Checks = [
  Assert<Equal<S.PropertyType, C.TListing['type']>>,
  Assert<Equal<S.Purpose, C.TListing['purpose']>>,
  Assert<Equal<S.ListingStatus, C.TListing['status']>>,
  Assert<Equal<S.ListingSort, (typeof C.LISTING_SORTS)[number]>>,
  Assert<Equal<S.LandTitle, NonNullable<C.TListing['land_title']>>>,
  Assert<Equal<S.PlanName, C.PlanName>>,
  Assert<Equal<S.Currency, C.Currency>>,
  Assert<Equal<S.ErrorCode, C.ErrorCode>>,
  Assert<Equal<S.Listing, C.TListing>>,
  Assert<Equal<S.PriceChange, C.TPriceChange>>,
  Assert<Equal<S.ListingDetail, C.TListingDetail>>,
  Assert<Equal<S.Quota, C.TQuota>>,
  Assert<Equal<S.SingleMeta, C.TSingleMeta>>,
  Assert<Equal<S.PageMeta, C.TPageMeta>>,
  Assert<Equal<S.CollectionMeta, C.TCollectionMeta>>,
  Assert<Equal<S.ListingSearchResponse, C.TListingsPage>>,
  Assert<Equal<S.ListingResponse, C.TListingResponse>>,
  Assert<Equal<S.MarketStat, C.TMarketStat>>,
  Assert<Equal<S.MarketTrend, C.TMarketTrend>>,
  Assert<Equal<S.MarketStatsResponse, C.TStatsResponse>>,
  Assert<Equal<S.MarketTrendsResponse, C.TTrendsResponse>>,
  Assert<Equal<S.Ping, C.TPing>>,
  Assert<Equal<S.PingResponse, C.TPingResponse>>,
  Assert<Equal<PlainCity<S.ListingSearchParams>, C.TListingsQuery>>,
  Assert<Equal<S.ListingGetParams, C.TListingQuery>>,
  Assert<Equal<S.ListingGetPathParams, z.input<typeof C.ZListingParams>>>,
  Assert<Equal<PlainCity<S.MarketStatsParams>, C.TStatsQuery>>,
  Assert<Equal<PlainCity<S.MarketTrendsParams>, C.TTrendsQuery>>,
  // The bulk export takes the search's filters (typed from the search's, so alike), without
  // sort and paging, plus currency and after.
  Assert<Equal<keyof ListingExportParams, Exclude<keyof C.TListingsQuery, 'sort' | 'limit' | 'cursor'> | 'currency' | 'after'>>,
  Assert<Equal<PlainCity<ListingExportParams>, C.TExportQuery>>,
  // Any string is a City or a Neighborhood, and every known one is one.
  Assert<string extends City ? true : false>,
  Assert<KnownCity extends City ? true : false>,
  Assert<string extends Neighborhood ? true : false>,
  Assert<KnownNeighborhood extends Neighborhood ? true : false>,
  // The known places are literals, not `string` (which would hide the suggestions).
  Assert<string extends KnownCity ? false : true>,
  Assert<string extends KnownNeighborhood ? false : true>,
  Assert<Equal<keyof NeighborhoodsByCity, KnownCity>>,
  Assert<Equal<S.ListingStatus | 'any', NonNullable<ListingExportParams['status']>>>,
  Assert<Equal<S.FieldError, C.TFieldError>>,
  Assert<Equal<S.ProblemMeta, C.TProblemMeta>>,
  Assert<Equal<S.Problem, C.TProblem>>,
];

describe('SDK types', () => {
  // tsconfig.build.json: the published sources without Node types; tsconfig.json: with
  // the tests, hence the assertions above.
  it.each(['tsconfig.build.json', 'tsconfig.json'])(
    'type-check under %s (types equal the contract)',
    (config) => {
      const tsc = fileURLToPath(new URL('../../node_modules/.bin/tsc', import.meta.url));
      const project = fileURLToPath(new URL(`../${config}`, import.meta.url));
      let output = '';
      try {
        execFileSync(tsc, ['-p', project, '--noEmit', '--pretty', 'false'], { encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        output = String((err as { stdout?: string }).stdout ?? err);
      }
      expect(output).toBe('');
    },
    60_000,
  );
});
