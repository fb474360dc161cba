/**
 * The read replicas of production mode (`DATABASE_READ_URL`): each one's state, checked every
 * few seconds in the background (never per request), and the pick of one for a read.
 *
 * A replica is used while it answers and its replay lag is within `maxLagSeconds`. The lag is
 * the age of the last transaction it replayed while WAL it has received still waits to be
 * replayed; a replica that has replayed everything it received is current (lag 0), however
 * old that last transaction is: an idle primary makes no lag. A node that is not in recovery
 * (e.g. a promoted one still behind the read address) is read like a replica, lag 0.
 * A replica found unreachable by a read (`markDown`) is set aside at once until its next
 * check finds it again. With no replica usable, reads go to the primary.
 */
import pg from 'pg';
import type { Logger } from './logger.js';

export type ReplicaState = 'ok' | 'lagging' | 'unreachable' | 'unknown';

export interface ReplicaProbe {
  /** True while the node replays the primary's WAL (a standby). */
  inRecovery: boolean;
  /** Seconds behind the primary (see above). */
  lagSeconds: number;
}

export interface ReplicaStatus {
  /** The replica's host:port/database (never its password). */
  name: string;
  state: ReplicaState;
  lag_seconds: number | null;
  in_recovery: boolean | null;
  checked_at: string | null;
}

export interface ReplicaOptions {
  urls: string[];
  /** A replica further behind is skipped (default 10 s). */
  maxLagSeconds?: number;
  /** How often each replica is checked (default 2 s). */
  checkIntervalMs?: number;
  logger: Logger;
  /** How a replica's state is read (default: `probeReplica`); tests may replace it. */
  probe?: (client: pg.ClientBase) => Promise<ReplicaProbe>;
}

const LAG_SQL = `
SELECT pg_is_in_recovery() AS in_recovery,
       CASE WHEN NOT pg_is_in_recovery() THEN 0
            WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
            ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 0)
       END::float8 AS lag_seconds`;

export async function probeReplica(client: pg.ClientBase): Promise<ReplicaProbe> {
  const { rows } = await client.query<{ in_recovery: boolean; lag_seconds: number }>(LAG_SQL);
  return { inRecovery: rows[0].in_recovery, lagSeconds: Math.max(0, rows[0].lag_seconds) };
}

const CHECK_TIMEOUT_MS = 2_000;

function nameOf(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
}

export class ReplicaSet {
  readonly urls: string[];
  readonly maxLagSeconds: number;
  private readonly states: ReplicaStatus[];
  private readonly probe: (client: pg.ClientBase) => Promise<ReplicaProbe>;
  private timer: NodeJS.Timeout | undefined;
  private next = 0;
  private checking: Promise<void> | undefined;

  constructor(private readonly options: ReplicaOptions) {
    this.urls = options.urls;
    this.maxLagSeconds = options.maxLagSeconds ?? 10;
    this.probe = options.probe ?? probeReplica;
    this.states = options.urls.map((u) => ({ name: nameOf(u), state: 'unknown', lag_seconds: null, in_recovery: null, checked_at: null }));
  }

  /** A set whose replicas were checked once, then every `checkIntervalMs` until `stop()`. */
  static async start(options: ReplicaOptions): Promise<ReplicaSet> {
    const set = new ReplicaSet(options);
    await set.check();
    set.timer = setInterval(() => void set.check(), options.checkIntervalMs ?? 2_000);
    set.timer.unref();
    return set;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Reads every replica's state now (a check already running is awaited instead). */
  check(): Promise<void> {
    this.checking ??= Promise.all(this.urls.map((url, i) => this.checkOne(url, i))).then(
      () => {
        this.checking = undefined;
      },
      () => {
        this.checking = undefined;
      },
    );
    return this.checking;
  }

  private async checkOne(url: string, i: number): Promise<void> {
    const before = this.states[i].state;
    const client = new pg.Client({
      connectionString: url,
      connectionTimeoutMillis: CHECK_TIMEOUT_MS,
      statement_timeout: CHECK_TIMEOUT_MS,
      // A server that stops answering mid-check must not hold every later check: the client gives up too.
      query_timeout: CHECK_TIMEOUT_MS,
    });
    client.on('error', () => {});
    let next: ReplicaStatus;
    try {
      await client.connect();
      const p = await this.probe(client);
      next = {
        ...this.states[i],
        state: p.lagSeconds > this.maxLagSeconds ? 'lagging' : 'ok',
        lag_seconds: Math.round(p.lagSeconds * 1000) / 1000,
        in_recovery: p.inRecovery,
      };
    } catch {
      next = { ...this.states[i], state: 'unreachable', lag_seconds: null, in_recovery: null };
    } finally {
      void client.end().catch(() => {});
    }
    this.states[i] = { ...next, checked_at: new Date().toISOString() };
    if (next.state !== before) this.logChange(i, before);
  }

  private logChange(i: number, before: ReplicaState): void {
    const s = this.states[i];
    const fields = { replica: s.name, state: s.state, was: before, lag_seconds: s.lag_seconds, max_lag_seconds: this.maxLagSeconds };
    if (s.state === 'ok') this.options.logger.info(fields, 'read replica in use');
    else this.options.logger.warn(fields, 'read replica set aside: reads go to another replica or the primary');
  }

  /** A replica to read from (round robin among those in use), or -1: read the primary. */
  pick(): number {
    const n = this.states.length;
    for (let k = 0; k < n; k++) {
      const i = (this.next + k) % n;
      if (this.states[i].state === 'ok') {
        this.next = (i + 1) % n;
        return i;
      }
    }
    return -1;
  }

  /** A read found replica `i` unreachable: set aside until its next check answers. */
  markDown(i: number): void {
    if (this.states[i].state === 'unreachable') return;
    const before = this.states[i].state;
    this.states[i] = { ...this.states[i], state: 'unreachable', lag_seconds: null };
    this.logChange(i, before);
  }

  /** Replicas in use now. */
  get usable(): number {
    return this.states.filter((s) => s.state === 'ok').length;
  }

  status(): ReplicaStatus[] {
    return this.states.map((s) => ({ ...s }));
  }
}
