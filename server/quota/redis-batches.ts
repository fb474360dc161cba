/**
 * What waits for the Redis store's next write (redis-store.ts): the calls to admit in this
 * turn of the event loop, gathered into one admission script, and the answered calls to
 * count, gathered per account and month into one count script. Each call gets its own
 * answer back, or the batch's error.
 */
import { randomBytes } from 'node:crypto';
import { doneKey, USED_TTL_SECONDS } from './redis-scripts.js';

/** How many calls one script carries at most: a burst is sent as several, in one pipeline. */
const SCRIPT_ENTRIES = 500;

/** One script to send: its keys and arguments, and what to do with its answer. */
export interface Script {
  command: 'mboaAdmit' | 'mboaCommit';
  keys: string[];
  args: Array<string | number>;
  deliver: (results: number[]) => void;
  fail: (err: Error) => void;
}

/**
 * The calls waiting for one batched script: each adds its keys and arguments, and gets its
 * own `width` results back (or the batch's error).
 */
export class ScriptBatch<T> {
  private waiting: Array<{ keys: string[]; args: Array<string | number>; resolve: (value: T) => void; reject: (err: Error) => void }> = [];

  constructor(
    private readonly width: number,
    private readonly read: (results: number[]) => T,
  ) {}

  add(keys: string[], args: Array<string | number>): Promise<T> {
    return new Promise((resolve, reject) => this.waiting.push({ keys, args, resolve, reject }));
  }

  /** What waits, as scripts of at most SCRIPT_ENTRIES calls each. */
  take(command: Script['command']): Script[] {
    const { waiting, width, read } = this;
    this.waiting = [];
    const scripts: Script[] = [];
    for (let from = 0; from < waiting.length; from += SCRIPT_ENTRIES) {
      const chunk = waiting.slice(from, from + SCRIPT_ENTRIES);
      scripts.push({
        command,
        keys: chunk.flatMap((w) => w.keys),
        args: chunk.flatMap((w) => w.args),
        deliver: (results) =>
          chunk.forEach((w, i) => {
            const own = results.slice(i * width, (i + 1) * width);
            if (own.length === width) w.resolve(read(own.map(Number)));
            else w.reject(new Error('redis answered a batch short'));
          }),
        fail: (err) => {
          for (const w of chunk) w.reject(err);
        },
      });
    }
    return scripts;
  }
}

/**
 * Answered calls waiting to be counted, gathered per account and month: one INCRBY, one
 * HINCRBY per breakdown field and one ZREM for up to SCRIPT_ENTRIES of an account's calls.
 */
export class CommitBatch {
  private groups = new Map<
    string,
    {
      keys: string[];
      calls: Array<{ holdId: string | null; field: string; resolve: (used: number) => void; reject: (err: Error) => void }>;
    }
  >();

  add(keys: [string, string, string], holdId: string | null, field: string): Promise<number> {
    let group = this.groups.get(keys[0]);
    if (!group) this.groups.set(keys[0], (group = { keys, calls: [] }));
    const calls = group.calls;
    return new Promise((resolve, reject) => calls.push({ holdId, field, resolve, reject }));
  }

  /** What waits, as scripts of at most SCRIPT_ENTRIES calls each (an account's calls may span several). */
  take(): Script[] {
    const groups = [...this.groups.values()];
    this.groups = new Map();
    const scripts: Script[] = [];
    let script: (Script & { entries: Array<Array<{ resolve: (used: number) => void; reject: (err: Error) => void }>> }) | null = null;
    let size = 0;
    for (const g of groups) {
      for (let from = 0; from < g.calls.length; from += SCRIPT_ENTRIES) {
        const calls = g.calls.slice(from, from + SCRIPT_ENTRIES);
        if (!script || size + calls.length > SCRIPT_ENTRIES) {
          const entries: Array<typeof calls> = [];
          script = {
            command: 'mboaCommit',
            keys: [],
            args: [],
            entries,
            // Each call gets the month's count as it stood once it was in: the entry's last, the whole count.
            deliver: (results) =>
              entries.forEach((entry, i) => {
                const used = Number(results[i]);
                if (Number.isFinite(used)) entry.forEach((c, j) => c.resolve(used - (entry.length - 1 - j)));
                else for (const c of entry) c.reject(new Error('redis answered a batch short'));
              }),
            fail: (err) => {
              for (const entry of entries) for (const c of entry) c.reject(err);
            },
          };
          scripts.push(script);
          size = 0;
        }
        const holds = calls.flatMap((c) => (c.holdId ? [c.holdId] : []));
        const fields = new Map<string, number>();
        for (const c of calls) fields.set(c.field, (fields.get(c.field) ?? 0) + 1);
        script.keys.push(...g.keys);
        script.args.push(holds.length, fields.size, calls.length, USED_TTL_SECONDS, ...holds);
        for (const [field, n] of fields) script.args.push(field, n);
        script.entries.push(calls);
        size += calls.length;
      }
    }
    // Last, each script's own mark of being done: sent again after a timeout, it counts once.
    for (const s of scripts) s.keys.push(doneKey(randomBytes(9).toString('base64url'), 'commit'));
    return scripts;
  }
}
