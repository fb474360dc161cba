/**
 * The places Mboa covers, as types (`KnownCity`, `City`, `NeighborhoodsByCity`,
 * `KnownNeighborhood`, `Neighborhood`): generated from the contract's catalogue
 * (`contract/places.ts`) into `generated/places.ts` by `npm run generate:sdk`.
 */
export type * from './generated/places.js';
