/**
 * E-mail for operator commands (a key created or revoked, invoices issued, payment
 * reminders...): SMTP when `SMTP_URL` is set, the data folder in demo mode, and on a
 * production database without SMTP every message is logged as unsent (server/mail/setup.ts).
 * Logs go to stderr, so `--json` output stays clean.
 */
import { destination, pino } from 'pino';
import { loadConfig } from '../platform/config.js';
import { AccountMail } from '../mail/account-mail.js';
import { cliMail } from '../mail/setup.js';

export function operatorMail(): { mail: AccountMail; close(): void } {
  const config = loadConfig(process.env, { secrets: 'optional' });
  const logger = pino({ level: config.logLevel, base: { service: 'mboa-admin' } }, destination(2));
  const { mailer, publicUrl } = cliMail(config, logger);
  return { mail: new AccountMail({ mailer, dashboardUrl: `${publicUrl}/dashboard`, logger }), close: () => mailer.close() };
}
