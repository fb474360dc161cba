/**
 * The per-minute limit, per account. With Redis every server instance shares the count
 * (rate-limiter-flexible's fixed 60 s window); without it, it is per process. If Redis
 * stops answering, an in-memory limiter takes over rather than failing calls.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

const WINDOW_SECONDS = 60;

export class AccountRateLimiter {
  private readonly limiters = new Map<number, RateLimiterAbstract>();

  constructor(private readonly redis?: Redis) {}

  /** One limiter per limit value: accounts on the same plan share its settings, not counts. */
  private limiter(points: number): RateLimiterAbstract {
    let limiter = this.limiters.get(points);
    if (!limiter) {
      const options = { points, duration: WINDOW_SECONDS, keyPrefix: `mboa:rate:${points}` };
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      this.limiters.set(points, limiter);
    }
    return limiter;
  }

  async consume(accountId: string, limit: number): Promise<RateDecision> {
    try {
      const res = await this.limiter(limit).consume(accountId, 1);
      return decision(true, limit, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return decision(false, limit, rejection);
      throw rejection;
    }
  }
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes): RateDecision {
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
  };
}
