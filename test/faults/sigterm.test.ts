/**
 * SIGTERM while calls are in flight, on the compiled server as production runs it (plain
 * node, production environment, SHUTDOWN_GRACE_SECONDS): about fifty 200-listing searches
 * at once over a database made slow by a latency proxy, some of them followed on the same
 * connection by another request. The server must exit 0 once the calls in flight are
 * done or the grace period is over, every caller must get either a whole 2xx or a clean
 * failure, requests arriving on kept-alive connections meanwhile must get 503 with
 * `Connection: close`, and what is charged must be exactly what was answered.
 */
import { Agent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/processes.js';
import { describeOnServer } from '../helpers/requires.js';
import { compiledServer, listeningAt, type SlowDatabase, slowDatabase } from '../helpers/slow-database.js';
import { parseRawAnswers, send, type WireAnswer, type WireResult } from '../helpers/wire.js';

const IN_FLIGHT = 50;
/** Kept-alive connections whose next request arrives during the drain. */
const LATE = 3;
/** Connections with a request queued behind another. */
const PIPELINED = 4;
/** Each way, per packet: a call needs a few round trips, so calls last about a second and queue for the pool. */
const DB_LATENCY_MS = 60;
const BIG = '/api/v1/listings?limit=200&status=any&sort=price';

describeOnServer('it needs a scratch database of its own, which the embedded one, a single database, cannot give')(
  'SIGTERM under load (compiled server)',
  () => {
    let db: SlowDatabase;
    let key: string;
    let accountId: string;

    beforeAll(async () => {
      ensureBuilt();
      db = await slowDatabase({ name: 'mboa_sigterm', seed: 5, latencyMs: DB_LATENCY_MS, monthlyQuota: 1_000_000 });
      ({ key, accountId } = db);
    }, 180_000);

    afterAll(() => db?.close());

    /** The compiled server, warmed, over the slow database. */
    async function startServer(graceSeconds: number) {
      const server = compiledServer(db.url, graceSeconds);
      const base = await listeningAt(server);
      // Warm: the key is resolved once, the pool holds connections. A counted 2xx too.
      const warm = await send(base, { method: 'GET', path: '/api/v1/listings?limit=1', headers: { 'x-api-key': key } });
      expect(warm.ok && warm.answer.status).toBe(200);
      return { server, base };
    }

    /** SIGTERM now; resolves with the exit and the instant it came. */
    async function stop(server: ReturnType<typeof compiledServer>) {
      server.child.kill('SIGTERM');
      const exit = await server.exited(60_000);
      return { ...exit, at: performance.now() };
    }

    const request = (base: string, path: string) => `GET ${path} HTTP/1.1\r\nHost: ${new URL(base).host}\r\nX-API-Key: ${key}\r\n\r\n`;

    /** Raw connection: what it was answered, and whether it ended cleanly. */
    function rawConnection(base: string) {
      const { hostname, port } = new URL(base);
      const chunks: Buffer[] = [];
      let reset = false;
      const socket = connect(Number(port), hostname);
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('error', () => (reset = true));
      const closed = new Promise<{ answers: WireAnswer[]; reset: boolean }>((resolve) =>
        socket.on('close', () => resolve({ answers: parseRawAnswers(Buffer.concat(chunks)), reset })),
      );
      const answers = () => parseRawAnswers(Buffer.concat(chunks));
      return { socket, closed, answers };
    }

    /**
     * A kept-alive connection that was answered once, then is sending its next request when
     * the signal comes (half of it before, the rest after): that request arrives during the drain.
     */
    async function slowNextRequest(base: string) {
      const c = rawConnection(base);
      await new Promise<void>((resolve) => c.socket.once('connect', () => resolve()));
      c.socket.write(request(base, '/api/v1/listings?limit=1'));
      await expect.poll(() => c.answers().length, { timeout: 10_000, interval: 10 }).toBe(1);
      const next = request(base, '/api/v1/listings?limit=2');
      c.socket.write(next.slice(0, 30));
      return { ...c, sendRest: () => c.socket.write(next.slice(30)) };
    }

    /** `n` 200-listing searches at once, each on its own kept-alive connection. */
    function bigCalls(base: string, n: number, agent: Agent) {
      const done: Array<{ result: WireResult; at: number }> = [];
      const all = Array.from({ length: n }, () =>
        send(base, { method: 'GET', path: BIG, headers: { 'x-api-key': key }, timeoutMs: 60_000 }, agent).then((result) => {
          done.push({ result, at: performance.now() });
        }),
      );
      return { done, settled: Promise.all(all) };
    }

    const whole2xx = (a: WireAnswer, listings = 200) => {
      if (a.status !== 200) return false;
      const body = JSON.parse(a.body.toString()) as { data: unknown[]; meta: { request_id: string } };
      return body.data.length === listings && body.meta.request_id === a.headers['x-request-id'];
    };

    const drained503 = (a: WireAnswer | undefined) =>
      a !== undefined &&
      a.status === 503 &&
      a.headers.connection === 'close' &&
      /application\/problem\+json/.test(String(a.headers['content-type'])) &&
      JSON.parse(a.body.toString()).code === 'unavailable';

    it('cuts what outlasts the grace period, uncharged; the rest is answered whole; requests arriving meanwhile get 503 with Connection: close', async () => {
      const grace = 1;
      const before = await db.usage();
      const { server, base } = await startServer(grace);
      const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
      let exit: { code: number | null; signal: NodeJS.Signals | null };
      let sigtermAt = 0;
      let exitedAt = 0;
      let late: Array<{ answers: WireAnswer[]; reset: boolean }>;
      const slow = await Promise.all(Array.from({ length: LATE }, () => slowNextRequest(base)));
      const calls = bigCalls(base, IN_FLIGHT, agent);
      try {
        // Every call is in the server's hands (parsed, waiting for the database) when the signal comes.
        await new Promise((r) => setTimeout(r, 300));
        expect(calls.done.length, 'calls already over before SIGTERM').toBeLessThan(IN_FLIGHT / 2);
        sigtermAt = performance.now();
        const exited = stop(server).then((e) => {
          exitedAt = e.at;
          return e;
        });
        await new Promise((r) => setTimeout(r, 150));
        for (const s of slow) s.sendRest();
        late = await Promise.all(slow.map((s) => s.closed));
        await calls.settled;
        exit = await exited;
      } finally {
        agent.destroy();
        server.child.kill('SIGKILL');
      }

      const answered = calls.done.filter((d) => d.result.ok && d.result.answer.status === 200);
      const failed = calls.done.filter((d) => !d.result.ok);
      const other = calls.done.filter((d) => d.result.ok && d.result.answer.status !== 200);
      const lastAnswer = Math.max(0, ...answered.map((d) => d.at - sigtermAt));
      const cut = Number(/"cut":(\d+)/.exec(server.output())?.[1] ?? '0');
      // The warm-up call, the big ones answered, and the first call of each slow connection.
      const answered2xx = 1 + answered.length + LATE;
      const charged = (await db.usage()) - before;
      console.log(
        `sigterm: in flight=${IN_FLIGHT}, answered=${answered.length} whole 2xx (last ${Math.round(lastAnswer)} ms after SIGTERM), reset=${failed.length}, ` +
          `other=${other.length}; requests arriving during the drain: ${late.map((l) => (drained503(l.answers[1]) ? '503+close' : (l.answers[1]?.status ?? 'none'))).join('/')}; ` +
          `server cut=${cut}, exit=${exit.code} after ${Math.round(exitedAt - sigtermAt)} ms (SHUTDOWN_GRACE_SECONDS=${grace}); answered 2xx=${answered2xx}, charged=${charged}`,
      );

      expect(exit.code, server.output().slice(-3000)).toBe(0);
      expect(server.output()).toMatch(/"msg":"(stopped|stopped; \d+ calls cut by the grace period \(not charged\))"/);
      // Each call: a whole 2xx (all 200 listings) or a clean failure (its connection cut), nothing in between.
      expect(other.map((d) => d.result.ok && `${d.result.answer.status} ${d.result.answer.body.toString().slice(0, 200)}`)).toEqual([]);
      expect(answered.filter((d) => d.result.ok && !whole2xx(d.result.answer))).toEqual([]);
      expect(answered.length + failed.length).toBe(IN_FLIGHT);
      // The grace period is honoured: nothing answered after it, calls cut only once it is over, and the server says how many.
      expect(lastAnswer).toBeLessThan(grace * 1000 + 500);
      if (failed.length) {
        expect(cut).toBeGreaterThan(0);
        expect(exitedAt - sigtermAt).toBeGreaterThanOrEqual(grace * 1000 - 50);
      }
      expect(exitedAt - sigtermAt).toBeLessThan(grace * 1000 + 10_000);
      // A request arriving on a kept-alive connection during the drain: 503 `unavailable`, Connection: close, then the close.
      for (const l of late) {
        expect(l.answers.length).toBe(2);
        expect(whole2xx(l.answers[0], 1)).toBe(true);
        expect(drained503(l.answers[1]), JSON.stringify(l.answers[1]?.headers)).toBe(true);
      }
      // Charged = answered: nothing cut or refused is counted, nothing answered is lost.
      expect(server.output()).not.toMatch(/answered but not counted/);
      expect(charged).toBe(answered2xx);
    }, 120_000);

    it('ends as soon as the calls in flight are done, not at the end of the grace period, even with requests queued behind them', async () => {
      const grace = 20;
      const before = await db.usage();
      const { server, base } = await startServer(grace);
      const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
      let exit: { code: number | null; signal: NodeJS.Signals | null };
      let sigtermAt = 0;
      let exitedAt = 0;
      let pipelines: Array<{ answers: WireAnswer[]; reset: boolean }>;
      const calls = bigCalls(base, 20, agent);
      try {
        // A request, and another right behind it on the same connection (HTTP pipelining).
        const pipelined = Array.from({ length: PIPELINED }, () => {
          const c = rawConnection(base);
          c.socket.once('connect', () => c.socket.write(request(base, BIG) + request(base, '/api/v1/market/stats?city=Douala')));
          return c.closed;
        });
        await new Promise((r) => setTimeout(r, 300));
        sigtermAt = performance.now();
        const exited = stop(server).then((e) => {
          exitedAt = e.at;
          return e;
        });
        await calls.settled;
        pipelines = await Promise.all(pipelined);
        exit = await exited;
      } finally {
        agent.destroy();
        server.child.kill('SIGKILL');
      }
      const answered = calls.done.filter((d) => d.result.ok && whole2xx(d.result.answer));
      const lastAnswer = Math.max(0, ...answered.map((d) => d.at - sigtermAt));
      const firsts = pipelines.map((p) => p.answers[0]).filter(Boolean);
      const seconds = pipelines.map((p) => p.answers[1]).filter(Boolean);
      const answered2xx =
        1 + answered.length + firsts.filter((a) => a.status === 200).length + seconds.filter((a) => a.status === 200).length;
      const charged = (await db.usage()) - before;
      console.log(
        `sigterm (early end): in flight=20 (+${PIPELINED} pipelined pairs), answered=${answered.length} (last ${Math.round(lastAnswer)} ms after SIGTERM); ` +
          `pipelined: first ${firsts.map((a) => `${a.status}${a.headers.connection === 'close' ? '+close' : ''}`).join('/')}, second ${seconds.length} answered; ` +
          `exit=${exit.code} after ${Math.round(exitedAt - sigtermAt)} ms (SHUTDOWN_GRACE_SECONDS=${grace}); answered 2xx=${answered2xx}, charged=${charged}`,
      );

      expect(exit.code, server.output().slice(-3000)).toBe(0);
      expect(answered.length).toBe(20);
      // The first of each pair is answered whole and closes the connection; the one behind it goes unanswered (the client retries it elsewhere).
      expect(firsts.length).toBe(PIPELINED);
      for (const a of firsts) {
        expect(whole2xx(a)).toBe(true);
        expect(a.headers.connection).toBe('close');
      }
      expect(seconds).toEqual([]);
      // Answers that can no longer be sent do not hold the shutdown until the end of the grace period.
      expect(exitedAt - sigtermAt).toBeLessThan(lastAnswer + 5_000);
      expect(exitedAt - sigtermAt).toBeLessThan((grace * 1000) / 2);
      expect(server.output()).toMatch(/"msg":"stopped"/);
      expect(charged).toBe(answered2xx);
      // One JSON line per request, all written before the exit, none with the key.
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.length).toBeGreaterThanOrEqual(answered2xx);
      for (const line of lines) {
        expect(line).toMatchObject({ level: 30, service: 'mboa-api', method: 'GET', msg: 'request' });
        expect(new Date(line.time as string).toISOString()).toBe(line.time);
        expect(line.request_id).toMatch(/^req_/);
        expect(['/api/v1/listings', '/api/v1/market/stats']).toContain(line.path);
        expect(typeof line.status === 'number' && typeof line.ms === 'number').toBe(true);
      }
      expect(lines.filter((l) => l.status === 200).every((l) => l.account === accountId)).toBe(true);
      expect(server.output()).not.toContain(key);
    }, 120_000);
  },
);
