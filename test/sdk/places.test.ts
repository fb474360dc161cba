/**
 * The SDK's `KnownCity` type is written out by hand (the published package cannot import
 * the server's contract): it must list exactly the contract's cities.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { CITY_NAMES } from '../../contract/places.js';

it("the SDK's KnownCity lists exactly the contract's cities", () => {
  const source = readFileSync(new URL('../../sdk/src/places.ts', import.meta.url), 'utf8');
  const union = /export type KnownCity =([^;]+);/.exec(source)?.[1] ?? '';
  const names = [...union.matchAll(/'([^']+)'/g)].map((m) => m[1]);
  expect(names.length).toBeGreaterThan(0);
  expect(names).toEqual([...CITY_NAMES]);
});
