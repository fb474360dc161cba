/**
 * The API's pools of reads, one per kind (api/costs.ts), each with the statement timeout of
 * its kind: cheap reads (`DB_POOL_MAX` connections), heavy reads (`DB_HEAVY_POOL_MAX`, one
 * process per statement), exports (a few, held as long as an export streams). Apart from
 * the main pool (accounts, quota, imports, market refresh), which they can never exhaust.
 * With read replicas (`DATABASE_READ_URL`), each kind has the same pool on every replica
 * too, and each read goes to a replica in use, or to the primary when none is
 * (platform/read-routing.ts): every write stays on the main pool, on the primary.
 */
import type pg from 'pg';
import { openPool, type PoolOptions } from '../platform/db.js';
import { type ReadCounts, routedPool } from '../platform/read-routing.js';
import type { ReplicaSet } from '../platform/replicas.js';
import { type ReadKind, STATEMENT_TIMEOUT_MS } from './costs.js';
import { EXPORT_SLOTS } from './endpoints/export.js';

export interface ReadPools {
  cheap: pg.Pool;
  heavy: pg.Pool;
  exports: pg.Pool;
  /** The statement timeout of each kind (ms). */
  timeouts: Record<ReadKind, number>;
  /** Reads served by the replicas and by the primary (all zero on the primary without replicas). */
  counts: ReadCounts;
  end(): Promise<void>;
}

export function openReadPools(
  url: string,
  o: { cheapMax?: number; heavyMax?: number; timeouts?: Partial<Record<ReadKind, number>>; replicas?: ReplicaSet },
): ReadPools {
  const timeouts = { ...STATEMENT_TIMEOUT_MS, ...o.timeouts };
  const options: Record<'cheap' | 'heavy' | 'exports', PoolOptions> = {
    cheap: { max: o.cheapMax ?? 10, statementTimeoutMs: timeouts.cheap },
    heavy: { max: o.heavyMax ?? 2, statementTimeoutMs: timeouts.heavy, serial: true },
    exports: { max: EXPORT_SLOTS, statementTimeoutMs: timeouts.export },
  };
  const opened: pg.Pool[] = [];
  const open = (at: string, kind: keyof typeof options) => {
    const pool = openPool(at, options[kind]);
    opened.push(pool);
    return pool;
  };
  const counts: ReadCounts = { replica: 0, primary: 0, retried: 0 };
  const kind = (k: keyof typeof options): pg.Pool => {
    const primary = open(url, k);
    const set = o.replicas;
    if (!set || set.urls.length === 0) return primary;
    return routedPool(
      primary,
      set.urls.map((u) => open(u, k)),
      set,
      counts,
    );
  };
  return {
    cheap: kind('cheap'),
    heavy: kind('heavy'),
    exports: kind('exports'),
    timeouts,
    counts,
    async end() {
      await Promise.all(opened.map((p) => p.end().catch(() => {})));
    },
  };
}
