/**
 * A count Redis ran but whose answer came too late (a command timeout on a loaded
 * machine): the Redis store sends it again, and the script's mark of being done makes it
 * count once. Redis is held busy by a script of the test's own for 600 ms while the store's
 * client gives up on a command after 150 ms: the store's first send runs after the busy
 * script, unanswered in time, and is sent again.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createAccount } from '../../server/accounts/accounts.js';
import { type Database, openDatabase } from '../../server/platform/db.js';
import { createLogger } from '../../server/platform/logger.js';
import { Admission, type AdmissionCaller, type Ticket } from '../../server/quota/admission.js';
import { Failover } from '../../server/quota/failover.js';
import { LEASE_MS } from '../../server/quota/leases.js';
import { BackgroundWork } from '../../server/platform/background-work.js';
import { PostgresStore } from '../../server/quota/postgres-store.js';
import { RedisStore } from '../../server/quota/redis-store.js';
import { UsageFlusher } from '../../server/quota/usage-flusher.js';
import { breakdownField, usageKeys } from '../../server/quota/usage-keys.js';
import { randomId } from '../../server/platform/ids.js';
import { itWhen } from '../helpers/requires.js';

const it = itWhen(Boolean(process.env.REDIS_URL), 'Redis (REDIS_URL)');
const keys = usageKeys(`redis-timeout-test-${process.pid}`);
const MONTH = '2026-11';
const DAY = '2026-11-28';

let redis: Redis;
let slow: Redis;
let db: Database;
beforeAll(() => {
  db = openDatabase(process.env.DATABASE_URL!, { max: 2 });
  if (!process.env.REDIS_URL) return;
  redis = new Redis(process.env.REDIS_URL);
  slow = new Redis(process.env.REDIS_URL, { commandTimeout: 150, maxRetriesPerRequest: 0 });
  // Its timeouts are the point of the test: heard, not reported.
  slow.on('error', () => {});
});
afterAll(async () => {
  await redis?.del(keys.pending);
  redis?.disconnect();
  slow?.disconnect();
  await db?.close();
});

/** Keeps Redis busy for `ms` (a script that loops on TIME), answered when it ends. */
function holdRedisBusy(ms: number): Promise<unknown> {
  const lua = `local t = redis.call('TIME'); local start = t[1] * 1000000 + t[2]
    while true do local n = redis.call('TIME'); if n[1] * 1000000 + n[2] - start > ${ms * 1000} then break end end
    return 1`;
  return redis.eval(lua, 0);
}

/** Runs `fn` while Redis is held busy for 600 ms (begun 20 ms before it), and waits for both. */
async function whileRedisBusy<T>(fn: () => Promise<T>): Promise<T> {
  const busy = holdRedisBusy(600);
  await new Promise((ok) => setTimeout(ok, 20));
  const result = await fn();
  await busy;
  return result;
}

const counted = async (accountId: string) => Number(await redis.get(`mboa:q:{${accountId}}:${MONTH}`));
const pending = async (accountId: string, keyId: string) =>
  Number(await redis.hget(keys.pending, breakdownField(accountId, DAY, 'listings.search', keyId)));

describe('a count whose answer came after the command timeout', () => {
  it('is sent again and counted once (a call)', async () => {
    const store = new RedisStore(slow, keys);
    const accountId = randomId('acct');
    const used = await whileRedisBusy(() =>
      store.count({
        store: 'redis',
        holdId: null,
        accountId,
        keyId: 'key_t',
        endpoint: 'listings.search',
        month: MONTH,
        day: DAY,
      }),
    );
    expect(used).toBe(1);
    expect(await counted(accountId)).toBe(1);
    expect(await pending(accountId, 'key_t')).toBe(1);
  });

  it('is sent again and counted once (a lease)', async () => {
    const store = new RedisStore(slow, keys);
    const accountId = randomId('acct');
    const field = breakdownField(accountId, DAY, 'listings.search', 'key_l');
    const used = await whileRedisBusy(() =>
      store.writeLease({
        accountId,
        rateScope: 'live',
        month: MONTH,
        windowMs: 0,
        holdPrefix: `h_${randomId('t')}`,
        fromSlot: 0,
        toSlot: 5,
        answered: [{ field, day: DAY, endpoint: 'listings.search', keyId: 'key_l', calls: 5 }],
        unusedCalls: 0,
        leasedSize: 0,
        limit: null,
        lost: false,
      }),
    );
    expect(used).toBe(5);
    expect(await counted(accountId)).toBe(5);
    expect(await pending(accountId, 'key_l')).toBe(5);
  });

  it('through the failover: once in PostgreSQL after its flush (run within the second Redis is left alone), not once more as if Redis had been away', async () => {
    const created = await createAccount(db.prisma, { email: `${randomId('t')}@test.mboa.cm`, plan: 'pro' });
    const accountId = created.account.id;
    const flusher = new UsageFlusher({ redis, pool: db.pool, logger: createLogger('silent'), keys });
    const failover = new Failover({
      postgres: new PostgresStore(db.pool),
      redis: new RedisStore(slow, keys),
      flusher,
      logger: createLogger('silent'),
      onRedisLost: () => {},
    });
    await whileRedisBusy(() =>
      failover.count({ store: 'redis', holdId: null, accountId, keyId: 'key_f', endpoint: 'listings.search', month: MONTH, day: DAY }),
    );
    // Then a read times out (reads are not sent again): Redis is left alone for the next second.
    const busy = holdRedisBusy(300);
    await new Promise((ok) => setTimeout(ok, 20));
    await failover.peek(accountId, `${MONTH}-01`, Date.now());
    await busy;
    expect(failover.redisInUse()).toBe(false);
    // Right after the timeout, as a drain or a test's flush would: Redis is connected, so its count moves.
    await failover.flush();
    const { rows } = await db.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date', [
      accountId,
      `${MONTH}-01`,
    ]);
    expect(rows.map((r) => r.used)).toEqual([1]);
  });

  it('a timeout ends the leases, and they give back through Redis what they did not use', async () => {
    const created = await createAccount(db.prisma, { email: `${randomId('t')}@test.mboa.cm`, plan: 'pro' });
    const accountId = created.account.id;
    const keyId = (await db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [accountId])).rows[0].id;
    const other = await createAccount(db.prisma, { email: `${randomId('t')}@test.mboa.cm`, plan: 'pro' });
    const admission = new Admission({
      pool: db.pool,
      redis: slow,
      logger: createLogger('silent'),
      background: new BackgroundWork(),
      usageNamespace: `redis-timeout-test-${process.pid}`,
    });
    const caller: AdmissionCaller = { accountId, keyId, monthlyQuota: 10_000, ratePerMinute: 100_000 };
    const tickets: Ticket[] = [];
    try {
      // Bursts half a period apart until one is served from a lease, which keeps slots ahead
      // (a lease is sized on the calls of the last period: on a loaded machine three bursts may not do).
      for (let round = 0; round < 20 && admission.leasedCalls === 0; round++) {
        if (round > 0) await new Promise((r) => setTimeout(r, LEASE_MS / 2));
        const admitted = await Promise.all(Array.from({ length: 40 }, () => admission.admit(caller, 'listings.search', true, new Date())));
        tickets.push(...admitted.map((a) => a.ticket!));
      }
      expect(admission.leasedCalls).toBeGreaterThan(0);
      // Another account's admission times out while Redis is busy.
      const late = await whileRedisBusy(() =>
        admission.admit(
          { accountId: other.account.id, keyId: 'key_o', monthlyQuota: 10_000, ratePerMinute: 100_000 },
          'listings.search',
          true,
          new Date(),
        ),
      );
      await Promise.all(tickets.map((t) => admission.settle(t, true)));
      if (late.ticket) await admission.settle(late.ticket, false);
      await admission.stop();
      // Redis is left alone for a second after the timeout: its counts reach PostgreSQL at the next flush.
      await new UsageFlusher({ redis, pool: db.pool, logger: createLogger('silent'), keys }).flush();
      const held = await redis.keys(`mboa:qh:{${accountId}}:*`);
      const slots = held.length ? (await Promise.all(held.map((k) => redis.zcard(k)))).reduce((a, b) => a + b, 0) : 0;
      expect(slots).toBe(0);
      const { rows } = await db.pool.query<{ used: number }>('SELECT used FROM monthly_usage WHERE account_id = $1', [accountId]);
      expect(rows.map((r) => r.used)).toEqual([tickets.length]);
    } finally {
      await admission.stop();
    }
  });
});
