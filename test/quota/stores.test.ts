/**
 * One suite of admission cases run over every store through the one interface
 * (server/quota/store.ts): the PostgreSQL store, the Redis store, and the failover in front
 * of both while Redis is in use. Each must give the same answers: the per-minute limit
 * (test keys apart), the quota with its held slots, slots freed or expired uncharged, and
 * an answered call counted once, in the month's count and in PostgreSQL's usage tables.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createAccount } from '../../server/accounts/accounts.js';
import { quotaCalendar } from '../../server/accounts/policy.js';
import { type Database, openDatabase } from '../../server/platform/db.js';
import { randomId } from '../../server/platform/ids.js';
import { createLogger } from '../../server/platform/logger.js';
import { Failover } from '../../server/quota/failover.js';
import { PostgresStore } from '../../server/quota/postgres-store.js';
import { RedisStore } from '../../server/quota/redis-store.js';
import { type AdmissionStore, AdmitCode, type AdmitInput, type AnsweredCall, WINDOW_MS } from '../../server/quota/store.js';
import { UsageFlusher } from '../../server/quota/usage-flusher.js';
import { usageKeys } from '../../server/quota/usage-keys.js';
import { itWhen } from '../helpers/requires.js';

const hasRedis = Boolean(process.env.REDIS_URL);
/** Counts waiting for PostgreSQL in a namespace of this suite's own, flushed by it alone. */
const keys = usageKeys(`stores-test-${process.pid}`);

let db: Database;
let redis: Redis | undefined;
beforeAll(async () => {
  db = openDatabase(process.env.DATABASE_URL!, { max: 4 });
  if (hasRedis) {
    redis = new Redis(process.env.REDIS_URL!);
    await new Promise((resolve) => redis!.once('ready', resolve));
  }
});
afterAll(async () => {
  await redis?.del(keys.pending);
  redis?.disconnect();
  await db?.close();
});

interface Implementation {
  name: string;
  available: boolean;
  make(): AdmissionStore;
  /** Moves what the store counted to PostgreSQL's usage tables, as the server does every second. */
  toPostgres(): Promise<void>;
}

const flusher = () => new UsageFlusher({ redis: redis!, pool: db.pool, logger: createLogger('silent'), keys });
const IMPLEMENTATIONS: Implementation[] = [
  { name: 'PostgreSQL', available: true, make: () => new PostgresStore(db.pool), toPostgres: async () => {} },
  { name: 'Redis', available: hasRedis, make: () => new RedisStore(redis!, keys), toPostgres: () => flusher().flush() },
  {
    name: 'failover, Redis in use',
    available: hasRedis,
    make: () =>
      new Failover({
        postgres: new PostgresStore(db.pool),
        redis: new RedisStore(redis!, keys),
        flusher: flusher(),
        logger: createLogger('silent'),
        onRedisLost: () => {},
      }),
    toPostgres: () => flusher().flush(),
  },
];

/** A new account and its key; its calls, for one store. */
async function account(store: AdmissionStore, limits: { quota: number | null; rate: number | null }, holdTtlMs = 60_000) {
  const created = await createAccount(db.prisma, { email: `${randomId('t')}@test.mboa.cm`, plan: 'pro' });
  const accountId = created.account.id;
  const keyId = (await db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1', [accountId])).rows[0].id;
  const now = new Date();
  const { month, day } = quotaCalendar(now);
  let n = 0;
  const input = (over: Partial<AdmitInput> = {}): AdmitInput => ({
    accountId,
    rateScope: 'live',
    month,
    counted: true,
    ...limits,
    holdId: `${accountId}:${n++}`,
    nowMs: Date.now(),
    holdTtlMs,
    // The month's count where it is kept: none yet (a store that keeps it, PostgreSQL, needs none).
    seed: { used: 0, mode: 'missing' },
    ...over,
  });
  return {
    accountId,
    admit: (over?: Partial<AdmitInput>) => store.admit(input(over)),
    /** The answered call that an admission's answer and input make. */
    call: (holdId: string | null, store: AnsweredCall['store']): AnsweredCall => ({
      store,
      holdId,
      accountId,
      keyId,
      endpoint: 'listings.search',
      month,
      day,
    }),
    input,
    peek: () => store.peek(accountId, month, Date.now()),
    async stored() {
      const { rows } = await db.pool.query<{ used: number | null; calls: number | null }>(
        `SELECT (SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2::date) AS used,
                (SELECT sum(calls)::int FROM daily_usage WHERE account_id = $1 AND day = $3::date AND api_key_id = $4) AS calls`,
        [accountId, month, day, keyId],
      );
      return { used: rows[0].used ?? 0, calls: rows[0].calls ?? 0 };
    },
  };
}

describe.each(IMPLEMENTATIONS)('admission in the $name store', (impl) => {
  const it = itWhen(impl.available, 'Redis (REDIS_URL)');

  it('the per-minute limit: calls up to it admitted and counted in order, the next refused; test keys have a window of their own', async () => {
    const store = impl.make();
    const a = await account(store, { quota: null, rate: 5 });
    // All at one instant: within one window however slow the machine.
    const nowMs = Date.now();
    for (let i = 1; i <= 5; i++) {
      const r = await a.admit({ nowMs });
      expect(r).toMatchObject({ code: AdmitCode.Admitted, rateCount: i, used: 0, pending: 0 });
    }
    const refused = await a.admit({ nowMs });
    expect(refused.code).toBe(AdmitCode.RateLimited);
    expect(refused.rateCount).toBe(6);
    // A refused call's count of the month may be left unread (-1): the caller asks for it then.
    expect([-1, 0]).toContain(refused.used);
    const test = await a.admit({ rateScope: 'test', counted: false, nowMs });
    expect(test).toMatchObject({ code: AdmitCode.Admitted, rateCount: 1, used: 0, pending: 0 });
  });

  it('the quota: each counted call holds a slot; with only held slots in the way the next waits, with all counted it is refused', async () => {
    const store = impl.make();
    const a = await account(store, { quota: 3, rate: null });
    const held = [];
    for (let i = 1; i <= 3; i++) {
      const input = a.input();
      const r = await store.admit(input);
      expect(r).toMatchObject({ code: AdmitCode.Admitted, used: 0, pending: i });
      held.push(a.call(input.holdId, r.store));
    }
    expect(await a.admit()).toMatchObject({ code: AdmitCode.Wait, used: 0, pending: 3 });
    // A call that does not count is let through, and sees the quota as it stands.
    expect(await a.admit({ counted: false })).toMatchObject({ code: AdmitCode.Admitted, used: 0, pending: 3 });
    // Counted at once, each gets the month's count as it stood once it was in.
    expect((await Promise.all(held.map((call) => store.count(call)))).sort()).toEqual([1, 2, 3]);
    expect(await a.admit()).toMatchObject({ code: AdmitCode.QuotaFull, used: 3, pending: 0 });
    expect(await a.peek()).toEqual({ used: 3, pending: 0 });
  });

  it('slots freed: a released slot goes back to the quota uncharged, and an abandoned one expires by itself', async () => {
    const store = impl.make();
    const a = await account(store, { quota: 2, rate: null }, 500);
    const first = a.input();
    const r1 = await store.admit(first);
    await a.admit(); // never settled: its instance crashed
    expect(await a.admit()).toMatchObject({ code: AdmitCode.Wait, pending: 2 });
    await store.release({ store: r1.store, holdId: first.holdId, accountId: a.accountId, month: first.month });
    expect(await a.peek()).toEqual({ used: 0, pending: 1 });
    expect(await a.admit()).toMatchObject({ code: AdmitCode.Admitted, used: 0, pending: 2 });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(await a.peek()).toEqual({ used: 0, pending: 0 });
    expect(await a.admit()).toMatchObject({ code: AdmitCode.Admitted, used: 0, pending: 1 });
    await impl.toPostgres();
    expect(await a.stored()).toEqual({ used: 0, calls: 0 });
  });

  it('an answered call is counted once: its slot freed, the month one more, and one call in PostgreSQL', async () => {
    const store = impl.make();
    const limited = await account(store, { quota: 10, rate: null });
    const input = limited.input();
    const r = await store.admit(input);
    expect(await store.count(limited.call(input.holdId, r.store))).toBe(1);
    expect(await limited.peek()).toEqual({ used: 1, pending: 0 });
    expect(await limited.admit({ counted: false })).toMatchObject({ code: AdmitCode.Admitted, used: 1, pending: 0 });
    await impl.toPostgres();
    expect(await limited.stored()).toEqual({ used: 1, calls: 1 });
    // Without a monthly quota nothing is held, and each answered call still counts.
    const unlimited = await account(store, { quota: null, rate: null });
    const answers = await Promise.all([1, 2, 3].map(() => unlimited.admit()));
    for (const a of answers) expect(a).toMatchObject({ code: AdmitCode.Admitted, pending: 0 });
    expect((await Promise.all(answers.map((a) => store.count(unlimited.call(null, a.store))))).sort()).toEqual([1, 2, 3]);
    await impl.toPostgres();
    expect(await unlimited.stored()).toEqual({ used: 3, calls: 3 });
  });

  it('a window is a minute: the next minute starts from zero', async () => {
    const store = impl.make();
    const a = await account(store, { quota: null, rate: 1 });
    const minute = Math.floor(Date.now() / WINDOW_MS) * WINDOW_MS;
    expect(await a.admit({ nowMs: minute + 1_000 })).toMatchObject({ code: AdmitCode.Admitted, rateCount: 1 });
    expect(await a.admit({ nowMs: minute + 2_000 })).toMatchObject({ code: AdmitCode.RateLimited, rateCount: 2 });
    expect(await a.admit({ nowMs: minute + WINDOW_MS + 1_000 })).toMatchObject({ code: AdmitCode.Admitted, rateCount: 1 });
  });
});
