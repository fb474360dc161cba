/**
 * Real processes for the start-up tests: the compiled server under plain node, npm
 * scripts, the operator CLI. Output is collected; waits are bounded.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Running {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in the output so far or to come. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function run(command: string, args: string[], env: Record<string, string | undefined>): Running {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    output: () => out,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = out.match(pattern);
          if (m) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no ${pattern} in ${timeoutMs} ms; output:\n${out}`));
        }, timeoutMs);
        listeners.add(check);
        check();
        void exit.then(() =>
          setTimeout(() => {
            if (listeners.has(check)) {
              listeners.delete(check);
              clearTimeout(timer);
              reject(new Error(`exited before ${pattern}; output:\n${out}`));
            }
          }, 50),
        );
      });
    },
    exited(timeoutMs = 30_000) {
      return Promise.race([
        exit,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`still running after ${timeoutMs} ms; output:\n${out}`)), timeoutMs),
        ),
      ]);
    },
  };
}

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // Build outputs among the sources (the explorer's bundle, which its tests rebuild) are
    // not sources: counting them would rebuild dist/ mid-run under the files using it.
    if (entry.name === 'generated' || entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

/**
 * `npm run build`, unless dist/ is newer than every source it is built from. Test files run
 * side by side: one builds while the others wait on a lock file (the build empties dist/
 * first, so none may start a server from it meanwhile), then find dist/ fresh.
 */
export function ensureBuilt(): void {
  const lock = join(ROOT, '.build.lock');
  const started = Date.now();
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      // A lock older than any build is one a killed run left behind.
      if (Date.now() - started > 300_000) rmSync(lock, { force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    buildIfStale();
  } finally {
    rmSync(lock, { force: true });
  }
}

function buildIfStale(): void {
  const main = join(ROOT, 'dist/server/start/main.js');
  let built: number;
  try {
    built = statSync(main).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = Math.max(...['server', 'contract', 'prisma'].map((d) => newest(join(ROOT, d))));
  if (built > sources) return;
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}${result.stderr}`);
}
