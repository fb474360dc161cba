/**
 * Admission in Redis: the per-minute window and the quota of the calls an instance admits
 * in one turn of its event loop, in one Lua script (a round trip before their handlers),
 * and the counts of answered calls in another, sent in the same write (off the callers'
 * path); leases (leases.ts) take several slots at once. Redis is the authority on the
 * month's count while it is up; the per-day, per-endpoint, per-key breakdown accumulates in
 * one hash that the usage flusher moves to PostgreSQL every second. The scripts are in
 * redis-scripts.ts, what waits for them in redis-batches.ts.
 *
 * Keys (one Redis, not a cluster): `mboa:q:{acct}:{month}` the calls counted this month,
 * `mboa:qh:{acct}:{month}` a sorted set of slots held by calls in flight (scored by their
 * expiry, so a crashed instance's slots free themselves), `mboa:rl:{acct}:{window}` the
 * per-minute count (`...:leased` beside it: the calls of that window leased and not yet
 * given back), `mboa:usage:pending:{database}` the breakdown not yet in PostgreSQL.
 */
import type { Redis } from 'ioredis';
import type { LeaseWrite } from './leases.js';
import { CommitBatch, type Script, ScriptBatch } from './redis-batches.js';
import { type AdmissionRedis, doneKey, USED_TTL_SECONDS, withScripts } from './redis-scripts.js';
import {
  type AdmissionStore,
  type AdmitAnswer,
  type AdmitCode,
  type AdmitInput,
  type AnsweredCall,
  type HeldSlot,
  type QuotaNow,
  type RateScope,
  WINDOW_MS,
} from './store.js';
import { breakdownField, type UsageKeys } from './usage-keys.js';

/**
 * Longest an answered call waits to be counted (off the caller's path: its answer is
 * gone). Under load it goes sooner, in the same write as the next admissions.
 */
const COMMIT_WAIT_MS = 5;

/**
 * The waits before a counting script whose answer did not come is sent again (a command
 * timeout under load, a connection dropped after sending: Redis may have run it). Each
 * carries its own mark of being done (redis-scripts.ts), so sent again it counts once.
 * After the last, the calls are counted in PostgreSQL (failover.ts): Redis was unreachable
 * for all of them, and only if it had run the script and then kept its data through that
 * would the calls be counted twice.
 */
const RESEND_WAITS_MS = [100, 400, 1_000];
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

export class RedisStore implements AdmissionStore {
  private readonly redis: AdmissionRedis;
  /** Calls to admit, sent together at the end of this turn of the event loop. */
  private readonly admits = new ScriptBatch<AdmitAnswer>(4, ([code, rateCount, used, pending]) => ({
    code: code as AdmitCode,
    store: 'redis',
    rateCount,
    used,
    pending,
  }));
  /** Answered calls to count, sent with the next admissions or after COMMIT_WAIT_MS. */
  private readonly commits = new CommitBatch();
  private sendAt: 'now' | 'later' | null = null;
  private commitTimer: NodeJS.Timeout | undefined;

  constructor(
    redis: Redis,
    private readonly usage: UsageKeys,
  ) {
    this.redis = withScripts(redis);
  }

  /** Whether the connection is up (a command may still fail). */
  get ready(): boolean {
    return this.redis.status === 'ready';
  }

  /**
   * One write to Redis for everything waiting: the admissions (one script) and the counts
   * (another), pipelined when both wait. Each write and its answer cost the instance a
   * system call and Redis a wake-up, more than the scripts themselves.
   */
  private send(): void {
    this.sendAt = null;
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    const scripts = [...this.admits.take('mboaAdmit'), ...this.commits.take()];
    const fail = (err: Error) => {
      for (const script of scripts) script.fail(err);
    };
    try {
      if (scripts.length === 1) {
        const [script] = scripts;
        this.redis[script.command](script.keys.length, ...script.keys, ...script.args).then(script.deliver, (err: Error) =>
          this.failed(script, err),
        );
        return;
      }
      if (scripts.length === 0) return;
      const pipeline = this.redis.pipeline() as ReturnType<Redis['pipeline']> &
        Record<Script['command'], (...args: Array<string | number>) => unknown>;
      for (const script of scripts) pipeline[script.command](script.keys.length, ...script.keys, ...script.args);
      pipeline.exec().then(
        (replies) => {
          scripts.forEach((script, i) => {
            const [err, results] = replies?.[i] ?? [new Error('no answer')];
            if (err) this.failed(script, err);
            else script.deliver(results as number[]);
          });
        },
        (err: Error) => scripts.forEach((script) => this.failed(script, err)),
      );
    } catch (err) {
      // Never left waiting: a call whose admission or count could not be sent hears so.
      fail(err as Error);
    }
  }

  /** A script that got no answer: an admission fails at once (its call falls back), a count is sent again. */
  private failed(script: Script, err: Error): void {
    if (script.command !== 'mboaCommit') return script.fail(err);
    void this.resend(() => this.redis.mboaCommit(script.keys.length, ...script.keys, ...script.args), err).then(
      script.deliver,
      script.fail,
    );
  }

  /** Sends a counting script again after each of RESEND_WAITS_MS until it answers; else fails with the last error. */
  private async resend<T>(send: () => Promise<T>, err: Error): Promise<T> {
    for (const wait of RESEND_WAITS_MS) {
      await sleep(wait);
      try {
        return await send();
      } catch (again) {
        err = again as Error;
      }
    }
    throw err;
  }

  private schedule(when: 'now' | 'later'): void {
    if (this.sendAt === 'now' || this.sendAt === when) return;
    this.sendAt = when;
    if (when === 'now') setImmediate(() => this.send());
    else this.commitTimer = setTimeout(() => this.send(), COMMIT_WAIT_MS);
  }

  private keys(accountId: string, month: string, nowMs: number, rateScope: RateScope = 'live'): [string, string, string] {
    const window = `${rateScope === 'live' ? '' : `${rateScope}:`}${Math.floor(nowMs / WINDOW_MS)}`;
    return [`mboa:q:{${accountId}}:${month}`, `mboa:qh:{${accountId}}:${month}`, `mboa:rl:{${accountId}}:${window}`];
  }

  /** Admits one call: sent with the others of this turn of the event loop, in one script. */
  admit(input: AdmitInput): Promise<AdmitAnswer> {
    const admitted = this.admits.add(this.keys(input.accountId, input.month, input.nowMs, input.rateScope), [
      input.rate ?? 0,
      WINDOW_MS + 1_000,
      input.quota ?? -1,
      input.counted ? 1 : 0,
      input.holdId,
      input.nowMs,
      input.holdTtlMs,
      input.seed?.used ?? -1,
      input.seed?.mode === 'max' ? 'max' : 'nx',
      USED_TTL_SECONDS,
      input.lease ?? 1,
    ]);
    this.schedule('now');
    return admitted;
  }

  /** Counts an answered call; resolves with the month's count (see `send` for when it goes). */
  count(call: AnsweredCall): Promise<number> {
    const [used, holds] = this.keys(call.accountId, call.month, 0);
    const field = breakdownField(call.accountId, call.day, call.endpoint, call.keyId);
    const counted = this.commits.add([used, holds, this.usage.pending], call.holdId, field);
    this.schedule('later');
    return counted;
  }

  async release(slot: HeldSlot): Promise<void> {
    const [, holds] = this.keys(slot.accountId, slot.month, 0);
    await this.redis.zrem(holds, slot.holdId);
  }

  /**
   * Adds one to the month's count if Redis knows the month (a call counted in PostgreSQL
   * after Redis came back); if it does not, its first seed from PostgreSQL will include it.
   */
  async mirror(accountId: string, month: string): Promise<void> {
    await this.redis.mboaMirror(this.keys(accountId, month, 0)[0]);
  }

  /** Raises this minute's window of an account (and scope) to at least `calls`. */
  async raiseRate(accountId: string, rateScope: RateScope, nowMs: number, calls: number): Promise<void> {
    if (calls > 0) await this.redis.mboaRaise(this.keys(accountId, '', nowMs, rateScope)[2], calls, WINDOW_MS + 1_000);
  }

  /** Calls in this minute's window of an account (and scope), without taking one. */
  async rateCalls(accountId: string, rateScope: RateScope, nowMs: number): Promise<number> {
    return Number((await this.redis.get(this.keys(accountId, '', nowMs, rateScope)[2])) ?? 0);
  }

  /** The month's count and slots held now, or null when Redis does not know the month. */
  async peek(accountId: string, month: string, nowMs: number): Promise<QuotaNow | null> {
    const [usedKey, holds] = this.keys(accountId, month, 0);
    const [[, used], [, pending]] = (await this.redis.multi().get(usedKey).zcount(holds, nowMs, '+inf').exec()) as [
      [null, string | null],
      [null, number],
    ];
    return used === null ? null : { used: Number(used), pending };
  }

  /**
   * Frees a lease's slots, counts its answered calls, gives back what it did not use
   * (leases.ts); resolves with the month's count once they are in, null when it counted none.
   * A window whose minute is over is read by no one any more: giving back to it is harmless.
   */
  async writeLease(w: LeaseWrite): Promise<number | null> {
    const [used, holds, window] = this.keys(w.accountId, w.month, w.windowMs, w.rateScope);
    const calls = w.answered.reduce((n, a) => n + a.calls, 0);
    const fields = w.answered.flatMap((a) => [a.field, a.calls]);
    const done = doneKey(w.accountId, `${w.holdPrefix}:${w.fromSlot}`);
    const send = () =>
      this.redis.mboaLeaseWrite(
        used,
        holds,
        window,
        this.usage.pending,
        done,
        w.holdPrefix,
        w.fromSlot,
        w.toSlot,
        calls,
        w.unusedCalls,
        w.leasedSize,
        USED_TTL_SECONDS,
        ...fields,
      );
    const counted = await send().catch((err: Error) => this.resend(send, err));
    return counted < 0 ? null : counted;
  }
}
