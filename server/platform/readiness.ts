/**
 * What "ready" means for an instance: the database answers, it holds every migration of
 * this version (production servers never migrate: they wait for the deploy step). Redis
 * (when configured) and the change feed are reported, not required: without them answers
 * stay exact, only slower. The schema check is remembered once it passes (a version's
 * migrations do not un-apply); until then it is retried, so an instance started before
 * `npm run db:migrate` becomes ready without a restart.
 */
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { migrationStatus } from '../../prisma/migration-status.js';
import type { Logger } from './logger.js';
import type { ReplicaStatus } from './replicas.js';

export type CheckResult = 'ok' | 'unreachable' | 'pending_migrations' | 'not_configured' | 'deaf';

/** What `/readyz` shows of the live data's valuation model (see domain/valuations/model-store.ts). */
export interface ModelState {
  state: 'ready' | 'warming_up';
  fitted_at: string | null;
  fit_ms: number | null;
  fitting: boolean;
  /** Adverts the fit in hand set aside as impossible prices (domain/valuations/outliers.ts); null before the first fit. */
  outliers_rejected: number | null;
}

export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckResult; migrations: CheckResult; redis: CheckResult; change_feed: CheckResult };
  pending_migrations?: string[];
  /** The live data's valuation model: shown, never a reason to be unready (valuations answer 503 `valuations_warming_up` meanwhile). */
  valuation_model?: ModelState;
  /** The read replicas, when configured: shown, never a reason to be unready (reads fall back to the primary). */
  read_replicas?: { in_use: number; max_lag_seconds: number; replicas: ReplicaStatus[] };
}

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer in ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export class Readiness {
  private schemaOk: boolean;
  private pending: string[] = [];
  private checked = false;

  constructor(
    private readonly deps: {
      pool: pg.Pool;
      redis?: Redis;
      logger: Logger;
      checkMigrations: boolean;
      feed?: { readonly live: boolean };
      valuationModel?: () => ModelState;
      replicas?: { status(): ReplicaStatus[]; maxLagSeconds: number };
    },
  ) {
    this.schemaOk = !deps.checkMigrations;
  }

  /** True once the database is known to hold this version's schema. */
  get schemaReady(): boolean {
    return this.schemaOk;
  }

  /** Reads the migration state; logs what is missing. Never throws. */
  async refreshSchema(): Promise<boolean> {
    if (this.schemaOk) return true;
    try {
      const status = await withTimeout(migrationStatus(this.deps.pool), CHECK_TIMEOUT_MS);
      if (status.unknown.length) {
        this.deps.logger.warn(
          { unknown: status.unknown },
          'the database holds migrations this version does not know (a newer version deployed?)',
        );
      }
      const changed = status.pending.join() !== this.pending.join() || !this.checked;
      this.pending = status.pending;
      this.checked = true;
      if (status.pending.length === 0) {
        this.schemaOk = true;
        this.deps.logger.info('database schema up to date');
      } else if (changed) {
        this.deps.logger.error(
          { pending: status.pending },
          'database schema is behind this version: run `npm run db:migrate`; not ready until then',
        );
      }
    } catch (err) {
      this.deps.logger.warn({ err: (err as Error).message }, 'migration state unreadable');
    }
    return this.schemaOk;
  }

  async report(): Promise<ReadinessReport> {
    const database = await withTimeout(this.deps.pool.query('SELECT 1'), CHECK_TIMEOUT_MS).then(
      () => 'ok' as const,
      () => 'unreachable' as const,
    );
    if (database === 'ok' && !this.schemaOk) await this.refreshSchema();
    const migrations: CheckResult = database !== 'ok' && !this.schemaOk ? 'unreachable' : this.schemaOk ? 'ok' : 'pending_migrations';
    const redis: CheckResult = !this.deps.redis
      ? 'not_configured'
      : await withTimeout(this.deps.redis.ping(), CHECK_TIMEOUT_MS).then(
          () => 'ok' as const,
          () => 'unreachable' as const,
        );
    // Redis is reported, not required: without it the API answers through PostgreSQL (README,
    // "Rate limit and quota under faults"), so a lost Redis must not take every instance out.
    // The change feed too: while it is deaf the caches are bypassed, so answers stay exact
    // (every call reads the database); it is shown, for the operator, not a reason to stop.
    const changeFeed: CheckResult = !this.deps.feed ? 'not_configured' : this.deps.feed.live ? 'ok' : 'deaf';
    const ready = database === 'ok' && migrations === 'ok';
    return {
      ready,
      checks: { database, migrations, redis, change_feed: changeFeed },
      ...(migrations === 'pending_migrations' ? { pending_migrations: this.pending } : {}),
      ...(this.deps.valuationModel ? { valuation_model: this.deps.valuationModel() } : {}),
      ...(this.deps.replicas ? { read_replicas: this.replicaReport(this.deps.replicas) } : {}),
    };
  }

  private replicaReport(r: { status(): ReplicaStatus[]; maxLagSeconds: number }): ReadinessReport['read_replicas'] {
    const replicas = r.status();
    return { in_use: replicas.filter((s) => s.state === 'ok').length, max_lag_seconds: r.maxLagSeconds, replicas };
  }
}
