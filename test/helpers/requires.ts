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

/**
 * Tests that need a PostgreSQL server rather than the embedded database (several
 * databases, server processes, a backend per connection). Under the embedded database
 * they are skipped, saying `reason`, even in CI: `.ci/run` runs them in its runs on a
 * server, and its embedded run is there for what the embedded database itself must do.
 */
const embedded = () => process.env.MBOA_TEST_EMBEDDED === '1';

export function itOnServer(reason: string): TestFn {
  if (!embedded()) return (name, fn, timeout) => it(name, fn, timeout);
  return (name, fn) => it.skip(`${name} (PostgreSQL server only: ${reason})`, fn);
}

export function describeOnServer(reason: string): SuiteFn {
  if (!embedded()) return (name, fn) => describe(name, fn);
  return (name, fn) => describe.skip(`${name} (PostgreSQL server only: ${reason})`, fn);
}
