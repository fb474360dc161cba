/**
 * Counts attempts per key (an IP, a hashed e-mail, a domain...) in a fixed window, and
 * refuses those past the limit. The attempt is counted first and refused after, in one
 * atomic step (an INCR-style update in Redis, or in this process's memory), so however many
 * arrive at once no more than the limit ever get through. With Redis every server instance
 * shares the counts; if Redis stops answering, a per-process count takes over.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface Limit {
  /** Attempts allowed per key in the window. */
  points: number;
  windowSeconds: number;
}

export class AttemptLimiter {
  private readonly limiter: RateLimiterAbstract;

  constructor(
    redis: Redis | undefined,
    keyPrefix: string,
    readonly limit: Limit,
  ) {
    const options = { keyPrefix, points: limit.points, duration: limit.windowSeconds };
    this.limiter = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
  }

  /** Counts one attempt: null when it may go ahead, else the seconds to wait (it is refused). */
  async take(key: string): Promise<number | null> {
    try {
      await this.limiter.consume(key, 1);
      return null;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw rejection;
    }
  }

  /** Gives one attempt back (e.g. a successful log-in from a shared office IP). */
  async giveBack(key: string): Promise<void> {
    await this.limiter.reward(key, 1).catch(() => undefined);
  }

  /** Forgets a key's count. */
  async clear(key: string): Promise<void> {
    await this.limiter.delete(key).catch(() => false);
  }
}

/** Counts several keys for one attempt: refused if any is over; the longest wait is given. */
export async function takeAll(entries: Array<[AttemptLimiter, string]>): Promise<number | null> {
  const waits = await Promise.all(entries.map(([limiter, key]) => limiter.take(key)));
  const refused = waits.filter((w): w is number => w !== null);
  return refused.length ? Math.max(...refused) : null;
}

/** E-mail addresses are hashed before they are used as keys: no customer address in Redis. */
export function hashedKey(value: string): string {
  return createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 32);
}
