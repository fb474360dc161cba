/**
 * A pool that sends each read to a replica in use (platform/replicas.ts) or, with none, to
 * the primary's pool; typed as a pg.Pool, so the API's read code is the same either way.
 * Only reads go through it: a read the replica could not serve (its connection refused or
 * cut, or a statement cancelled by a conflict with the WAL it replays) is sent to the
 * primary at once, and an unreachable replica is set aside until its next check answers,
 * so a lost replica costs its reads a retry, never an error.
 */
import type pg from 'pg';
import { isDatabaseUnavailable } from './errors.js';
import type { ReplicaSet } from './replicas.js';

/** Reads served, by where (shown in /metrics). */
export interface ReadCounts {
  replica: number;
  primary: number;
  /** Reads a replica failed, answered by the primary instead. */
  retried: number;
}

/** A standby cancelled the statement: its WAL replay needed what it read (SQLSTATE 40001 on a standby). */
function isRecoveryConflict(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return (e?.code === '40001' || e?.code === '40P01') && /conflict with recovery/i.test(e.message ?? '');
}

type Query = (...args: unknown[]) => Promise<unknown>;

export function routedPool(primary: pg.Pool, replicas: pg.Pool[], set: ReplicaSet, counts: ReadCounts): pg.Pool {
  const onPrimary = <T>(retried: boolean, run: () => Promise<T>): Promise<T> => {
    counts.primary++;
    if (retried) counts.retried++;
    return run();
  };
  const routed = async <T>(run: (pool: pg.Pool) => Promise<T>): Promise<T> => {
    const i = set.pick();
    if (i < 0) return onPrimary(false, () => run(primary));
    try {
      const result = await run(replicas[i]);
      counts.replica++;
      return result;
    } catch (err) {
      if (isDatabaseUnavailable(err)) set.markDown(i);
      else if (!isRecoveryConflict(err)) throw err;
      return onPrimary(true, () => run(primary));
    }
  };
  const query = (...args: unknown[]) => routed((pool) => (pool.query as unknown as Query).apply(pool, args));
  const connect = () => routed((pool) => pool.connect());
  return new Proxy(primary, {
    get(target, prop) {
      if (prop === 'query') return query;
      if (prop === 'connect') return connect;
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
