/**
 * Steady load from a few concurrent callers, every answer recorded with when it was asked
 * and when it was whole, for tests that break something underneath and then compare what
 * callers saw with what the server counted.
 */
import { Agent } from 'node:http';
import { send, type WireResult } from './wire.js';

export interface Exchange {
  /** ms since the load started (performance.now() based). */
  sentAt: number;
  doneAt: number;
  path: string;
  result: WireResult;
}

export interface Load {
  exchanges: Exchange[];
  /** performance.now() when the load started. */
  startedAt: number;
  /** Stops asking; resolves once every caller's last call is over. */
  stop(): Promise<void>;
}

/** `callers` loops, each asking the next of `paths` as soon as its previous answer is whole. */
export function startLoad(base: string, key: string, paths: string[], callers = 8): Load {
  const agent = new Agent({ keepAlive: true, maxSockets: callers });
  const exchanges: Exchange[] = [];
  const startedAt = performance.now();
  let stopping = false;
  let next = 0;
  const loop = async () => {
    while (!stopping) {
      const path = paths[next++ % paths.length];
      const sentAt = performance.now() - startedAt;
      const result = await send(base, { method: 'GET', path, headers: { 'x-api-key': key }, timeoutMs: 20_000 }, agent);
      exchanges.push({ sentAt, doneAt: performance.now() - startedAt, path, result });
      // A caller that gets refusals backs off a little, as a client would (and keeps logs readable).
      if (!result.ok || result.answer.status >= 500) await new Promise((r) => setTimeout(r, 20));
    }
  };
  const loops = Array.from({ length: callers }, () => loop());
  return {
    exchanges,
    startedAt,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
}

/** Answers with a 2xx status received whole. */
export const answered2xx = <T extends Exchange>(exchanges: T[]): T[] =>
  exchanges.filter((e) => e.result.ok && e.result.answer.status >= 200 && e.result.answer.status < 300);

export function statusTally(exchanges: Exchange[]): string {
  const counts: Record<string, number> = {};
  for (const e of exchanges) {
    const key = e.result.ok ? String(e.result.answer.status) : 'no answer';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return `{${Object.entries(counts)
    .map(([s, n]) => `${s}:${n}`)
    .join(',')}}`;
}
