/**
 * Once per `vitest run`: rebuilds the SDK when a source is newer than sdk/dist, so the
 * suites and examples that import `@mboa/sdk` (the built package, as customers get it)
 * never run against a stale build.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function setup() {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  try {
    execFileSync(process.execPath, ['scripts/build-sdk.mjs', '--if-stale'], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`Building @mboa/sdk failed:\n${e.stdout ?? ''}${e.stderr ?? ''}${e.message}`, { cause: err });
  }
}
