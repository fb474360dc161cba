/**
 * Calls of an identified account answered with a 5xx (503 `unavailable` included), counted per
 * account and month in monthly_failures: never charged, they are what the availability the
 * customer sees leaves out (dashboard usage page, `npm run admin -- sla`). Most such answers
 * come while the database is unreachable, so they are kept in memory and written every few
 * seconds, retried until the database takes them (and on shutdown, before the pool closes).
 */
import type pg from 'pg';
import type { Logger } from './logger.js';

const WRITE_SQL = `
  INSERT INTO monthly_failures (account_id, month, failed) VALUES ($1, $2::date, $3)
  ON CONFLICT (account_id, month) DO UPDATE SET failed = monthly_failures.failed + EXCLUDED.failed`;
const EVERY_MS = 5_000;
/** Foreign key violation: the account is gone, its failures with it. */
const ACCOUNT_GONE = '23503';

export class FailureLog {
  /** `{account} {YYYY-MM-01}` → answers not yet written. */
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | null = null;

  constructor(private readonly deps: { pool: pg.Pool; logger: Logger }) {}

  /** A 5xx answer to this account's call. */
  note(accountId: string, at: Date): void {
    const key = `${accountId} ${at.toISOString().slice(0, 7)}-01`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush(), EVERY_MS);
    this.timer.unref();
  }

  /** Writes what waits; what the database refuses waits for the next time. */
  flush(): Promise<void> {
    this.writing ??= this.write().finally(() => {
      this.writing = null;
    });
    return this.writing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async write(): Promise<void> {
    for (const [key, failed] of [...this.pending]) {
      this.pending.delete(key);
      const [accountId, month] = key.split(' ');
      try {
        await this.deps.pool.query(WRITE_SQL, [accountId, month, failed]);
      } catch (err) {
        if ((err as { code?: string }).code === ACCOUNT_GONE) continue;
        this.pending.set(key, (this.pending.get(key) ?? 0) + failed);
        this.deps.logger.warn({ err: (err as Error).message }, 'failed answers not recorded yet: retried in a few seconds');
        return;
      }
    }
  }
}
