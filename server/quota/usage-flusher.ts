/**
 * Moves the usage counted in Redis (the per-day, per-endpoint, per-key breakdown in
 * `mboa:usage:pending:{database}`) to PostgreSQL's daily_usage and monthly_usage, every second, from
 * every instance. Exactly once: a flush first renames the hash to a batch of its own (an
 * atomic step, so two instances never take the same counts), writes it in one statement
 * that also records the batch id in usage_flushes (a retried batch finds its id and adds
 * nothing), then deletes it. A batch left behind by a crash between those steps is found
 * and finished by the next sweep of any instance.
 *
 * What a failure can cost: a crashed instance nothing (the counts are in Redis); a lost
 * Redis the counts of the last flush interval, at most about one second of calls, which
 * are then never charged.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Logger } from '../platform/logger.js';
import { fieldParts, type UsageKeys } from './usage-keys.js';

/** A batch older than this with no owner at work is taken over. */
const ORPHAN_AFTER_MS = 15_000;
const SWEEP_EVERY = 15;

const FLUSH_SQL = `
WITH batch AS (
  INSERT INTO usage_flushes (id, calls) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id
), counted AS (
  SELECT r.account_id, r.day, r.endpoint, r.api_key_id, r.calls
  FROM unnest($3::text[], $4::date[], $5::text[], $6::text[], $7::int[]) AS r(account_id, day, endpoint, api_key_id, calls)
  WHERE EXISTS (SELECT 1 FROM batch) AND EXISTS (SELECT 1 FROM accounts a WHERE a.id = r.account_id)
), daily AS (
  INSERT INTO daily_usage AS d (account_id, day, endpoint, api_key_id, calls)
  SELECT account_id, day, endpoint, api_key_id, calls FROM counted
  ON CONFLICT (account_id, day, endpoint, api_key_id) DO UPDATE SET calls = d.calls + EXCLUDED.calls
), monthly AS (
  INSERT INTO monthly_usage AS m (account_id, month, used)
  SELECT account_id, date_trunc('month', day)::date, sum(calls)::int FROM counted GROUP BY 1, 2
  ON CONFLICT (account_id, month) DO UPDATE SET used = m.used + EXCLUDED.used
)
SELECT count(*)::int AS applied FROM batch`;

export class UsageFlusher {
  private cycles = 0;
  private running: Promise<void> | null = null;
  /** When the counts waiting in Redis last reached PostgreSQL (ms since the epoch). */
  lastDoneAt = Date.now();

  constructor(private readonly deps: { redis: Redis; pool: pg.Pool; logger: Logger; keys: UsageKeys }) {}

  /** One flush (and every 15th time, a look for abandoned batches). Never runs twice at once. */
  flush(): Promise<void> {
    this.running ??= this.cycle().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async cycle(): Promise<void> {
    const batch = `${this.deps.keys.batchPrefix}${Date.now()}:${randomBytes(6).toString('hex')}`;
    try {
      await this.deps.redis.rename(this.deps.keys.pending, batch);
      await this.write(batch);
    } catch (err) {
      if (!/no such key/i.test((err as Error).message)) throw err;
    }
    this.lastDoneAt = Date.now();
    if (++this.cycles % SWEEP_EVERY === 0) await this.adoptOrphans();
  }

  private async write(batch: string): Promise<void> {
    const fields = await this.deps.redis.hgetall(batch);
    const accounts: string[] = [];
    const days: string[] = [];
    const endpoints: string[] = [];
    const keys: string[] = [];
    const calls: number[] = [];
    for (const [field, value] of Object.entries(fields)) {
      const [account, day, endpoint, key] = fieldParts(field);
      accounts.push(account);
      days.push(day);
      endpoints.push(endpoint);
      keys.push(key);
      calls.push(Number(value));
    }
    if (accounts.length) {
      const total = calls.reduce((a, b) => a + b, 0);
      await this.deps.pool.query(FLUSH_SQL, [
        batch.slice(this.deps.keys.batchPrefix.length),
        total,
        accounts,
        days,
        endpoints,
        keys,
        calls,
      ]);
    }
    await this.deps.redis.del(batch);
  }

  private async adoptOrphans(): Promise<void> {
    let cursor = '0';
    do {
      const [next, found] = await this.deps.redis.scan(cursor, 'MATCH', `${this.deps.keys.batchPrefix}*`, 'COUNT', 100);
      cursor = next;
      for (const batch of found) {
        const madeAt = Number(batch.slice(this.deps.keys.batchPrefix.length).split(':')[0]);
        if (Date.now() - madeAt < ORPHAN_AFTER_MS) continue;
        this.deps.logger.warn({ batch }, 'usage batch left by a stopped flush: finishing it');
        await this.write(batch);
      }
    } while (cursor !== '0');
  }
}
