/**
 * A real streaming replica of a private cluster (private-postgres.ts): pg_basebackup of the
 * primary into a temporary directory (`-R`: standby.signal and primary_conninfo written),
 * then a hot standby on a free port replaying the primary's WAL as it streams. Read-only by
 * construction: any write sent to it fails. The test may pause its replay (a lagging replica),
 * resume it, or kill it outright (a lost replica).
 */
import { spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, KillableProcess } from './killable-process.js';
import { command, postgresBinDir, postgresUser, type PrivatePostgres } from './private-postgres.js';

export interface PrivateReplica {
  port: number;
  url(database?: string): string;
  /** One query on the replica (e.g. its replay position). */
  query<T extends pg.QueryResultRow>(sql: string, database?: string): Promise<T[]>;
  /** Until the replica has replayed everything the primary has written so far. */
  caughtUp(primary: PrivatePostgres): Promise<void>;
  kill(): Promise<void>;
  destroy(): Promise<void>;
}

async function oneQuery<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await c.connect();
  try {
    return (await c.query<T>(sql)).rows;
  } finally {
    await c.end();
  }
}

export async function startStreamingReplica(primary: PrivatePostgres): Promise<PrivateReplica> {
  const bin = postgresBinDir()!;
  const dir = mkdtempSync(join(tmpdir(), 'mboa-replica-'));
  const user = process.getuid?.() === 0 ? postgresUser() : null;
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  const [backup, backupArgs] = command(join(bin, 'pg_basebackup'), [
    ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data],
    ...['-X', 'stream', '-R', '--no-sync', '--checkpoint=fast'],
  ]);
  const copied = spawnSync(backup, backupArgs, { encoding: 'utf8', cwd: dir });
  if (copied.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`pg_basebackup failed:\n${copied.stdout}${copied.stderr}`);
  }
  const port = await freePort();
  const url = (database = 'postgres') => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const postgres = new KillableProcess(
    () =>
      command(join(bin, 'postgres'), [
        ...['-D', data, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
        ...['-c', 'fsync=off', '-c', 'max_connections=60', '-c', 'shared_buffers=32MB', '-c', 'hot_standby=on'],
      ]),
    { cwd: dir, group: true },
  );
  postgres.spawn();
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await oneQuery(url(), 'SELECT 1');
      break;
    } catch {
      if (postgres.gone || Date.now() > deadline) throw new Error(`replica not ready:\n${postgres.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const replica: PrivateReplica = {
    port,
    url,
    query: (sql, database) => oneQuery(url(database), sql),
    async caughtUp(p) {
      const [{ lsn }] = await oneQuery<{ lsn: string }>(p.url(), 'SELECT pg_current_wal_lsn()::text AS lsn');
      const until = Date.now() + 15_000;
      for (;;) {
        const [{ behind }] = await oneQuery<{ behind: boolean }>(
          url(),
          `SELECT coalesce(pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn, true) AS behind`,
        );
        if (!behind) return;
        if (Date.now() > until) throw new Error(`replica did not replay up to ${lsn} in 15 s:\n${postgres.output()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    kill: () => postgres.kill(),
    async destroy() {
      await postgres.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return replica;
}
