/**
 * Failed log-ins are limited per e-mail address and per client IP, so a password cannot
 * be guessed by trying many against one account or one against many accounts. With Redis
 * the counts are shared by every server instance; otherwise they are per process.
 * Only failures count; a successful log-in clears its e-mail's count.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface LoginLimits {
  /** Failed attempts allowed per e-mail address in the window. */
  perEmail: number;
  /** Failed attempts allowed per client IP in the window (offices share one IP). */
  perIp: number;
  windowSeconds: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { perEmail: 5, perIp: 50, windowSeconds: 15 * 60 };

function limiter(redis: Redis | undefined, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  const options = { keyPrefix, points, duration };
  return redis
    ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
    : new RateLimiterMemory(options);
}

/** E-mail addresses are hashed: no customer address in Redis. */
const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);

export class LoginLimiter {
  private readonly byEmail: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;

  constructor(
    redis: Redis | undefined,
    readonly limits: LoginLimits = DEFAULT_LOGIN_LIMITS,
  ) {
    this.byEmail = limiter(redis, 'mboa:login:email', limits.perEmail, limits.windowSeconds);
    this.byIp = limiter(redis, 'mboa:login:ip', limits.perIp, limits.windowSeconds);
  }

  /** Seconds to wait before the next attempt, or null when an attempt is allowed. */
  async retryAfter(email: string, ip: string): Promise<number | null> {
    const [e, i] = await Promise.all([this.byEmail.get(emailKey(email)), this.byIp.get(ip)]);
    const waits = [
      e && e.consumedPoints >= this.limits.perEmail ? e.msBeforeNext : 0,
      i && i.consumedPoints >= this.limits.perIp ? i.msBeforeNext : 0,
    ];
    const ms = Math.max(...waits);
    return ms > 0 ? Math.max(1, Math.ceil(ms / 1000)) : null;
  }

  async failed(email: string, ip: string): Promise<void> {
    await Promise.all([swallow(this.byEmail.consume(emailKey(email))), swallow(this.byIp.consume(ip))]);
  }

  async succeeded(email: string): Promise<void> {
    await this.byEmail.delete(emailKey(email)).catch(() => false);
  }
}

/** Over the limit is an expected answer here, not an error. */
async function swallow(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof RateLimiterRes)) throw err;
  }
}
