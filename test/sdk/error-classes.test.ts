/**
 * Every problem code of the contract has its own SDK error class: exported by name from
 * `@mboa/sdk`, mapped in `ERROR_CLASSES`, and listed in the SDK README's table of errors.
 * A code added to `contract/errors.ts` fails here until the SDK and its README name it.
 */
import { readFileSync } from 'node:fs';
import * as sdk from '@mboa/sdk';
import { describe, expect, it } from 'vitest';
import { ERROR_CODE_NAMES, ERROR_CODES } from '../../contract/errors.js';

const readme = readFileSync(new URL('../../sdk/README.md', import.meta.url), 'utf8');
/** The rows of the README's table under `## Errors`: class name → the codes the row names. */
const table = new Map(
  readme
    .slice(readme.indexOf('## Errors'))
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [, cls, , codes] = line.split('|').map((cell) => cell.trim());
      return [/^`(\w+)`/.exec(cls)![1], [...codes.matchAll(/`(\w+)`/g)].map((m) => m[1])] as const;
    }),
);

describe('an SDK error class per contract error code', () => {
  it('maps exactly the contract codes', () => {
    expect(Object.keys(sdk.ERROR_CLASSES).sort()).toEqual([...ERROR_CODE_NAMES].sort());
  });

  it.each(ERROR_CODE_NAMES)('%s has a class of its own, exported and in the README table', (code) => {
    const Class = sdk.ERROR_CLASSES[code];
    expect((sdk as Record<string, unknown>)[Class.name], `${Class.name} is exported`).toBe(Class);
    const others = ERROR_CODE_NAMES.filter((c) => c !== code).map((c) => sdk.ERROR_CLASSES[c]);
    expect(others, 'no other code shares it').not.toContain(Class);
    expect(table.get(Class.name), `README row of ${Class.name}`).toContain(code);
    const error = sdk.APIError.generate(ERROR_CODES[code].status, problemOf(code), {});
    expect(error).toBeInstanceOf(Class);
    expect(error.name).toBe(Class.name);
  });
});

function problemOf(code: (typeof ERROR_CODE_NAMES)[number]) {
  const { status, title } = ERROR_CODES[code];
  return { type: `https://docs.mboa.cm/errors/${code}`, title, status, detail: 'x', code, meta: { request_id: 'req_1' } };
}
