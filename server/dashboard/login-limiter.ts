/**
 * Log-in attempts are limited per e-mail address and per client IP, so a password cannot
 * be guessed by trying many against one account or one against many accounts.
 *
 * Each attempt is counted before its password is checked, in one atomic step (see
 * attempt-limiter.ts): however many guesses arrive at once, at most `perEmail` passwords
 * of an address are ever checked in a window. A successful log-in clears its address's
 * count and gives its IP's attempt back (offices share one IP).
 */
import type { Redis } from 'ioredis';
import { AttemptLimiter, hashedKey, takeAll } from './attempt-limiter.js';

export interface LoginLimits {
  /** Attempts allowed per e-mail address in the window. */
  perEmail: number;
  /** Attempts allowed per client IP in the window. */
  perIp: number;
  windowSeconds: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perEmail: 5, perIp: 50, windowSeconds: 15 * 60 };

export class LoginLimiter {
  private readonly byEmail: AttemptLimiter;
  private readonly byIp: AttemptLimiter;

  constructor(
    redis: Redis | undefined,
    readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
    prefix = 'mboa',
  ) {
    this.byEmail = new AttemptLimiter(redis, `${prefix}:login:email`, { points: limits.perEmail, windowSeconds: limits.windowSeconds });
    this.byIp = new AttemptLimiter(redis, `${prefix}:login:ip`, { points: limits.perIp, windowSeconds: limits.windowSeconds });
  }

  /** Counts an attempt: null when its password may be checked, else the seconds to wait. */
  attempt(email: string, ip: string): Promise<number | null> {
    return takeAll([
      [this.byEmail, hashedKey(email)],
      [this.byIp, ip],
    ]);
  }

  async succeeded(email: string, ip: string): Promise<void> {
    await Promise.all([this.byEmail.clear(hashedKey(email)), this.byIp.giveBack(ip)]);
  }
}
