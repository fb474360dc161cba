/**
 * Reads on a real streaming replica (private primary + pg_basebackup standby, both on this
 * machine): the API's reads are answered by the replica (a change the replica has not
 * replayed yet is not seen), every write lands on the primary (the replica is in recovery:
 * it could take none), a replica lagging past the bound is skipped (the change is seen at
 * once, from the primary), and a replica killed outright costs no call an error: its reads
 * are retried on the primary and it is set aside before its next check.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyMigrations } from '../../prisma/schema-engine/migrations.js';
import { seedListings } from '../../server/generate/seed.js';
import { refreshMarketFigures } from '../../server/ingest/market-refresh.js';
import { canRunPrivatePostgres, type PrivatePostgres, startPrivatePostgres } from '../helpers/private-postgres.js';
import { type PrivateReplica, startStreamingReplica } from '../helpers/private-replica.js';
import { describeWhen } from '../helpers/requires.js';
import { get, startTestServer, storedUsage, type TestServer } from '../helpers/server.js';

const TOKEN = 'replica-metrics-token-0123456789';
const MAX_LAG_SECONDS = 2;
const metric = async (t: TestServer, line: RegExp): Promise<number> => {
  const text = await (await fetch(`${t.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').at(-1)) : NaN;
};
const replicaState = async (t: TestServer): Promise<string> => (await get(t.baseUrl, '/readyz')).body.read_replicas?.replicas[0]?.state;
async function until(what: string, check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeWhen(canRunPrivatePostgres(), 'PostgreSQL binaries under /usr/lib/postgresql (and, as root, setpriv and a postgres user)')(
  'reads on a streaming replica',
  () => {
    let primary: PrivatePostgres;
    let replica: PrivateReplica;
    let writer: pg.Pool;
    let t: TestServer;
    let steady: TestServer;

    beforeAll(async () => {
      primary = await startPrivatePostgres();
      const admin = new pg.Client({ connectionString: primary.url() });
      await admin.connect();
      await admin.query('CREATE DATABASE mboa');
      await admin.end();
      await applyMigrations(primary.url('mboa'));
      writer = new pg.Pool({ connectionString: primary.url('mboa'), max: 2 });
      await seedListings(writer, { listings: 300, seed: 7 });
      await refreshMarketFigures(writer);
      replica = await startStreamingReplica(primary);
      await replica.caughtUp(primary);
      const replicas = (checkIntervalMs: number) => ({ urls: [replica.url('mboa')], maxLagSeconds: MAX_LAG_SECONDS, checkIntervalMs });
      t = await startTestServer({ databaseUrl: primary.url('mboa'), server: { readReplicas: replicas(200), metrics: { token: TOKEN } } });
      // Checked once a minute only: what sets a dead replica aside there is the failed read itself.
      steady = await startTestServer({
        databaseUrl: primary.url('mboa'),
        server: { readReplicas: replicas(60_000), metrics: { token: TOKEN } },
      });
    }, 180_000);

    afterAll(async () => {
      await t?.close();
      await steady?.close();
      await writer?.end();
      await replica?.destroy();
      await primary?.destroy();
    });

    it('answers reads from the replica, writes on the primary, and skips the replica once it lags past the bound', async () => {
      const caller = await t.account('enterprise', { monthlyQuota: 1_000_000, rateLimit: 1_000_000 });
      expect(await replicaState(t)).toBe('ok');
      const [{ in_recovery }] = await replica.query<{ in_recovery: boolean }>('SELECT pg_is_in_recovery() AS in_recovery', 'mboa');
      expect(in_recovery).toBe(true);
      const paths = ['/api/v1/listings?limit=5', '/api/v1/market/stats?city=Douala', '/api/v1/listings?city=Douala&sort=price&limit=20'];
      let answered = 0;
      for (const path of paths) {
        const res = await get(t.baseUrl, path, caller.key);
        expect(res.status, res.text).toBe(200);
        answered++;
      }
      const { rows } = await writer.query<{ id: string; title: string }>(
        "SELECT id, title FROM listings WHERE status = 'active' ORDER BY id LIMIT 1",
      );
      const { id, title } = rows[0];
      const detail = async () => {
        const res = await get(t.baseUrl, `/api/v1/listings/${id}`, caller.key);
        expect(res.status, res.text).toBe(200);
        answered++;
        return res.body.data.title as string;
      };
      expect(await detail()).toBe(title);

      // The replica stops replaying right after it has replayed everything: a change made on
      // the primary now is not there, and the replica is not yet past the bound.
      await replica.caughtUp(primary);
      await replica.query('SELECT pg_wal_replay_pause()');
      await writer.query('UPDATE listings SET title = $2 WHERE id = $1', [id, `${title} (changed)`]);
      const readsBefore = await metric(t, /^mboa_db_reads_total\{target="replica"\}/);
      expect(await detail()).toBe(title);
      expect(await metric(t, /^mboa_db_reads_total\{target="replica"\}/)).toBeGreaterThan(readsBefore);

      // Past the bound: skipped; the primary answers, with the change.
      await until('the replica skipped as lagging', async () => (await replicaState(t)) === 'lagging');
      const ready = await get(t.baseUrl, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.read_replicas.in_use).toBe(0);
      expect(ready.body.read_replicas.replicas[0].lag_seconds).toBeGreaterThan(MAX_LAG_SECONDS);
      expect(await metric(t, /^mboa_db_replica_state\{.*state="lagging"\}/)).toBe(1);
      expect(await metric(t, /^mboa_db_replica_lag_seconds\{/)).toBeGreaterThan(MAX_LAG_SECONDS);
      expect(await detail()).toBe(`${title} (changed)`);

      // Replaying again: back in use, caught up.
      await replica.query('SELECT pg_wal_replay_resume()');
      await until('the replica back in use', async () => (await replicaState(t)) === 'ok');
      expect(await detail()).toBe(`${title} (changed)`);
      // Every counted call was counted on the primary (the replica could not have taken the write).
      expect(await storedUsage(t, caller.id)).toBe(answered);
    }, 60_000);

    it('falls back to the primary without an error when the replica dies, before its next check', async () => {
      const caller = await steady.account('enterprise', { monthlyQuota: 1_000_000, rateLimit: 1_000_000 });
      expect(await replicaState(steady)).toBe('ok');
      expect((await get(steady.baseUrl, '/api/v1/listings?limit=5', caller.key)).status).toBe(200);
      const retriedBefore = await metric(steady, /^mboa_db_reads_total\{target="retried"\}/);
      await replica.kill();
      const paths = ['/api/v1/listings?limit=5&city=Yaound%C3%A9', '/api/v1/market/stats?city=Yaound%C3%A9', '/api/v1/listings?limit=7'];
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await get(steady.baseUrl, paths[i % paths.length], caller.key)).status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(await metric(steady, /^mboa_db_reads_total\{target="retried"\}/)).toBeGreaterThan(retriedBefore);
      const ready = await get(steady.baseUrl, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body.read_replicas.replicas[0].state).toBe('unreachable');
      expect(await storedUsage(steady, caller.id)).toBe(13);
    }, 60_000);
  },
);
