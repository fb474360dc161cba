/**
 * Sign-ups are limited per client IP and per e-mail domain, so nobody opens accounts by
 * the hundred (each one a free first key). A company's own domain gets a few a day; the
 * ordinary webmail domains, shared by many unrelated customers, get many more. Counted
 * atomically before the account is created (attempt-limiter.ts), shared through Redis.
 */
import type { Redis } from 'ioredis';
import { AttemptLimiter, type Limit, takeAll } from './attempt-limiter.js';

export interface SignupLimits {
  perIp: Limit;
  /** A company's own domain. */
  perDomain: Limit;
  /** gmail.com, yahoo.fr…: one domain, many unrelated customers. */
  perWebmailDomain: Limit;
}

const HOUR = 60 * 60;
export const DEFAULT_SIGNUP_LIMITS: SignupLimits = {
  perIp: { points: 10, windowSeconds: HOUR },
  perDomain: { points: 5, windowSeconds: 24 * HOUR },
  perWebmailDomain: { points: 100, windowSeconds: 24 * HOUR },
};

/** Public webmail providers common in Cameroon and elsewhere. */
export const WEBMAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'yahoo.com',
  'yahoo.fr',
  'ymail.com',
  'rocketmail.com',
  'hotmail.com',
  'hotmail.fr',
  'outlook.com',
  'outlook.fr',
  'live.com',
  'live.fr',
  'msn.com',
  'icloud.com',
  'me.com',
  'aol.com',
  'gmx.com',
  'gmx.fr',
  'mail.com',
  'proton.me',
  'protonmail.com',
  'yandex.com',
  'zoho.com',
  'orange.fr',
  'laposte.net',
  'free.fr',
]);

export class SignupLimiter {
  private readonly byIp: AttemptLimiter;
  private readonly byDomain: AttemptLimiter;
  private readonly byWebmailDomain: AttemptLimiter;

  constructor(
    redis: Redis | undefined,
    readonly limits: SignupLimits = DEFAULT_SIGNUP_LIMITS,
    prefix = 'mboa',
  ) {
    this.byIp = new AttemptLimiter(redis, `${prefix}:signup:ip`, limits.perIp);
    this.byDomain = new AttemptLimiter(redis, `${prefix}:signup:domain`, limits.perDomain);
    this.byWebmailDomain = new AttemptLimiter(redis, `${prefix}:signup:webmail`, limits.perWebmailDomain);
  }

  /** Counts a sign-up of `email` from `ip`: null when it may go ahead, else the seconds to wait. */
  attempt(email: string, ip: string): Promise<number | null> {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    return takeAll([
      [this.byIp, ip],
      [WEBMAIL_DOMAINS.has(domain) ? this.byWebmailDomain : this.byDomain, domain],
    ]);
  }
}
