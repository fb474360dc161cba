/**
 * PostgreSQL's LISTEN/NOTIFY as a change feed for the in-process caches (keys, totals,
 * market answers). Triggers (see the usage_admission migration) notify `mboa_accounts`
 * with an account id when its keys, plan, status or limits change, and `mboa_data` when
 * listings or market tables change: every instance hears it within milliseconds of the
 * commit, whichever process made the change (dashboard, CLI, importer, another instance).
 *
 * Caches may only trust themselves while the feed is `live`: connected, and proven to
 * deliver (a probe notification came back after LISTEN). While it is not, for instance
 * after the connection dropped, they must bypass themselves; every drop also empties them
 * (`onReset`), since notifications may have been missed.
 *
 * A connection can also go deaf without dropping: a half-open TCP flow, a dropped NAT
 * entry, a proxy that holds the bytes. So the feed proves itself again every
 * `heartbeatMs` (a probe notification sent to itself over the same connection); a probe
 * not back within `heartbeatTimeoutMs` marks the feed deaf (logged, counted in
 * `/metrics`, shown by `/readyz`): the caches bypass themselves at once, the connection
 * is dropped and a new one made, and going live again empties them (a full refresh).
 * TCP keepalive is on as well, for the dead peers nothing else would notice.
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import pg from 'pg';
import type { Logger } from './logger.js';

const CHANNELS = ['mboa_accounts', 'mboa_data'] as const;
const RETRY_MS = [250, 500, 1_000, 2_000, 5_000];
/** Defaults: a deaf feed is found within 1 s + 1.5 s (README, "How fast a change reaches the API"). */
export const FEED_HEARTBEAT_MS = 1_000;
export const FEED_HEARTBEAT_TIMEOUT_MS = 1_500;

export interface ChangeFeedOptions {
  databaseUrl: string;
  logger: Logger;
  /** How often the feed proves it still delivers (default 1 s). */
  heartbeatMs?: number;
  /** How long a probe may take before the feed counts as deaf (default 1.5 s; also the first probe's limit). */
  heartbeatTimeoutMs?: number;
}

export class ChangeFeed {
  private client: pg.Client | null = null;
  private isLive = false;
  private stopped = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private beatTimer: NodeJS.Timeout | undefined;
  private probe: { token: string; resolve: () => void } | null = null;
  private readonly accountListeners = new Set<(accountId: string) => void>();
  private readonly dataListeners = new Set<(table: string) => void>();
  private readonly resetListeners = new Set<() => void>();
  private readonly heartbeatMs: number;
  private readonly timeoutMs: number;
  /** Times the feed was found deaf (a probe not back in time) or lost its connection. */
  readonly losses = { deaf: 0, dropped: 0 };

  constructor(private readonly options: ChangeFeedOptions) {
    this.heartbeatMs = options.heartbeatMs ?? FEED_HEARTBEAT_MS;
    this.timeoutMs = options.heartbeatTimeoutMs ?? FEED_HEARTBEAT_TIMEOUT_MS;
  }

  /** True while caches may serve: connected and delivering. */
  get live(): boolean {
    return this.isLive;
  }

  onAccountChange(listener: (accountId: string) => void): void {
    this.accountListeners.add(listener);
  }

  /** `listener` gets the table that changed (the trigger's payload: `listings`, `market_stats`…). */
  onDataChange(listener: (table: string) => void): void {
    this.dataListeners.add(listener);
  }

  /** Called whenever notifications may have been missed: caches start afresh. */
  onReset(listener: () => void): void {
    this.resetListeners.add(listener);
  }

  /** Connects in the background; resolves once the first attempt is over (live or not). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.beatTimer);
    this.setLive(false);
    const client = this.client;
    this.client = null;
    if (client) ChangeFeed.discard(client);
  }

  private setLive(live: boolean): void {
    if (this.isLive === live) return;
    this.isLive = live;
    // Going live after a gap, or dropping: whatever was cached may be stale.
    for (const listener of this.resetListeners) listener();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({
      connectionString: this.options.databaseUrl,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      application_name: 'mboa-change-feed',
    });
    client.on('error', () => this.lost(client, 'dropped'));
    client.on('end', () => this.lost(client, 'dropped'));
    client.on('notification', (n) => this.deliver(n));
    this.client = client;
    try {
      await this.within(client.connect(), 'no connection');
      for (const channel of CHANNELS) await this.within(client.query(`LISTEN ${channel}`), 'LISTEN not answered');
      // Prove delivery before trusting it: some servers (or proxies) accept LISTEN and never deliver.
      if (!(await this.probeDelivery(client))) throw new Error('notifications are not delivered');
      if (this.attempt > 0) this.options.logger.info('change feed live again: caches emptied, serving from memory again');
      this.attempt = 0;
      this.setLive(true);
      this.scheduleBeat(client);
    } catch (err) {
      if (this.client !== client) return;
      this.options.logger.warn({ err: (err as Error).message }, 'change feed unavailable: caches bypassed until it is back');
      this.lost(client, 'dropped');
    }
  }

  /** A step of connecting that a stalled connection would never finish: given up after 5 s (or the probe's limit, if longer). */
  private within<T>(promise: Promise<T>, what: string): Promise<T> {
    const ms = Math.max(this.timeoutMs, 5_000);
    let timer: NodeJS.Timeout;
    return Promise.race([
      promise,
      new Promise<T>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** Sends a notification to itself over `client`: true once it came back within the timeout. */
  private async probeDelivery(client: pg.Client): Promise<boolean> {
    const token = randomBytes(8).toString('hex');
    const delivered = new Promise<void>((resolve) => {
      this.probe = { token, resolve };
    });
    let timer: NodeJS.Timeout | undefined;
    client.query(`SELECT pg_notify('mboa_data', $1)`, [`probe:${token}`]).catch(() => {});
    const ok = await Promise.race([
      delivered.then(() => true),
      new Promise<boolean>((r) => {
        timer = setTimeout(() => r(false), this.timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (this.probe?.token === token) this.probe = null;
    return ok;
  }

  private scheduleBeat(client: pg.Client): void {
    clearTimeout(this.beatTimer);
    this.beatTimer = setTimeout(() => {
      if (this.client !== client || this.stopped) return;
      void this.probeDelivery(client).then((ok) => {
        if (this.client !== client || this.stopped) return;
        if (ok) {
          this.scheduleBeat(client);
          return;
        }
        this.options.logger.error(
          { waited_ms: this.timeoutMs },
          'change feed deaf: a heartbeat did not come back; caches bypassed, reconnecting',
        );
        this.lost(client, 'deaf');
      });
    }, this.heartbeatMs);
    this.beatTimer.unref();
  }

  private lost(client: pg.Client, why: 'deaf' | 'dropped'): void {
    if (this.client !== client) return;
    this.client = null;
    clearTimeout(this.beatTimer);
    if (this.isLive) {
      this.losses[why]++;
      if (why === 'dropped') this.options.logger.warn('change feed connection lost: caches bypassed, reconnecting');
    }
    this.setLive(false);
    ChangeFeed.discard(client);
    if (this.stopped) return;
    const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)];
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
  }

  /** Closes a connection that may not answer: its socket is destroyed, not waited for. */
  private static discard(client: pg.Client): void {
    client.removeAllListeners('end');
    client.removeAllListeners('notification');
    client.on('error', () => {});
    (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
    client.end().catch(() => {});
  }

  private deliver(n: pg.Notification): void {
    if (n.channel === 'mboa_accounts' && n.payload) {
      for (const listener of this.accountListeners) listener(n.payload);
      return;
    }
    if (n.channel === 'mboa_data') {
      if (n.payload?.startsWith('probe:')) {
        if (this.probe && n.payload === `probe:${this.probe.token}`) this.probe.resolve();
        return;
      }
      for (const listener of this.dataListeners) listener(n.payload ?? '');
    }
  }
}
