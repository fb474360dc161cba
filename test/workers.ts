/**
 * How many test files run at once (vitest's workers), each on a database and a Redis
 * database of its own. MBOA_TEST_WORKERS overrides; 1 runs the files one after another.
 */
export function testWorkers(): number {
  const set = process.env.MBOA_TEST_WORKERS;
  if (set === undefined || set === '') return 3;
  const n = Number(set);
  if (!Number.isInteger(n) || n < 1 || n > 15)
    throw new Error(`MBOA_TEST_WORKERS must be a whole number from 1 to 15, not ${JSON.stringify(set)}`);
  return n;
}
