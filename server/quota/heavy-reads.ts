/**
 * Admission of heavy reads (api/costs.ts says which reads are heavy and what each costs),
 * per account and per instance, in memory, the way exports are admitted:
 * - a concurrency cap per account (its plan's), and never every slot of the instance: one
 *   account may hold all of them but one, so another customer always finds one;
 * - a cost-weighted rate per account: a bucket of `unitsPerMinute` units, refilled evenly
 *   over the minute, from which each heavy read takes its cost when it starts;
 * - the instance's slots: as many heavy reads at once as its heavy pool has connections.
 * A refusal says which cap and when to retry; it takes nothing (no unit, no slot).
 * Per instance: with several instances behind a balancer, an account may run up to that
 * many times as much, each instance's database share staying bounded by its own slots.
 */

export interface HeavyCaps {
  /** Heavy reads of one account at once, on an instance. */
  concurrent: number;
  /** Cost units one account may spend per minute, on an instance. */
  unitsPerMinute: number;
}

/** A heavy read: its cost in units and what it is, in words (for a refusal's detail). */
export interface HeavyCost {
  units: number;
  what: string;
}

export type HeavyRefusal =
  | { cap: 'concurrent'; limit: number; retryAfterSeconds: number }
  | { cap: 'rate'; limit: number; retryAfterSeconds: number }
  | { cap: 'instance'; limit: number; retryAfterSeconds: number };

export type HeavyAdmission = { admitted: true; release: () => void } | ({ admitted: false } & HeavyRefusal);

interface AccountState {
  running: number;
  tokens: number;
  /** When `tokens` was last brought up to date (ms). */
  at: number;
}

/** What a concurrency refusal tells to wait: a heavy read takes a few seconds. */
const BUSY_RETRY_SECONDS = 2;

export class HeavyReads {
  private running = 0;
  private readonly accounts = new Map<string, AccountState>();

  /** `slots`: heavy reads at once on this instance (its heavy pool's connections). */
  constructor(readonly slots: number) {}

  /** Heavy reads running now on this instance. */
  get inFlight(): number {
    return this.running;
  }

  enter(accountId: string, caps: HeavyCaps, units: number, nowMs: number): HeavyAdmission {
    const state = this.stateOf(accountId, caps, nowMs);
    const concurrent = Math.max(1, Math.min(caps.concurrent, this.slots - 1));
    if (state.running >= concurrent)
      return { admitted: false, cap: 'concurrent', limit: concurrent, retryAfterSeconds: BUSY_RETRY_SECONDS };
    const cost = Math.min(units, caps.unitsPerMinute);
    if (state.tokens < cost) {
      const perMs = caps.unitsPerMinute / 60_000;
      return {
        admitted: false,
        cap: 'rate',
        limit: caps.unitsPerMinute,
        retryAfterSeconds: Math.max(1, Math.ceil((cost - state.tokens) / perMs / 1000)),
      };
    }
    if (this.running >= this.slots) return { admitted: false, cap: 'instance', limit: this.slots, retryAfterSeconds: BUSY_RETRY_SECONDS };
    state.tokens -= cost;
    state.running++;
    this.running++;
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        state.running--;
        this.running--;
      },
    };
  }

  /** The account's state, its bucket refilled to `nowMs`; accounts idle with a full bucket are forgotten. */
  private stateOf(accountId: string, caps: HeavyCaps, nowMs: number): AccountState {
    let state = this.accounts.get(accountId);
    if (!state) {
      if (this.accounts.size >= 10_000) this.forgetIdle(nowMs);
      state = { running: 0, tokens: caps.unitsPerMinute, at: nowMs };
      this.accounts.set(accountId, state);
      return state;
    }
    state.tokens = Math.min(caps.unitsPerMinute, state.tokens + ((nowMs - state.at) * caps.unitsPerMinute) / 60_000);
    state.at = nowMs;
    return state;
  }

  /** Drops the accounts with nothing running whose bucket has had a minute to fill. */
  private forgetIdle(nowMs: number): void {
    for (const [id, s] of this.accounts) if (s.running === 0 && nowMs - s.at >= 60_000) this.accounts.delete(id);
  }
}
