/**
 * Leases: an instance serving one account's steady stream of counted calls takes the slots
 * of its next calls from Redis in one round trip, then admits them in memory. Under load
 * that saves a round trip to Redis per call (bench/README.md, hot path).
 *
 * A leased slot is an ordinary held slot of the quota (a member of the account's holds in
 * Redis, expiring on its own) and an ordinary call of the minute's window, so nothing else
 * changes: a call is counted when answered 2xx and frees its slot otherwise, and the quota
 * can never be passed. What is left of a lease after LEASE_MS (or once its minute or month
 * is over) is given back: its slots and its calls of the window.
 *
 * Redis grants a lease only with room to spare (LEASE_ROOM times its size left in both the
 * window and the quota), so slots held ahead by one instance never make another instance's
 * call be refused: over the per-minute limit, a call waits (briefly) while leased calls of
 * the window may still come back. The size follows the demand: the calls of the account on
 * this instance in the last LEASE_MS, at most MAX_LEASE; one call at a time asks for none.
 * Accounts under LEASE_MIN_RATE calls a minute never lease.
 *
 * What a fault can cost: an instance that crashes holding a lease keeps up to MAX_LEASE
 * slots from the account until they expire (holdTtlMs, 2 min; never charged) and up to
 * MAX_LEASE calls from its per-minute window until the minute ends. Losing Redis drops the
 * leases: their slots and calls vanish with Redis's own counts; the per-minute count an
 * instance carries to PostgreSQL then may include another instance's unused leased calls
 * (at most MAX_LEASE each), so that minute may allow that many calls fewer.
 */
export const LEASE_MS = 100;
export const MAX_LEASE = 64;
/**
 * Only accounts allowed at least this many calls a minute (or unlimited) lease: below it
 * there is no load to save, and a lease would be a large part of the minute's calls.
 */
export const LEASE_MIN_RATE = 1_000;

/** What a call admitted from a lease sees, as Redis would have answered it alone. */
export interface LeasedCall {
  holdId: string;
  /** Calls in the minute's window, this one included (as of the lease). */
  rateCount: number;
  /** Calls counted this month (as of the lease). */
  used: number;
  /** Slots held by calls in flight, this one included (as of the lease). */
  pending: number;
}

interface Lease {
  month: string;
  window: number;
  expiresAt: number;
  /** Slots not yet used, each a hold id in Redis. */
  holds: string[];
  size: number;
  /** Redis's answer when it granted the lease, the lease's slots and calls included. */
  rateCount: number;
  used: number;
  pending: number;
  limited: boolean;
  timer: NodeJS.Timeout;
}

export interface Unused {
  accountId: string;
  rateScope: 'live' | 'test';
  month: string;
  windowMs: number;
  holdIds: string[];
  calls: number;
  /** The lease's size: what it added to the window's leased calls. */
  size: number;
}

/** The leases of one instance, by account (and scope). */
export class Leases {
  private readonly leases = new Map<string, Lease & { accountId: string; rateScope: 'live' | 'test' }>();
  private readonly opening = new Map<string, Promise<unknown>>();
  private readonly demand = new Map<string, { period: number; calls: number; previous: number }>();
  leasedCalls = 0;

  /** Called with what a lease leaves unused (never awaited by a caller). */
  constructor(private readonly giveBack: (unused: Unused) => Promise<void>) {}

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
    if (lease.month !== month || lease.window !== Math.floor(nowMs / 60_000) || nowMs >= lease.expiresAt || !lease.holds.length) {
      void this.close(key);
      return null;
    }
    const holdId = lease.holds.pop()!;
    const left = lease.holds.length;
    const taken = lease.size - left;
    this.leasedCalls++;
    if (!left) void this.close(key);
    return {
      holdId,
      rateCount: lease.rateCount - left,
      // As if the lease's unused slots were not held: counted, plus held by others, plus this lease's calls so far.
      used: lease.limited ? lease.used : lease.used + taken - 1,
      pending: lease.pending - left,
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

  /** A lease Redis granted: `holdIds` are its slots left after the first call's. */
  open(
    key: string,
    o: Omit<Lease, 'expiresAt' | 'timer' | 'size'> & { accountId: string; rateScope: 'live' | 'test'; nowMs: number },
  ): void {
    void this.close(key);
    const timer = setTimeout(() => void this.close(key), LEASE_MS);
    timer.unref();
    const { nowMs, ...lease } = o;
    this.leases.set(key, { ...lease, size: o.holds.length + 1, expiresAt: nowMs + LEASE_MS, timer });
  }

  /** Gives back what a lease left unused. */
  close(key: string): Promise<void> {
    const lease = this.leases.get(key);
    if (!lease) return Promise.resolve();
    this.leases.delete(key);
    clearTimeout(lease.timer);
    // Even used up, the lease leaves the window's leased calls.
    return this.giveBack({
      accountId: lease.accountId,
      rateScope: lease.rateScope,
      month: lease.month,
      windowMs: lease.window * 60_000,
      holdIds: lease.holds,
      calls: lease.holds.length,
      size: lease.size,
    });
  }

  /** Gives back every lease (a shutdown), resolving once Redis has them back. */
  async closeAll(): Promise<void> {
    await Promise.all([...this.leases.keys()].map((key) => this.close(key)));
  }

  /** Redis was lost: its holds and windows went with it, nothing to give back. */
  drop(): void {
    for (const lease of this.leases.values()) clearTimeout(lease.timer);
    this.leases.clear();
  }

  /** Forgets the demand of accounts quiet for a while. */
  sweep(nowMs: number): void {
    const period = Math.floor(nowMs / LEASE_MS);
    for (const [key, d] of this.demand) if (d.period < period - 1) this.demand.delete(key);
  }
}
