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
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from './logger.js';

const CHANNELS = ['mboa_accounts', 'mboa_data'] as const;
const PROBE_TIMEOUT_MS = 2_000;
const RETRY_MS = [250, 500, 1_000, 2_000, 5_000];

export class ChangeFeed {
  private client: pg.Client | null = null;
  private isLive = false;
  private stopped = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private probe: { token: string; resolve: () => void } | null = null;
  private readonly accountListeners = new Set<(accountId: string) => void>();
  private readonly dataListeners = new Set<() => void>();
  private readonly resetListeners = new Set<() => void>();

  constructor(private readonly options: { databaseUrl: string; logger: Logger }) {}

  /** True while caches may serve: connected and delivering. */
  get live(): boolean {
    return this.isLive;
  }

  onAccountChange(listener: (accountId: string) => void): void {
    this.accountListeners.add(listener);
  }

  onDataChange(listener: () => void): void {
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
    this.setLive(false);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private setLive(live: boolean): void {
    if (this.isLive === live) return;
    this.isLive = live;
    // Going live after a gap, or dropping: whatever was cached may be stale.
    for (const listener of this.resetListeners) listener();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.options.databaseUrl, connectionTimeoutMillis: 5_000 });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (n) => this.deliver(n));
    this.client = client;
    try {
      await client.connect();
      for (const channel of CHANNELS) await client.query(`LISTEN ${channel}`);
      // Prove delivery before trusting it: some servers (or proxies) accept LISTEN and never deliver.
      const token = randomBytes(8).toString('hex');
      const delivered = new Promise<void>((resolve) => {
        this.probe = { token, resolve };
      });
      await client.query(`SELECT pg_notify('mboa_data', $1)`, [`probe:${token}`]);
      const ok = await Promise.race([
        delivered.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), PROBE_TIMEOUT_MS)),
      ]);
      this.probe = null;
      if (!ok) throw new Error('notifications are not delivered');
      this.attempt = 0;
      this.setLive(true);
    } catch (err) {
      this.options.logger.warn({ err: (err as Error).message }, 'change feed unavailable: caches bypassed until it is back');
      this.lost(client);
    }
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.setLive(false);
    client.removeAllListeners('end');
    client.end().catch(() => {});
    if (this.stopped) return;
    const delay = RETRY_MS[Math.min(this.attempt++, RETRY_MS.length - 1)];
    this.retryTimer = setTimeout(() => void this.connect(), delay);
    this.retryTimer.unref();
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
      for (const listener of this.dataListeners) listener();
    }
  }
}
