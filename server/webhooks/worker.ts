/**
 * The delivery worker, on every instance: it produces events from the changes waiting
 * (producer.ts), then leases due deliveries in PostgreSQL (`FOR UPDATE SKIP LOCKED`, a lease
 * of `leaseMs`), so two instances never send the same delivery at once, and a delivery
 * whose instance died mid-send is taken again once its lease is over, with the same
 * `webhook-id`. Each attempt is counted when leased. A test event is tried once; a delivery
 * resent on request is retried from its resending. A 2xx delivers; a 410 disables the
 * endpoint at once; any other failure is retried with exponential backoff and jitter until
 * 3 days after the event, then the endpoint is disabled and its owner told (`onDisabled`).
 */
import type pg from 'pg';
import { TEST_EVENT_TYPE } from '../../contract/webhooks.js';
import type { Logger } from '../platform/logger.js';
import { attempt, deliveryHeaders } from './delivery.js';
import { produceEvents } from './producer.js';

export interface WebhookWorkerOptions {
  /** Loopback receivers allowed (tests, demo), over http too. */
  allowLoopback?: boolean;
  /** How often due deliveries are looked for (default 500 ms). */
  pollMs?: number;
  /** How long a leased delivery is held before another worker may take it (default 30 s; more than `timeoutMs`). */
  leaseMs?: number;
  /** How long a receiver has to answer (default 10 s). */
  timeoutMs?: number;
  /** How long an event is retried before its endpoint is disabled (default 3 days). */
  retryForMs?: number;
  /** The first retry's delay (default 5 s), doubled each attempt up to `maxDelayMs` (default 1 h), with ±20 % jitter. */
  firstDelayMs?: number;
  maxDelayMs?: number;
  /** Deliveries sent at once per instance (default 20). */
  batch?: number;
}

export interface WebhookWorkerDeps {
  pool: pg.Pool;
  logger: Logger;
  /** An endpoint disabled (410, or failures for `retryForMs`): its owner is told. */
  onDisabled?: (endpoint: { id: string; accountId: string; url: string; reason: string }) => Promise<void>;
  now?: () => Date;
}

interface Leased {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  attempts: number;
  /** When its retries started: the event's delivery was queued, or last resent on request. */
  retry_from: Date;
  type: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  body: string;
}

/** The delay before attempt `attempts + 1`: exponential, capped, with ±20 % jitter. */
export function retryDelayMs(attempts: number, first: number, max: number, random = Math.random): number {
  const base = Math.min(max, first * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export class WebhookWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private readonly o: Required<WebhookWorkerOptions>;

  constructor(
    private readonly deps: WebhookWorkerDeps,
    options: WebhookWorkerOptions = {},
  ) {
    this.o = {
      allowLoopback: options.allowLoopback ?? false,
      pollMs: options.pollMs ?? 500,
      leaseMs: options.leaseMs ?? 30_000,
      timeoutMs: options.timeoutMs ?? 10_000,
      retryForMs: options.retryForMs ?? 3 * 24 * 3600_000,
      firstDelayMs: options.firstDelayMs ?? 5_000,
      maxDelayMs: options.maxDelayMs ?? 3600_000,
      batch: options.batch ?? 20,
    };
  }

  start(): void {
    const tick = () => {
      if (this.stopped) return;
      let full = false;
      this.running = this.runOnce()
        .then((attempted) => {
          full = attempted >= this.o.batch;
        })
        .catch((err: Error) => this.deps.logger.warn({ err: err.message }, 'webhook worker round failed'))
        .finally(() => {
          // A full round may have left more due: the next one at once (a backlog drains without waiting `pollMs` per batch).
          if (!this.stopped) this.timer = setTimeout(tick, full ? 0 : this.o.pollMs);
        });
    };
    this.timer = setTimeout(tick, this.o.pollMs);
  }

  /** Stops taking work and waits for the round in flight (its deliveries end or their leases lapse). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One round: events from waiting changes, then one batch of due deliveries. Returns the deliveries attempted. */
  async runOnce(): Promise<number> {
    while ((await produceEvents(this.deps.pool, this.now())) > 0 && !this.stopped);
    const leased = await this.lease();
    await Promise.all(leased.map((d) => this.deliver(d)));
    return leased.length;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private async lease(): Promise<Leased[]> {
    const now = this.now();
    const { rows } = await this.deps.pool.query<Leased>(
      `WITH due AS (
         SELECT d.id FROM webhook_deliveries d
          WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until < $1)
          ORDER BY d.next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE webhook_deliveries d SET lease_until = $2, attempts = d.attempts + 1
         FROM due, webhook_endpoints w, webhook_events e
        WHERE d.id = due.id AND w.id = d.endpoint_id AND e.id = d.event_id
       RETURNING d.id, d.event_id, d.endpoint_id, w.account_id, d.attempts, coalesce(d.resent_at, d.created_at) AS retry_from,
                 e.type, w.url, w.secret,
                 w.previous_secret, w.previous_secret_expires_at, e.body`,
      [now, new Date(now.getTime() + this.o.leaseMs), this.o.batch],
    );
    return rows;
  }

  private async deliver(d: Leased): Promise<void> {
    const now = this.now();
    const secrets = [d.secret];
    if (d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at > now) secrets.push(d.previous_secret);
    const result = await attempt(d.url, deliveryHeaders(secrets, d.event_id, now, d.body), d.body, this.o);
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const after = this.now();
    const expired = after.getTime() - d.retry_from.getTime() >= this.o.retryForMs;
    const gone = result.status === 410;
    // A test event is tried once: its failure says what is wrong, and never disables the endpoint (but a 410).
    const once = d.type === TEST_EVENT_TYPE;
    const status = ok ? 'delivered' : gone || expired || once ? 'failed' : 'pending';
    const next = new Date(after.getTime() + retryDelayMs(d.attempts, this.o.firstDelayMs, this.o.maxDelayMs));
    await this.deps.pool.query(
      `UPDATE webhook_deliveries SET status = $2, lease_until = NULL, last_status = $3, last_error = $4, latency_ms = $5,
              next_attempt_at = $6, delivered_at = CASE WHEN $2 = 'delivered' THEN $7 ELSE delivered_at END
        WHERE id = $1`,
      [d.id, status, result.status, result.error, result.latencyMs, next, after],
    );
    if (gone || (expired && !ok && !once)) {
      await this.disable(
        d,
        gone ? 'the receiver answered 410 Gone' : `every delivery failed for ${Math.round(this.o.retryForMs / 3600_000)} h`,
      );
    }
  }

  private async disable(d: Leased, reason: string): Promise<void> {
    const { rowCount } = await this.deps.pool.query(
      'UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = $2 WHERE id = $1 AND disabled_at IS NULL',
      [d.endpoint_id, reason],
    );
    if (!rowCount) return;
    // Its other pending deliveries stop with it.
    await this.deps.pool.query(
      "UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint disabled' WHERE endpoint_id = $1 AND status = 'pending'",
      [d.endpoint_id],
    );
    this.deps.logger.warn({ endpoint_id: d.endpoint_id, reason }, 'webhook endpoint disabled');
    await this.deps
      .onDisabled?.({ id: d.endpoint_id, accountId: d.account_id, url: d.url, reason })
      .catch((err: Error) => this.deps.logger.error({ err: err.message }, 'webhook disabled mail not sent'));
  }
}
