/**
 * The one interface of the stores that admit calls: PostgreSQL (postgres-store.ts), Redis
 * (redis-store.ts), and the failover in front of them that uses whichever answers
 * (failover.ts). One input, one answer, the same rules in each: the per-minute window, then
 * the monthly quota, where a counted call holds a slot until it is counted or freed.
 * test/quota/stores.test.ts runs one suite of cases over each of them.
 */

/** A per-minute window: fixed 60-second windows aligned on the minute. */
export const WINDOW_MS = 60_000;

/** Status codes shared by both stores (the PostgreSQL function mboa_admit and the Redis script). */
export const enum AdmitCode {
  Admitted = 0,
  RateLimited = 1,
  QuotaFull = 2,
  /** Only slots held by calls in flight stand in the way: wait for them to settle. */
  Wait = 3,
  /** Redis does not know the month's count: ask again with it (`AdmitInput.seed`). */
  NeedSeed = 4,
  /** Admitted, with the slots of a lease held for the instance's next calls (see leases.ts). */
  Leased = 5,
  /** Over the per-minute limit while leased calls of the window may still come back: wait. */
  RateWait = 6,
}

export type StoreName = 'redis' | 'postgres';

/** Whose per-minute window: an account's live calls, its test keys' or its pings (each counted apart). */
export type RateScope = 'live' | 'test' | 'ping';

export interface AdmitInput {
  accountId: string;
  rateScope: RateScope;
  /** `YYYY-MM-DD` of the quota month's first day. */
  month: string;
  /** Whether the call counts against the quota (then it holds a slot when the quota is limited). */
  counted: boolean;
  /** The monthly quota; null when unlimited. */
  quota: number | null;
  /** Calls allowed per minute; null when unlimited. */
  rate: number | null;
  /** The slot's id (unique per call); a lease's slots are `{holdId}:{j}`. */
  holdId: string;
  nowMs: number;
  /** How long a slot stays held if its call never settles (a crashed instance). */
  holdTtlMs: number;
  /** The month's count in PostgreSQL, for a store that does not know it or may know less (Redis). */
  seed?: { used: number; mode: 'missing' | 'max' };
  /** Slots asked for ahead (a lease): granted with code Leased by a store that leases (Redis), else one call. */
  lease?: number;
}

export interface AdmitAnswer {
  code: AdmitCode;
  /** Where the call's slot is held, and so where it is counted. */
  store: StoreName;
  /** Calls in this minute's window, this one included. */
  rateCount: number;
  /** Calls counted this month; -1 when the store did not read it (refused before). */
  used: number;
  /** Slots held by calls in flight, this one included when it holds one. */
  pending: number;
}

/** A call answered 2xx, to count where its slot is held. */
export interface AnsweredCall {
  store: StoreName;
  /** Its slot (null: none, the quota being unlimited, or it was leased). */
  holdId: string | null;
  accountId: string;
  keyId: string;
  endpoint: string;
  month: string;
  /** `YYYY-MM-DD`: its day in the usage breakdown. */
  day: string;
}

/** The slot of a call that ended without a 2xx answer, to free. */
export interface HeldSlot {
  store: StoreName;
  holdId: string;
  accountId: string;
  month: string;
}

export interface QuotaNow {
  used: number;
  pending: number;
}

export interface AdmissionStore {
  /** Admits one call, or refuses it: the window first, then the quota. */
  admit(input: AdmitInput): Promise<AdmitAnswer>;
  /**
   * Counts an answered call and frees its slot; resolves with the month's count once it is
   * in, or null when a retry found it counted already.
   */
  count(call: AnsweredCall): Promise<number | null>;
  release(slot: HeldSlot): Promise<void>;
  /** The month's count and slots held now, without taking anything; null when the store does not know the month. */
  peek(accountId: string, month: string, nowMs: number): Promise<QuotaNow | null>;
}

/** A per-minute window's name in memory: an account's and scope's (one lease each, leases.ts). */
export const rateKey = (accountId: string, rateScope: RateScope): string => `${accountId}:${rateScope}`;

/** The start of the minute's window, in ms since the epoch. */
export const windowStart = (nowMs: number): number => nowMs - (nowMs % WINDOW_MS);
