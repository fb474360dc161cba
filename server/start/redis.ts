/** The server's Redis connection: one address, or the primary Sentinel names. */
import { Redis } from 'ioredis';
import type { RedisSentinels } from '../platform/config.js';

/**
 * Fail fast rather than queue: a command to an unreachable Redis errors at once (or after
 * 500 ms when Redis hangs), and admission falls back to PostgreSQL. (Auto-pipelining was
 * measured slower for one command per call.)
 */
const REDIS_OPTIONS = { maxRetriesPerRequest: 0, enableOfflineQueue: false, commandTimeout: 500 } as const;
/** How long a starting server waits for Redis before serving without it. */
export const REDIS_WAIT_MS = 3_000;

/**
 * Redis at REDIS_URL, or the primary the Sentinels name (asked again on every reconnection,
 * and followed at once when they announce a failover: ioredis's Sentinel support).
 */
export function connectRedis(redisUrl: string | undefined, sentinels: RedisSentinels | undefined): Redis | undefined {
  if (!sentinels) return redisUrl ? new Redis(redisUrl, REDIS_OPTIONS) : undefined;
  const url = redisUrl ? new URL(redisUrl) : undefined;
  return new Redis({
    ...REDIS_OPTIONS,
    sentinels: sentinels.sentinels,
    name: sentinels.name,
    role: 'master',
    failoverDetector: true,
    db: url && url.pathname.length > 1 ? Number(url.pathname.slice(1)) : 0,
    username: url?.username ? decodeURIComponent(url.username) : undefined,
    password: url?.password ? decodeURIComponent(url.password) : undefined,
  });
}

export function waitForRedis(redis: Redis, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    redis.once('ready', done);
  });
}
