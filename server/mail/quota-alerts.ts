/**
 * Quota e-mails: once when an account reaches 80 % of its monthly quota, once when it
 * reaches 100 %, each at most once a month whatever the number of server instances.
 *
 * `noteQuotaLevel` runs after every count written (server/quota/admission.ts, `onCounted`),
 * off the request's path. Below 80 % it does nothing at all: no query. At or above a level it records the level in
 * `quota_alerts` (one INSERT … ON CONFLICT DO NOTHING: the first instance to get there
 * sends the mail) and remembers it in memory, so the following calls cost nothing either.
 * When a plan change jumps both levels at once, only the 100 % mail is sent.
 */
import type pg from 'pg';
import type { Logger } from '../platform/logger.js';
import type { AccountMail, Recipient } from './account-mail.js';
import { nextMonthStart } from '../accounts/policy.js';

export const QUOTA_LEVELS = [80, 100] as const;
export type QuotaLevel = (typeof QUOTA_LEVELS)[number];

/** The first count at which `level` % of `limit` is reached. */
export function threshold(limit: number, level: QuotaLevel): number {
  return Math.ceil((limit * level) / 100);
}

const RECORD_SQL = `
INSERT INTO quota_alerts (account_id, month, level) SELECT $1, $2::date, unnest($3::int[])
ON CONFLICT DO NOTHING RETURNING level`;

const RECIPIENT_SQL = `
SELECT id, email, language, company_name AS "companyName" FROM accounts WHERE id = $1 AND closed_at IS NULL`;

export class QuotaAlerts {
  /** `account:level` already handled this month by this process. */
  private noted = new Set<string>();
  private month = '';

  constructor(
    private readonly o: {
      pool: pg.Pool;
      mail: AccountMail;
      logger: Logger;
    },
  ) {}

  /**
   * After a counted call: `used` calls of `limit` in `month` (its first day, `YYYY-MM-DD`).
   * Never throws; the promise is only for tests and shutdown to wait on.
   */
  noteQuotaLevel(accountId: string, month: string, used: number, limit: number | null): Promise<void> {
    if (limit === null || used < threshold(limit, 80)) return Promise.resolve();
    if (month !== this.month) {
      this.month = month;
      this.noted.clear();
    }
    const reached = QUOTA_LEVELS.filter((level) => used >= threshold(limit, level) && !this.noted.has(`${accountId}:${level}`));
    if (reached.length === 0) return Promise.resolve();
    for (const level of reached) this.noted.add(`${accountId}:${level}`);
    return this.announce(accountId, month, used, limit, reached).catch((err: Error) => {
      for (const level of reached) this.noted.delete(`${accountId}:${level}`);
      this.o.logger.error({ account_id: accountId, err: err.message }, 'quota alert not recorded');
    });
  }

  private async announce(accountId: string, month: string, used: number, limit: number, levels: QuotaLevel[]): Promise<void> {
    const { rows } = await this.o.pool.query<{ level: number }>(RECORD_SQL, [accountId, month, levels]);
    const top = Math.max(...levels) as QuotaLevel;
    // Another instance (or an earlier run) announced this level already.
    if (!rows.some((r) => r.level === top)) return;
    const recipient = (await this.o.pool.query<Recipient>(RECIPIENT_SQL, [accountId])).rows[0];
    if (!recipient) return;
    const monthStart = new Date(`${month}T00:00:00Z`);
    const sent = await this.o.mail.quotaLevel(recipient, {
      level: top,
      used,
      limit,
      month: month.slice(0, 7),
      resetsAt: nextMonthStart(monthStart),
    });
    if (!sent) {
      // Let a later call try again rather than lose the alert.
      const mine = rows.map((r) => r.level);
      await this.o.pool.query('DELETE FROM quota_alerts WHERE account_id = $1 AND month = $2::date AND level = ANY($3::int[])', [
        accountId,
        month,
        mine,
      ]);
      for (const level of mine) this.noted.delete(`${accountId}:${level}`);
    }
  }
}
