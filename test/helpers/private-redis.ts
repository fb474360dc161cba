/**
 * A Redis of a test's own (`redis-server` as a child process on a free port, nothing
 * saved), which the test may kill outright and start again, empty, on the same port:
 * what the servers see when their Redis crashes and is replaced. Never the shared one.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from './private-postgres.js';

export const canRunRedis = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

export interface PrivateRedis {
  port: number;
  url: string;
  /** SIGKILL: everything it held is gone. */
  kill(): Promise<void>;
  /** Starts it again, empty, on the same port; resolves once it answers. */
  start(): Promise<void>;
  /** A client of its own (the caller disconnects it). */
  client(): Promise<Redis>;
  destroy(): Promise<void>;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let out = '';

  const start = async () => {
    const c = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child = c;
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server not ready in 10 s:\n${out}`)), 10_000);
      const onData = (d: Buffer) => {
        out += d.toString();
        if (/Ready to accept connections/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      };
      c.stdout!.on('data', onData);
      c.stderr!.on('data', onData);
      c.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited:\n${out}`));
      });
    });
    out = '';
  };

  const kill = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    c.kill('SIGKILL');
    await exited;
    child = null;
  };

  await start();
  return {
    port,
    url,
    kill,
    start,
    async client() {
      const redis = new Redis(url, { maxRetriesPerRequest: 1 });
      await new Promise((resolve) => redis.once('ready', resolve));
      return redis;
    },
    destroy: kill,
  };
}
