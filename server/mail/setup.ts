/**
 * Which mailer and which public address a process uses, from the configuration.
 *
 * Production (`DATABASE_URL` set) needs both `SMTP_URL` and `MBOA_PUBLIC_URL`: customers
 * confirm their address, reset passwords and receive invoices by mail, and links must
 * point to the public site (never to whatever Host header a request carried). The server
 * refuses to start without them; the operator CLI runs, logging every unsent mail as an
 * error. Demo mode writes mail to the data folder and links to http://localhost:PORT.
 */
import { join } from 'node:path';
import { type Config, ConfigError } from '../platform/config.js';
import type { Logger } from '../platform/logger.js';
import { FileMailer, type Mailer, SmtpMailer, UnsentMailer } from './mailer.js';

export interface MailSetup {
  mailer: Mailer;
  /** Base of every link in mails, without trailing slash, e.g. `https://api.mboa.cm`. */
  publicUrl: string;
}

const isDemo = (config: Config) => config.databaseUrl === undefined;

/** The server's: refuses a production start that could not send mail or build links. */
export function serverMail(config: Config, logger: Logger): MailSetup {
  if (!isDemo(config)) {
    const missing = [config.smtpUrl ? null : 'SMTP_URL', config.publicUrl ? null : 'MBOA_PUBLIC_URL'].filter(Boolean);
    if (missing.length) {
      throw new ConfigError(
        `invalid configuration:\n  ${missing.join(' and ')} must be set when DATABASE_URL is: customers confirm their address, reset passwords and receive invoices by e-mail, with links to the public site`,
      );
    }
  }
  return { mailer: mailerFor(config, logger), publicUrl: publicUrlOf(config) };
}

/** The operator CLI's: in production without SMTP_URL or MBOA_PUBLIC_URL, mail is logged as unsent. */
export function cliMail(config: Config, logger: Logger): MailSetup {
  if (!isDemo(config) && (!config.smtpUrl || !config.publicUrl)) {
    const missing = [config.smtpUrl ? null : 'SMTP_URL', config.publicUrl ? null : 'MBOA_PUBLIC_URL'].filter(Boolean).join(' and ');
    return { mailer: new UnsentMailer(`${missing} not set`), publicUrl: config.publicUrl ?? 'http://localhost' };
  }
  return { mailer: mailerFor(config, logger), publicUrl: publicUrlOf(config) };
}

function mailerFor(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  return new FileMailer(join(config.dataDir, 'mail'), config.mailFrom, logger);
}

function publicUrlOf(config: Config): string {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}
