/**
 * The API's pools of reads, one per kind (api/costs.ts), each with the statement timeout of
 * its kind: cheap reads (`DB_POOL_MAX` connections), heavy reads (`DB_HEAVY_POOL_MAX`, one
 * process per statement), exports (a few, held as long as an export streams). Apart from
 * the main pool (accounts, quota, imports, market refresh), which they can never exhaust.
 */
import type pg from 'pg';
import { openPool } from '../platform/db.js';
import { type ReadKind, STATEMENT_TIMEOUT_MS } from './costs.js';
import { EXPORT_SLOTS } from './endpoints/export.js';

export interface ReadPools {
  cheap: pg.Pool;
  heavy: pg.Pool;
  exports: pg.Pool;
  /** The statement timeout of each kind (ms). */
  timeouts: Record<ReadKind, number>;
  end(): Promise<void>;
}

export function openReadPools(
  url: string,
  o: { cheapMax?: number; heavyMax?: number; timeouts?: Partial<Record<ReadKind, number>> },
): ReadPools {
  const timeouts = { ...STATEMENT_TIMEOUT_MS, ...o.timeouts };
  const pools = {
    cheap: openPool(url, { max: o.cheapMax ?? 10, statementTimeoutMs: timeouts.cheap }),
    heavy: openPool(url, { max: o.heavyMax ?? 2, statementTimeoutMs: timeouts.heavy, serial: true }),
    exports: openPool(url, { max: EXPORT_SLOTS, statementTimeoutMs: timeouts.export }),
  };
  return {
    ...pools,
    timeouts,
    async end() {
      await Promise.all(Object.values(pools).map((p) => p.end().catch(() => {})));
    },
  };
}
