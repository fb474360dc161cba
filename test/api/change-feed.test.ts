/**
 * How fast a change of a key or an account reaches the API of every instance, whatever
 * happens to the change feed (README, "How fast a change reaches the API"): within 1 s
 * while it delivers, on the embedded database too; within the heartbeat's bound when its
 * connection goes deaf (bytes held by a stalled proxy), which the log, /metrics and
 * /readyz then show; at once when its backend is killed. Over real HTTP, with the changes
 * made in the database as the dashboard and the CLI make them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptLog } from '../helpers/kept-log.js';
import { createAccount } from '../../server/accounts/accounts.js';
import { closeAccount } from '../../server/accounts/closure.js';
import { hashPassword } from '../../server/accounts/passwords.js';
import { FEED_HEARTBEAT_MS, FEED_HEARTBEAT_TIMEOUT_MS } from '../../server/platform/change-feed.js';
import { randomId } from '../../server/platform/ids.js';
import { itOnServer } from '../helpers/requires.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const TOKEN = 'metrics-token-0123456789abcdef';
/** Ping: authenticated, never counted; Enterprise keys have no per-minute limit to meet while polling. */
const PING = '/api/v1/ping';
/** The deaf feed's bound: a heartbeat missed, then found missing; plus a margin for a loaded machine. */
const DEAF_BOUND_MS = FEED_HEARTBEAT_MS + FEED_HEARTBEAT_TIMEOUT_MS + 1_000;

let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer();
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function status(server: TestServer, key: string, path = PING, method = 'GET'): Promise<number> {
  const res = await fetch(`${server.baseUrl}${path}`, { method, headers: { 'X-API-Key': key } });
  await res.arrayBuffer();
  return res.status;
}

/** Milliseconds from `since` until `server` answers `key` with `refused`. */
async function refusedAfter(server: TestServer, key: string, refused: number, since: number, path = PING, method = 'GET') {
  for (;;) {
    const s = await status(server, key, path, method);
    if (s === refused) return Date.now() - since;
    expect(s, `${server.baseUrl}${path}`).toBe(200);
    if (Date.now() - since > 15_000) throw new Error(`still ${s} after 15 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Warms both instances' caches with `key`, makes `change`, then measures how long each kept
 * answering once the change was made (committed: a closure's transaction alone can take
 * longer than the bound on a loaded machine, and no instance can see it before its commit).
 */
async function measure(key: string, refused: number, change: () => Promise<unknown>, path = PING, method = 'GET') {
  for (const server of [a, b]) for (let i = 0; i < 3; i++) expect(await status(server, key, path, method)).toBe(200);
  await change();
  const since = Date.now();
  return Promise.all([a, b].map((server) => refusedAfter(server, key, refused, since, path, method)));
}

describe('a change reaches every instance within 1 s', () => {
  it('a revoked key', async () => {
    const { id, key } = await a.account('enterprise');
    const took = await measure(key, 401, () => a.db.pool.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [id]));
    for (const ms of took) expect(ms).toBeLessThan(1_000);
  });

  it('a key whose rotation grace period ended', async () => {
    const { id, key } = await a.account('enterprise');
    const took = await measure(key, 401, () =>
      a.db.pool.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE account_id = $1`, [id]),
    );
    for (const ms of took) expect(ms).toBeLessThan(1_000);
  });

  it('a suspended account', async () => {
    const { id, key } = await a.account('enterprise');
    const took = await measure(key, 403, () =>
      a.db.pool.query(`UPDATE accounts SET status = 'suspended', suspension_reason = 'operator' WHERE id = $1`, [id]),
    );
    for (const ms of took) expect(ms).toBeLessThan(1_000);
  });

  it('a closed account', async () => {
    const password = 'a long enough password 42';
    const created = await createAccount(a.db.prisma, {
      email: `${randomId('t')}@test.mboa.cm`,
      plan: 'pro',
      passwordHash: await hashPassword(password),
    });
    const took = await measure(created.key, 401, () => closeAccount(a.db.prisma, { accountId: created.account.id, password }));
    for (const ms of took) expect(ms).toBeLessThan(1_000);
  });

  it('a plan change (Enterprise to Pro: exports no longer included)', async () => {
    const { id, key } = await a.account('enterprise');
    const took = await measure(
      key,
      403,
      () => a.db.pool.query(`UPDATE accounts SET plan = 'pro' WHERE id = $1`, [id]),
      '/api/v1/exports/listings',
      'HEAD',
    );
    for (const ms of took) expect(ms).toBeLessThan(1_000);
  });
});

/** A server whose change feed goes through `proxy`, its log lines kept. */
async function serverWithFeedThrough(proxy: TcpProxy) {
  const { logger, lines } = keptLog();
  const server = await startTestServer({ server: { logger, metrics: { token: TOKEN }, changeFeed: { databaseUrl: proxy.url } } });
  return { server, lines };
}

async function metric(server: TestServer, name: string): Promise<number> {
  const text = await (await fetch(`${server.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ').pop());
}

describe('a deaf change feed (its connection stalled: bytes held, nothing closed)', () => {
  let proxy: TcpProxy;
  let s: Awaited<ReturnType<typeof serverWithFeedThrough>>;
  beforeAll(async () => {
    proxy = await startTcpProxy(process.env.DATABASE_URL!);
    s = await serverWithFeedThrough(proxy);
  });
  afterAll(async () => {
    await s?.server.close();
    await proxy?.close();
  });

  it('is found within the bound: caches bypassed, then refreshed once it is back; the log, /metrics and /readyz say so', async () => {
    const server = s.server;
    const revoked = await server.account('enterprise');
    const suspended = await server.account('enterprise');
    for (const key of [revoked.key, suspended.key]) for (let i = 0; i < 3; i++) expect(await status(server, key)).toBe(200);
    expect(await metric(server, 'mboa_change_feed_live')).toBe(1);
    expect((await get(server.baseUrl, '/readyz')).body.change_feed).toBe('ok');

    proxy.stall();
    const since = Date.now();
    await server.db.pool.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [revoked.id]);
    const took = await refusedAfter(server, revoked.key, 401, since);
    expect(took).toBeLessThan(DEAF_BOUND_MS);

    expect(await metric(server, 'mboa_change_feed_live')).toBe(0);
    expect(await metric(server, 'mboa_change_feed_losses_total{reason="deaf"}')).toBe(1);
    const ready = await get(server.baseUrl, '/readyz');
    // Reported, not a reason to leave the load balancer: answers stay exact, read from the database.
    expect(ready.status).toBe(200);
    expect(ready.body.change_feed).toBe('deaf');
    expect(s.lines.some((l) => l.includes('change feed deaf'))).toBe(true);

    // Missed while deaf: the account's suspension. Back live, the cache starts afresh.
    await server.db.pool.query(`UPDATE accounts SET status = 'suspended', suspension_reason = 'operator' WHERE id = $1`, [suspended.id]);
    proxy.unstall();
    await expect.poll(async () => (await get(server.baseUrl, '/readyz')).body.change_feed, { timeout: 15_000, interval: 100 }).toBe('ok');
    expect(await metric(server, 'mboa_change_feed_live')).toBe(1);
    expect(await status(server, suspended.key)).toBe(403);
    expect(await status(server, revoked.key)).toBe(401);
    expect(s.lines.some((l) => l.includes('change feed live again'))).toBe(true);
  });
});

describe('a change feed whose backend is killed', () => {
  // The embedded database is one session that every connection shares: there is no backend
  // of the feed's own to kill (pg_terminate_backend would end the database for everyone).
  itOnServer('the embedded database has no backend per connection')(
    'reconnects; a change made meanwhile is refused at once on every instance',
    async () => {
      const { id, key } = await a.account('enterprise');
      for (let i = 0; i < 3; i++) expect(await status(a, key)).toBe(200);
      const killed = await a.db.pool.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'mboa-change-feed' AND datname = current_database()`,
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(2);
      const since = Date.now();
      await a.db.pool.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [id]);
      expect(await refusedAfter(a, key, 401, since)).toBeLessThan(1_000);
      expect(await refusedAfter(b, key, 401, since)).toBeLessThan(1_000);
      // Back live (the readiness check shows it), with nothing stale kept.
      await expect.poll(async () => (await get(a.baseUrl, '/readyz')).body.change_feed, { timeout: 15_000, interval: 100 }).toBe('ok');
      expect(await status(a, key)).toBe(401);
    },
  );
});
