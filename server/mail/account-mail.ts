/**
 * The e-mails an account receives, sent in its language with links to the dashboard.
 * Sending never throws: a failure is logged with the account and the kind of message, and
 * `send` resolves false, so callers may fire and forget on a request's path.
 */
import type { KeyView } from '../accounts/views.js';
import { formatDay, formatDayTime, formatMonth, formatNumber } from '../platform/format.js';
import type { Logger } from '../platform/logger.js';
import type { Lang } from '../platform/lang.js';
import type { MailContent } from './compose.js';
import type { MailAttachment, Mailer } from './mailer.js';
import {
  accountClosedMail,
  keyCreatedMail,
  keyRevokedMail,
  keyRotatedMail,
  passwordChangedMail,
  passwordResetMail,
  quotaLevelMail,
  signupAttemptMail,
  verifyEmailMail,
} from './templates.js';

/** Who receives a message: an account row has all of it. */
export interface Recipient {
  id: string;
  email: string;
  language: Lang;
  companyName: string | null;
  /** Null while the address is not confirmed (an account row has it). */
  emailVerifiedAt?: Date | null;
}

export class AccountMail {
  constructor(
    private readonly o: {
      mailer: Mailer;
      /**
       * The dashboard's public address, e.g. `https://api.mboa.cm/dashboard`; a function when
       * it is only known once the server listens (tests on a random port).
       */
      dashboardUrl: string | (() => string);
      logger: Logger;
    },
  ) {}

  /** An absolute link to a dashboard page. */
  link(path: string): string {
    const base = typeof this.o.dashboardUrl === 'function' ? this.o.dashboardUrl() : this.o.dashboardUrl;
    return `${base}${path}`;
  }

  async send(to: Recipient, kind: string, content: MailContent, attachments?: MailAttachment[]): Promise<boolean> {
    try {
      await this.o.mailer.send({ to: to.email, kind, attachments, ...content });
      this.o.logger.info({ account_id: to.id, kind }, 'mail sent');
      return true;
    } catch (err) {
      this.o.logger.error({ account_id: to.id, kind, err: (err as Error).message }, 'mail not sent');
      return false;
    }
  }

  verifyEmail(to: Recipient, token: string, hours: number): Promise<boolean> {
    const url = this.link(`/verify?token=${encodeURIComponent(token)}`);
    return this.send(to, 'verify_email', verifyEmailMail(to.language, { url, hours }));
  }

  /** Someone signed up again with the address of this account (open or closed). */
  signupAttempt(to: Recipient & { closedAt: Date | null }): Promise<boolean> {
    return this.send(to, 'signup_attempt', signupAttemptMail(to.language, { closed: to.closedAt !== null, url: this.link('/login') }));
  }

  passwordReset(to: Recipient, token: string, minutes: number): Promise<boolean> {
    const url = this.link(`/password/reset?token=${encodeURIComponent(token)}`);
    return this.send(to, 'reset_password', passwordResetMail(to.language, { url, minutes }));
  }

  passwordChanged(to: Recipient, at: Date): Promise<boolean> {
    return this.send(
      to,
      'password_changed',
      passwordChangedMail(to.language, { when: formatDayTime(to.language, at), url: this.link('/password/forgot') }),
    );
  }

  /**
   * Mails that carry text a customer typed (a key's name) wait for a confirmed address:
   * whoever signs up with someone else's address cannot have Mboa mail it their words.
   */
  private unconfirmed(to: Recipient, kind: string): boolean {
    if (to.emailVerifiedAt !== null) return false;
    this.o.logger.info({ account_id: to.id, kind }, 'mail not sent: address not confirmed');
    return true;
  }

  async keyCreated(to: Recipient, key: KeyView): Promise<boolean> {
    if (this.unconfirmed(to, 'key_created')) return false;
    const when = formatDayTime(to.language, new Date(key.created_at));
    return this.send(
      to,
      'key_created',
      keyCreatedMail(to.language, { name: key.name, prefix: key.prefix, test: key.kind === 'test', when, url: this.link('/keys') }),
    );
  }

  async keyRotated(to: Recipient, rotation: { keyInfo: KeyView; previous: KeyView }): Promise<boolean> {
    if (this.unconfirmed(to, 'key_rotated')) return false;
    const until = formatDayTime(to.language, new Date(rotation.previous.expires_at!));
    return this.send(
      to,
      'key_rotated',
      keyRotatedMail(to.language, {
        name: rotation.keyInfo.name,
        prefix: rotation.keyInfo.prefix,
        oldPrefix: rotation.previous.prefix,
        until,
        url: this.link('/keys'),
      }),
    );
  }

  async keyRevoked(to: Recipient, key: KeyView): Promise<boolean> {
    if (this.unconfirmed(to, 'key_revoked')) return false;
    const when = formatDayTime(to.language, new Date(key.revoked_at ?? Date.now()));
    return this.send(to, 'key_revoked', keyRevokedMail(to.language, { name: key.name, prefix: key.prefix, when, url: this.link('/keys') }));
  }

  quotaLevel(to: Recipient, o: { level: 80 | 100; used: number; limit: number; month: string; resetsAt: Date }): Promise<boolean> {
    const lang = to.language;
    return this.send(
      to,
      `quota_${o.level}`,
      quotaLevelMail(lang, {
        level: o.level,
        used: formatNumber(lang, o.used),
        limit: formatNumber(lang, o.limit),
        month: formatMonth(lang, o.month),
        resets: formatDay(lang, o.resetsAt),
        url: this.link('/plans'),
      }),
    );
  }

  accountClosed(to: Recipient, at: Date, years: number): Promise<boolean> {
    return this.send(to, 'account_closed', accountClosedMail(to.language, { when: formatDay(to.language, at), years }));
  }
}
