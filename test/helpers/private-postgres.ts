/**
 * A throw-away PostgreSQL cluster of a test's own (initdb in a temporary directory, on a
 * free port), which the test may kill outright and start again on the same port and
 * data: what a server sees when its database crashes and recovers. Never the shared one.
 *
 * initdb and postgres refuse to run as root: as root they run as the `postgres` user
 * (setpriv, which execs, so the child is the postmaster itself), in a directory it owns.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, KillableProcess } from './killable-process.js';

/** The newest PostgreSQL's bin directory under /usr/lib/postgresql, or null. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

export function postgresUser(): { uid: number; gid: number } | null {
  try {
    const line = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!line) return null;
    const [, , uid, gid] = line.split(':');
    return { uid: Number(uid), gid: Number(gid) };
  } catch {
    return null;
  }
}

const asRoot = () => process.getuid?.() === 0;

/** Whether this machine can run a private cluster (binaries, and a user to run them as when we are root). */
export function canRunPrivatePostgres(): boolean {
  if (!postgresBinDir()) return false;
  if (!asRoot()) return true;
  return postgresUser() !== null && spawnSync('setpriv', ['--version']).status === 0;
}

/** The command line, run as the postgres user when we are root. */
export function command(bin: string, args: string[]): [string, string[]] {
  if (!asRoot()) return [bin, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', '--', bin, ...args]];
}

export interface PrivatePostgres {
  port: number;
  /** `postgresql://postgres@127.0.0.1:<port>/<database>`. */
  url(database?: string): string;
  /** SIGKILL to the postmaster and every backend at once (its process group): a crash, no shutdown. */
  kill(): Promise<void>;
  /** Starts it (again) on the same port and data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  destroy(): Promise<void>;
  /** What the postmaster printed (for failure messages). */
  output(): string;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  const dir = mkdtempSync(join(tmpdir(), 'mboa-pg-'));
  const user = asRoot() ? postgresUser() : null;
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const [initdb, initArgs] = command(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  const init = spawnSync(initdb, initArgs, { encoding: 'utf8', cwd: dir });
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);
  }
  const port = await freePort();
  const url = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  // A process group of its own, so one signal reaches the postmaster and every backend.
  const postgres = new KillableProcess(
    () =>
      command(join(bin, 'postgres'), [
        '-D',
        data,
        '-p',
        String(port),
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        // A throw-away cluster: no fsync (a killed process loses nothing the kernel already has).
        '-c',
        'fsync=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=60',
        '-c',
        'shared_buffers=32MB',
      ]),
    { cwd: dir, group: true },
  );

  const start = async (): Promise<void> => {
    postgres.spawn();
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = new pg.Client({ connectionString: url(), connectionTimeoutMillis: 1_000 });
      try {
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return;
      } catch {
        await client.end().catch(() => {});
        if (postgres.gone) {
          // Right after a crash the old backends may still hold shared memory for a moment: try again.
          if (Date.now() > deadline) throw new Error(`postgres exited:\n${postgres.output()}`);
          await new Promise((r) => setTimeout(r, 200));
          return start();
        }
        if (Date.now() > deadline) throw new Error(`postgres not ready in 30 s:\n${postgres.output()}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  await start();
  return {
    port,
    url,
    kill: () => postgres.kill(),
    start,
    output: () => postgres.output(),
    async destroy() {
      await postgres.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
