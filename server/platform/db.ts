/**
 * The process's main pg pool, shared by Prisma (through its pg adapter) and the
 * hand-written SQL of accounts, quota, imports and the market refresh; and `openPool` for
 * the API's pools of reads (api/costs.ts), each with the statement timeout of its kind.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../../prisma/generated/client.js';

export type Prisma = PrismaClient;

export interface Database {
  pool: pg.Pool;
  prisma: PrismaClient;
  close(): Promise<void>;
}

export interface PoolOptions {
  max: number;
  /** PostgreSQL cancels any statement of this pool running longer (ms; none when absent). */
  statementTimeoutMs?: number;
  /** Longest wait for a free connection before the query fails (ms). */
  connectionTimeoutMs?: number;
  /** One process per statement: no parallel workers taking the cores other pools' reads need. */
  serial?: boolean;
}

/** A pool of `max` connections; its statements cancelled past `statementTimeoutMs` by the server itself. */
export function openPool(url: string, options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max,
    connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // Sent when each connection opens: no round trip per query.
    ...(options.statementTimeoutMs !== undefined ? { statement_timeout: options.statementTimeoutMs } : {}),
    ...(options.serial ? { options: '-c max_parallel_workers_per_gather=0' } : {}),
  });
  // An idle client losing its server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  // Nor a client checked out at that moment (a failover, a cut network): pg emits its 'error'
  // event with no listener of the pool's attached, which would end the process; the query in
  // flight is rejected with the same error, and that is what its caller handles.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export function openDatabase(url: string, options: { max?: number } = {}): Database {
  const pool = openPool(url, { max: options.max ?? 10 });
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    pool,
    prisma,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
