// Runs in every test worker: the database the global setup prepared for this worker, and a
// Redis database of its own (see test/global-setup.ts).
import { inject } from 'vitest';

const worker = Number(process.env.VITEST_POOL_ID ?? '1');
const urls = inject('databaseUrls');
process.env.DATABASE_URL = urls[(worker - 1) % urls.length];
if (inject('embedded')) process.env.MBOA_TEST_EMBEDDED = '1';
// The worker's number past the database REDIS_URL names (0 when it names none), so two runs
// given /0 and /8 never share one.
if (process.env.REDIS_URL) {
  const redis = new URL(process.env.REDIS_URL);
  const base = Number(redis.pathname.slice(1) || '0');
  redis.pathname = `/${base + worker}`;
  process.env.REDIS_URL = redis.toString();
}
