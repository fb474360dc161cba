/**
 * Suites that need something beyond the database (Redis, Chromium, a PostgreSQL server
 * rather than the embedded one). Locally they are skipped, saying what is missing; in CI
 * (`MBOA_TEST_REQUIRE_ALL=1`, set by .ci/run) a missing requirement is a failure, so a
 * suite can never vanish from a green run.
 */
import { describe, it } from 'vitest';

type TestFn = (name: string, fn: () => unknown, timeout?: number) => void;
type SuiteFn = (name: string, fn: () => void) => void;

const strict = () => process.env.MBOA_TEST_REQUIRE_ALL === '1';
const missing = (requirement: string) => () => {
  throw new Error(`needs ${requirement}, which is missing (MBOA_TEST_REQUIRE_ALL=1 forbids skipping)`);
};

export function itWhen(available: boolean, requirement: string): TestFn {
  if (available) return (name, fn, timeout) => it(name, fn, timeout);
  if (!strict()) return (name, fn) => it.skip(`${name} (needs ${requirement})`, fn);
  return (name) => it(name, missing(requirement));
}

export function describeWhen(available: boolean, requirement: string): SuiteFn {
  if (available) return (name, fn) => describe(name, fn);
  if (!strict()) return (name, fn) => describe.skip(`${name} (needs ${requirement})`, fn);
  return (name) => describe(name, () => it('has what it needs', missing(requirement)));
}
