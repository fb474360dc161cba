/**
 * The zero-setup database: PostgreSQL compiled to WebAssembly (PGlite), kept in the data
 * directory and served on a loopback port so the same pg / Prisma code path runs on it.
 * While a server runs, `<data dir>/embedded.json` tells other processes (the admin CLI)
 * where to connect, because two processes must never open the same PGlite directory.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

const STATE_FILE = 'embedded.json';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The URL of an embedded database another live process is serving, if any. */
export function runningEmbeddedUrl(dataDir: string): string | null {
  const file = join(dataDir, STATE_FILE);
  if (!existsSync(file)) return null;
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { pid: number; url: string };
    return state.pid !== process.pid && isAlive(state.pid) ? state.url : null;
  } catch {
    return null;
  }
}

export async function startEmbeddedPostgres(dataDir: string, options: { announce?: boolean } = {}): Promise<EmbeddedPostgres> {
  const other = runningEmbeddedUrl(dataDir);
  if (other) {
    throw new Error(
      `the embedded database in ${dataDir} is already served by another process (${other}); stop it first or set DATABASE_URL`,
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(join(dataDir, 'pgdata'));
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
  await server.start();
  const conn = server.getServerConn();
  const url = `postgresql://postgres@${conn}/postgres?sslmode=disable`;
  const stateFile = join(dataDir, STATE_FILE);
  if (options.announce !== false) writeFileSync(stateFile, JSON.stringify({ pid: process.pid, url }));
  return {
    url,
    async stop() {
      await server.stop();
      await db.close();
      if (options.announce !== false) rmSync(stateFile, { force: true });
    },
  };
}
