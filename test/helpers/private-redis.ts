/**
 * A Redis of a test's own (`redis-server` as a child process on a free port, nothing
 * saved), which the test may kill outright and start again, empty, on the same port:
 * what the servers see when their Redis crashes and is replaced. Never the shared one.
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort, KillableProcess } from './killable-process.js';

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
  const redis = new KillableProcess(() => [
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
  ]);

  const start = async () => {
    const c = redis.spawn();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server not ready in 10 s:\n${redis.output()}`)), 10_000);
      const onData = () => {
        if (/Ready to accept connections/.test(redis.output())) {
          clearTimeout(timer);
          resolve();
        }
      };
      c.stdout!.on('data', onData);
      c.stderr!.on('data', onData);
      c.once('exit', () => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited:\n${redis.output()}`));
      });
    });
    redis.clearOutput();
  };

  const kill = () => redis.kill();

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
