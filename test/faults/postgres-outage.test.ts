/**
 * The database crashes under load and comes back: a private PostgreSQL cluster, killed
 * outright (SIGKILL to the postmaster and its backends) while callers keep asking, then
 * started again on the same port. Calls must turn into 503 `unavailable` at once (no
 * hang, no 500), the server must recover by itself, and every call a caller received
 * whole with a 2xx must be counted exactly once, none more.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyMigrations } from '../../prisma/schema-engine/migrations.js';
import { seedListings } from '../../server/generate/seed.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { checkAnswer } from '../helpers/answer-checks.js';
import { answered2xx, type Exchange, startLoad, statusTally } from '../helpers/load.js';
import { canRunPrivatePostgres, type PrivatePostgres, startPrivatePostgres } from '../helpers/private-postgres.js';
import { describeWhen } from '../helpers/requires.js';
import { get, startTestServer, storedUsage, type TestServer } from '../helpers/server.js';

const OUTAGE_MS = 3_000;
/** How fast calls must turn into 503s once the database is gone: generous, the point is "no hang". */
const FAST_MS = 2_000;

describeWhen(canRunPrivatePostgres(), 'PostgreSQL binaries under /usr/lib/postgresql (and, as root, setpriv and a postgres user)')(
  'a PostgreSQL crash under load',
  () => {
    let cluster: PrivatePostgres;
    let t: TestServer;

    beforeAll(async () => {
      cluster = await startPrivatePostgres();
      const admin = new pg.Client({ connectionString: cluster.url() });
      await admin.connect();
      await admin.query('CREATE DATABASE mboa');
      await admin.end();
      const url = cluster.url('mboa');
      await applyMigrations(url);
      const seed = new pg.Pool({ connectionString: url, max: 2 });
      try {
        await seedListings(seed, { listings: 400, seed: 11 });
        await refreshMarketFigures(seed);
      } finally {
        await seed.end();
      }
      t = await startTestServer({ databaseUrl: url });
    }, 120_000);

    afterAll(async () => {
      await t?.close();
      await cluster?.destroy();
    });

    it('answers 503 at once while it is down, recovers without a restart, and counts every 2xx exactly once', async () => {
      // A quota (so calls hold slots) far from reach, and no per-minute limit in the way.
      const caller = await t.account('enterprise', { monthlyQuota: 1_000_000, rateLimit: 1_000_000 });
      const first = await get(t.baseUrl, '/api/v1/listings?limit=1', caller.key);
      expect(first.status).toBe(200);
      const id = first.body.data[0].id as string;
      const paths = [
        '/api/v1/listings?limit=20&city=Douala',
        `/api/v1/listings/${id}`,
        '/api/v1/market/stats?city=Douala',
        '/api/v1/listings?limit=50&sort=price',
      ];
      const load = startLoad(t.baseUrl, caller.key, paths, 8);
      const now = () => performance.now() - load.startedAt;

      let killedAt = 0;
      /** When the postmaster was started again, and when it accepted connections. */
      let restartingAt = 0;
      let restartedAt: number;
      let readyDuring: Awaited<ReturnType<typeof get>> | undefined;
      let readyAfter: number;
      try {
        const warm = Date.now() + 10_000;
        while (answered2xx(load.exchanges).length < 50 && Date.now() < warm) await new Promise((r) => setTimeout(r, 20));
        expect(answered2xx(load.exchanges).length, statusTally(load.exchanges)).toBeGreaterThanOrEqual(50);
        await cluster.kill();
        killedAt = now();
        await new Promise((r) => setTimeout(r, OUTAGE_MS / 2));
        readyDuring = await get(t.baseUrl, '/readyz');
        await new Promise((r) => setTimeout(r, OUTAGE_MS / 2));
        restartingAt = now();
        await cluster.start();
        restartedAt = now();
        // Recovered: calls succeed again, on the same server.
        const deadline = Date.now() + 20_000;
        while (
          !load.exchanges.some((e) => e.sentAt > restartingAt && e.result.ok && e.result.answer.status === 200) &&
          Date.now() < deadline
        ) {
          await new Promise((r) => setTimeout(r, 20));
        }
        await new Promise((r) => setTimeout(r, 1_000));
        readyAfter = (await get(t.baseUrl, '/readyz')).status;
      } finally {
        await load.stop();
      }

      const all = load.exchanges;
      const during = all.filter((e) => e.sentAt >= killedAt && e.doneAt <= restartingAt);
      const unavailable = all.filter((e) => e.result.ok && e.result.answer.status === 503);
      const firstUnavailable = unavailable.filter((e) => e.doneAt >= killedAt).sort((a, b) => a.doneAt - b.doneAt)[0];
      const recovered = all
        .filter((e) => e.sentAt > restartingAt && e.result.ok && e.result.answer.status === 200)
        .sort((a, b) => a.doneAt - b.doneAt)[0];
      const slowest503 = Math.max(0, ...during.map((e) => e.doneAt - e.sentAt));
      // The first call above was a counted 2xx too.
      const ok = answered2xx(all).length + 1;
      const counted = await storedUsage(t, caller.id);
      console.log(
        `postgres outage: first 503 after ${firstUnavailable ? Math.round(firstUnavailable.doneAt - killedAt) : '-'} ms, ${unavailable.length} 503s ` +
          `(slowest during the outage ${Math.round(slowest503)} ms), database back ${Math.round(restartedAt - restartingAt)} ms after its restart, ` +
          `first 2xx ${recovered ? Math.max(0, Math.round(recovered.doneAt - restartedAt)) : '-'} ms after that, ` +
          `requests=${all.length} statuses=${statusTally(all)}, answered 2xx=${ok}, counted=${counted}`,
      );

      // Never a 500, never a hang, never a half answer: 2xx, or 503 `unavailable` problem+json.
      const bad = (e: Exchange) => {
        if (!e.result.ok) return `no answer: ${e.result.error}`;
        const a = e.result.answer;
        if (a.status === 200) return null;
        // A 503 is what is expected here; everything else about the answer is checked.
        const problems = checkAnswer(a, { method: 'GET', sent: e.path, secrets: [], enveloped: true }).filter((p) => p !== 'status 503');
        const code = JSON.parse(a.body.toString()).code;
        if (a.status !== 503 || code !== 'unavailable') problems.push(`${a.status} ${code}`);
        if (a.status === 503 && a.headers['retry-after'] === undefined) problems.push('503 without Retry-After');
        return problems.length ? problems.join('; ') : null;
      };
      expect(all.map((e) => [e.path, bad(e)]).filter(([, b]) => b)).toEqual([]);
      // Down: every call asked during the outage is refused, fast.
      expect(during.length).toBeGreaterThan(20);
      const shown = (list: Exchange[]) =>
        list.map(
          (e) => `${Math.round(e.sentAt)}-${Math.round(e.doneAt)} ms ${e.path}: ${e.result.ok ? e.result.answer.status : e.result.error}`,
        );
      expect(shown(during.filter((e) => !e.result.ok || e.result.answer.status !== 503))).toEqual([]);
      expect(firstUnavailable).toBeDefined();
      expect(firstUnavailable.doneAt - killedAt).toBeLessThan(FAST_MS);
      expect(slowest503).toBeLessThan(FAST_MS);
      expect(readyDuring!.status).toBe(503);
      expect(readyDuring!.body.checks.database).toBe('unreachable');
      // Back: without a restart of the server.
      expect(recovered).toBeDefined();
      expect(readyAfter).toBe(200);
      const tail = all.filter((e) => e.sentAt > recovered.doneAt);
      expect(tail.length).toBeGreaterThan(10);
      expect(shown(tail.filter((e) => !e.result.ok || e.result.answer.status !== 200))).toEqual([]);
      // Charged = answered.
      expect(counted).toBe(ok);
    }, 90_000);
  },
);
