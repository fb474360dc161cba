/**
 * The drain a deploy relies on, under load and repeated: fifty 200-listing searches, each
 * written whole on its own connection before SIGTERM, over a database made slow by a
 * latency proxy, while other processes keep both cores busy. Every one of them must be
 * answered whole (the grace period is long enough for all) and charged exactly once, each
 * time. `DRAIN_ROUNDS` sets how many times (3 here; `npm run test:drain` runs 20).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/processes.js';
import { describeOnServer } from '../helpers/requires.js';
import { compiledServer, listeningAt, type SlowDatabase, slowDatabase } from '../helpers/slow-database.js';
import { parseRawAnswers, type WireAnswer } from '../helpers/wire.js';

const IN_FLIGHT = 50;
const ROUNDS = Number(process.env.DRAIN_ROUNDS ?? 3);
const DB_LATENCY_MS = 40;
const BIG = '/api/v1/listings?limit=200&status=any&sort=price';

describeOnServer('scratch databases, a compiled server process')('the drain under load, repeated (compiled server)', () => {
  let db: SlowDatabase;
  let key: string;
  const burners: ChildProcess[] = [];

  beforeAll(async () => {
    ensureBuilt();
    db = await slowDatabase({ name: 'mboa_drainload', seed: 7, latencyMs: DB_LATENCY_MS, monthlyQuota: 10_000_000 });
    key = db.key;
    // A busy machine: two processes spinning for the whole test.
    for (let i = 0; i < 2; i++) burners.push(spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
  }, 180_000);

  afterAll(async () => {
    for (const b of burners) b.kill('SIGKILL');
    await db?.close();
  });

  /** One raw connection carrying one request; resolves once the request is handed to the network. */
  function call(port: number) {
    const chunks: Buffer[] = [];
    let reset = false;
    const socket: Socket = connect(port, '127.0.0.1');
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', () => (reset = true));
    const closed = new Promise<{ answers: WireAnswer[]; reset: boolean }>((resolve) =>
      socket.on('close', () => resolve({ answers: parseRawAnswers(Buffer.concat(chunks)), reset })),
    );
    const written = new Promise<void>((resolve) =>
      socket.once('connect', () => socket.write(`GET ${BIG} HTTP/1.1\r\nHost: api\r\nX-API-Key: ${key}\r\n\r\n`, () => resolve())),
    );
    return { socket, written, closed };
  }

  const whole2xx = (a: WireAnswer | undefined) =>
    a !== undefined && a.status === 200 && (JSON.parse(a.body.toString()) as { data: unknown[] }).data.length === 200;

  it(
    `answers and charges exactly once every call sent before SIGTERM, ${ROUNDS} times on a busy machine`,
    async () => {
      const rounds: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const before = await db.usage();
        const server = compiledServer(db.url, 60);
        let results: Array<{ answers: WireAnswer[]; reset: boolean }>;
        let exit: { code: number | null; signal: NodeJS.Signals | null };
        try {
          const base = await listeningAt(server);
          const port = Number(new URL(base).port);
          const calls = Array.from({ length: IN_FLIGHT }, () => call(port));
          await Promise.all(calls.map((c) => c.written));
          server.child.kill('SIGTERM');
          // Each answer is read to its end; the connection then closes (Connection: close) or the client closes it.
          results = await Promise.all(calls.map((c) => c.closed));
          exit = await server.exited(90_000);
        } finally {
          server.child.kill('SIGKILL');
        }
        const answered = results.filter((r) => whole2xx(r.answers[0])).length;
        const charged = (await db.usage()) - before;
        const line = `round ${round}: sent ${IN_FLIGHT} before SIGTERM, answered whole 2xx=${answered}, reset=${results.filter((r) => r.reset).length}, charged=${charged}, exit=${exit.code}`;
        rounds.push(line);
        console.log(`drain under load: ${line}`);
        expect(exit.code, server.output().slice(-3000)).toBe(0);
        expect(answered, line).toBe(IN_FLIGHT);
        expect(charged, line).toBe(IN_FLIGHT);
        expect(server.output()).not.toMatch(/answered but not counted/);
      }
      expect(rounds.length).toBe(ROUNDS);
    },
    60_000 + ROUNDS * 60_000,
  );
});
