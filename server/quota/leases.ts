/**
 * Leases: an instance serving one account's steady stream of counted calls takes the slots
 * of its next calls from Redis in one round trip, then admits them in memory. Under load
 * that saves a round trip to Redis per call (bench/README.md, hot path).
 *
 * A leased slot is an ordinary held slot of the quota (a member of the account's holds in
 * Redis, expiring on its own) and an ordinary call of the minute's window, so the quota can
 * never be passed. The instance also counts the lease's calls itself: once the lease stops
 * taking calls (used up, LEASE_MS old, or its minute or month over) and its last call is
 * answered, one write to Redis counts its calls answered 2xx (by day, endpoint and key) and
 * frees all its slots. Calls that failed are never counted. What a lease leaves unused (its
 * slots, its calls of the window) goes back as soon as it stops taking calls.
 *
 * Redis grants a lease only with room to spare (LEASE_ROOM times its size left in both the
 * window and the quota), so slots held ahead by one instance never make another instance's
 * call be refused: over the per-minute limit, a call waits (briefly) while leased calls of
 * the window may still come back. The size follows the demand: the calls of the account on
 * this instance in the last LEASE_MS, at most MAX_LEASE; one call at a time asks for none.
 * Accounts under LEASE_MIN_RATE calls a minute never lease.
 *
 * What a fault can cost: an instance that crashes holding a lease keeps up to MAX_LEASE
 * slots from the account until they expire (holdTtlMs, 2 min) and up to MAX_LEASE calls from
 * its per-minute window until the minute ends; the lease's calls it answered and had not
 * counted yet (at most MAX_LEASE, within about LEASE_MS) are never charged. Losing Redis
 * ends the leases: their answered calls are counted in PostgreSQL instead; their slots and
 * calls vanish with Redis's own counts; the per-minute count an instance carries to
 * PostgreSQL then may include another instance's unused leased calls (at most MAX_LEASE
 * each), so that minute may allow that many calls fewer.
 */
import { AdmitCode, type AdmitAnswer, type AdmitInput, type RateScope, WINDOW_MS } from './store.js';
import { breakdownField } from './usage-keys.js';

export const LEASE_MS = 100;
export const MAX_LEASE = 64;
/**
 * Only accounts allowed at least this many calls a minute (or unlimited) lease: below it
 * there is no load to save, and a lease would be a large part of the minute's calls.
 */
export const LEASE_MIN_RATE = 1_000;

/** Calls of a lease answered 2xx, by day, endpoint and key (the usage breakdown). */
export interface AnsweredCalls {
  /** The usage breakdown's field for them (usage-keys.ts). */
  field: string;
  day: string;
  endpoint: string;
  keyId: string;
  calls: number;
}

/**
 * What to write when a lease gives back what it did not use, counts what it did, or both
 * (`LeaseWrite.lost`: Redis was lost meanwhile, so only the answered calls are counted,
 * in PostgreSQL). Its slots in Redis are `{holdPrefix}:{j}` for j in [fromSlot, toSlot).
 */
export interface LeaseWrite {
  accountId: string;
  rateScope: RateScope;
  month: string;
  windowMs: number;
  holdPrefix: string;
  fromSlot: number;
  toSlot: number;
  answered: AnsweredCalls[];
  /** Calls of the window taken by the lease and not made, to give back. */
  unusedCalls: number;
  /** The lease's size, to take off the window's leased calls once (0 when done already). */
  leasedSize: number;
  limit: number | null;
  lost: boolean;
}

/** A lease of one account on this instance, and the calls it admitted. */
export class Lease {
  /** Slots taken so far (slot j is `{holdPrefix}:{j}`), the first caller's included. */
  taken = 1;
  /** Taken and not yet answered (or failed). */
  inFlight = 1;
  taking = true;
  /** Redis was lost since the lease was granted. */
  lost = false;
  /** Its unused slots and calls were given back already (it stopped taking with calls in flight). */
  returned = false;
  readonly answered = new Map<string, AnsweredCalls>();
  readonly expiresAt: number;
  timer: NodeJS.Timeout | undefined;

  constructor(
    readonly key: string,
    /** What Redis granted. */
    readonly grant: {
      accountId: string;
      rateScope: RateScope;
      month: string;
      /** The minute of the window (ms since the epoch / WINDOW_MS). */
      window: number;
      holdPrefix: string;
      size: number;
      /** Redis's answer when it granted the lease, the lease's slots and calls included. */
      rateCount: number;
      used: number;
      pending: number;
      limit: number | null;
      nowMs: number;
    },
  ) {
    this.expiresAt = grant.nowMs + LEASE_MS;
  }

  /** Whether it can admit a call made at `nowMs` in `month`. */
  admits(month: string, nowMs: number): boolean {
    return (
      this.taking &&
      this.grant.month === month &&
      this.grant.window === Math.floor(nowMs / WINDOW_MS) &&
      nowMs < this.expiresAt &&
      this.taken < this.grant.size
    );
  }
}

/**
 * What a call admitted from a lease sees, as Redis would have answered it alone (as of the
 * lease): the calls in the minute's window and the slots held, this one included, and the
 * calls counted this month.
 */
export interface LeasedCall extends AdmitAnswer {
  lease: Lease;
}

/** The leases of one instance, by account (and scope). */
export class Leases {
  private readonly leases = new Map<string, Lease>();
  private readonly opening = new Map<string, Promise<unknown>>();
  private readonly demand = new Map<string, { period: number; calls: number; previous: number }>();
  /** Writes under way, awaited by closeAll. */
  private readonly writing = new Set<Promise<void>>();
  leasedCalls = 0;

  /** Called with each write a lease needs (never awaited by a caller). */
  constructor(private readonly write: (w: LeaseWrite) => Promise<void>) {}

  /** Records a counted call and says how many slots to ask for: the recent demand (1: no lease). */
  want(key: string, nowMs: number): number {
    const period = Math.floor(nowMs / LEASE_MS);
    let d = this.demand.get(key);
    if (!d) this.demand.set(key, (d = { period, calls: 0, previous: 0 }));
    if (d.period !== period) {
      d.previous = d.period === period - 1 ? d.calls : 0;
      d.period = period;
      d.calls = 0;
    }
    d.calls++;
    return Math.min(MAX_LEASE, Math.max(1, d.previous));
  }

  /** A slot of the account's lease, if it has one for this minute and month. */
  take(key: string, month: string, nowMs: number): LeasedCall | null {
    const lease = this.leases.get(key);
    if (!lease) return null;
    if (!lease.admits(month, nowMs)) {
      this.stop(lease);
      return null;
    }
    lease.taken++;
    lease.inFlight++;
    this.leasedCalls++;
    const { size, rateCount, used, pending, limit } = lease.grant;
    const left = size - lease.taken;
    if (!left) this.stop(lease);
    return {
      code: AdmitCode.Admitted,
      store: 'redis',
      lease,
      rateCount: rateCount - left,
      // As if the lease's unused slots were not held: counted, plus held by others, plus this lease's calls so far.
      used: limit !== null ? used : used + lease.taken - 1,
      pending: pending - left,
    };
  }

  /** Another call is asking Redis for this account's lease: wait for it rather than ask too. */
  pending(key: string): Promise<unknown> | undefined {
    return this.opening.get(key);
  }

  /** Marks a lease as being asked for until `asked` settles. */
  asking(key: string, asked: Promise<unknown>): void {
    const done = asked.then(
      () => undefined,
      () => undefined,
    );
    this.opening.set(key, done);
    void done.then(() => {
      if (this.opening.get(key) === done) this.opening.delete(key);
    });
  }

  /**
   * A lease Redis granted (code Leased) to the call asking for `input.lease` slots: that
   * call takes slot 0; the others wait in memory for the account's next calls.
   */
  open(key: string, input: AdmitInput, granted: AdmitAnswer): LeasedCall {
    const before = this.leases.get(key);
    if (before) this.stop(before);
    const size = input.lease!;
    const lease = new Lease(key, {
      accountId: input.accountId,
      rateScope: input.rateScope,
      month: input.month,
      window: Math.floor(input.nowMs / WINDOW_MS),
      holdPrefix: input.holdId,
      size,
      rateCount: granted.rateCount,
      used: granted.used,
      pending: granted.pending,
      limit: input.quota,
      nowMs: input.nowMs,
    });
    lease.timer = setTimeout(() => this.stop(lease), LEASE_MS);
    lease.timer.unref();
    this.leases.set(key, lease);
    // The calls made, not the lease's.
    return {
      code: AdmitCode.Admitted,
      store: granted.store,
      lease,
      rateCount: granted.rateCount - (size - 1),
      used: granted.used,
      pending: granted.pending - (size - 1),
    };
  }

  /** The end of a call admitted from `lease`: answered 2xx (then counted) or not. */
  settle(lease: Lease, call: { day: string; endpoint: string; keyId: string }, answered: boolean): Promise<void> {
    lease.inFlight--;
    if (answered) {
      const field = breakdownField(lease.grant.accountId, call.day, call.endpoint, call.keyId);
      const entry = lease.answered.get(field);
      if (entry) entry.calls++;
      else lease.answered.set(field, { field, day: call.day, endpoint: call.endpoint, keyId: call.keyId, calls: 1 });
    }
    return lease.taking || lease.inFlight > 0 ? Promise.resolve() : this.finish(lease);
  }

  /**
   * The lease takes no more calls: what it left unused goes back now; its calls are counted
   * once the last of them is answered (at once if none is in flight).
   */
  private stop(lease: Lease): void {
    if (!lease.taking) return;
    lease.taking = false;
    clearTimeout(lease.timer);
    if (this.leases.get(lease.key) === lease) this.leases.delete(lease.key);
    if (lease.inFlight === 0) {
      void this.finish(lease);
    } else if (lease.taken < lease.grant.size && !lease.lost) {
      lease.returned = true;
      void this.send(lease, {
        fromSlot: lease.taken,
        toSlot: lease.grant.size,
        answered: [],
        unusedCalls: lease.grant.size - lease.taken,
        leasedSize: lease.grant.size,
      });
    }
  }

  /** Counts the lease's answered calls and frees its slots (and what it left unused, if not yet given back). */
  private finish(lease: Lease): Promise<void> {
    const answered = [...lease.answered.values()];
    if (lease.returned) return this.send(lease, { fromSlot: 0, toSlot: lease.taken, answered, unusedCalls: 0, leasedSize: 0 });
    return this.send(lease, {
      fromSlot: 0,
      toSlot: lease.grant.size,
      answered,
      unusedCalls: lease.grant.size - lease.taken,
      leasedSize: lease.grant.size,
    });
  }

  private send(lease: Lease, w: Pick<LeaseWrite, 'fromSlot' | 'toSlot' | 'answered' | 'unusedCalls' | 'leasedSize'>): Promise<void> {
    const { accountId, rateScope, month, window, holdPrefix, limit } = lease.grant;
    const writing = this.write({ ...w, accountId, rateScope, month, windowMs: window * WINDOW_MS, holdPrefix, limit, lost: lease.lost });
    this.writing.add(writing);
    void writing.finally(() => this.writing.delete(writing));
    return writing;
  }

  /** Stops every lease: they take no more calls, give back what they did not use and count theirs. */
  endAll(): void {
    for (const lease of [...this.leases.values()]) this.stop(lease);
  }

  /** Stops every lease (a shutdown) and resolves once their writes are done. */
  async closeAll(): Promise<void> {
    this.endAll();
    while (this.writing.size) await Promise.all([...this.writing]);
  }

  /**
   * Redis was lost: its holds and windows went with it, nothing to give back; the calls
   * leased and answered (now or once in flight ones end) are counted in PostgreSQL.
   */
  drop(): void {
    for (const lease of [...this.leases.values()]) {
      lease.lost = true;
      this.stop(lease);
    }
  }

  /** Forgets the demand of accounts quiet for a while. */
  sweep(nowMs: number): void {
    const period = Math.floor(nowMs / LEASE_MS);
    for (const [key, d] of this.demand) if (d.period < period - 1) this.demand.delete(key);
  }
}
