/**
 * The API's values, as plain TypeScript: parameters, bodies, enums and error bodies.
 * Generated from the contract (`contract/router.ts` and its zod schemas) into
 * `generated/types.ts` by `npm run generate:sdk`, so the published `.d.ts` needs neither
 * zod nor ts-rest; `test/sdk/generated.test.ts` fails when that file is not what the
 * contract generates.
 */
export type * from './generated/types.js';
