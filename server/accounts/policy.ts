/**
 * The account policy, in one place for the API's request chain, the dashboard and the
 * operator CLI: which keys are valid, the limits in force, the quota month and the quota
 * as customers see it. Pure functions of plain values (the account lock aside), so they
 * are tested without a database.
 */
import { PLANS, type PlanName } from '../../contract/plans.js';
import type { TQuota } from '../../contract/schemas.js';

/* ---------------------------------------------------------------- quota month */

export const DAY_MS = 86_400_000;

/** The quota month is the UTC calendar month; it resets at 00:00 UTC on the 1st. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** `YYYY-MM-DD` of a UTC date, as PostgreSQL `date` columns take it. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** `YYYY-MM` of the month holding `d` (UTC). */
export function monthKey(d: Date): string {
  return d.toISOString().slice(0, 7);
}

/** The strings of an instant's quota day and month, which only change at midnight UTC. */
export interface QuotaCalendar {
  /** `YYYY-MM-DD` of the day. */
  day: string;
  /** `YYYY-MM-DD` of the quota month's first day. */
  month: string;
  /** When the quota resets: the next month's first instant, ISO 8601. */
  resetsAt: string;
}

let calendar: { from: number; to: number; value: QuotaCalendar } | null = null;

/** The same as isoDay, monthStart and nextMonthStart give, worked out once per UTC day (the API asks on every call). */
export function quotaCalendar(now: Date): QuotaCalendar {
  const t = now.getTime();
  if (calendar && t >= calendar.from && t < calendar.to) return calendar.value;
  const from = t - (((t % DAY_MS) + DAY_MS) % DAY_MS);
  calendar = {
    from,
    to: from + DAY_MS,
    value: { day: isoDay(now), month: isoDay(monthStart(now)), resetsAt: nextMonthStart(now).toISOString() },
  };
  return calendar.value;
}

/** A quota or billing month as callers write it: `YYYY-MM`. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

export function isMonthKey(value: string): boolean {
  return MONTH_PATTERN.test(value);
}

/** First instant of a `YYYY-MM` month and of the one after. */
export function monthBounds(month: string): { start: Date; end: Date } {
  const [y, m] = month.split('-').map(Number);
  return { start: new Date(Date.UTC(y, m - 1, 1)), end: new Date(Date.UTC(y, m, 1)) };
}

/** `YYYY-MM` moved by `by` months. */
export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number);
  return monthKey(new Date(Date.UTC(y, m - 1 + by, 1)));
}

export function daysInMonth(year: number, monthIndex: number): number {
  return new Date(Date.UTC(year, monthIndex + 1, 0)).getUTCDate();
}

/** Whole seconds until the quota resets (at least 1): a `quota_exceeded` answer's Retry-After. */
export function secondsUntilReset(now: Date): number {
  return Math.max(1, Math.ceil((nextMonthStart(now).getTime() - now.getTime()) / 1000));
}

/* ---------------------------------------------------------------- limits */

export interface LimitFields {
  plan: PlanName;
  monthlyQuotaOverride: number | null;
  rateLimitOverride: number | null;
}

export interface EffectiveLimits {
  /** Calls per quota month; null: unlimited. */
  monthlyQuota: number | null;
  /** Calls per minute; null: unlimited. */
  ratePerMinute: number | null;
  /** Active keys; null: unlimited. */
  maxKeys: number | null;
}

/** The limits in force for an account: its plan's, or its Enterprise contract's overrides. */
export function effectiveLimits(account: LimitFields): EffectiveLimits {
  const plan = PLANS[account.plan];
  return {
    monthlyQuota: account.monthlyQuotaOverride ?? plan.monthlyQuota,
    ratePerMinute: account.rateLimitOverride ?? plan.ratePerMinute,
    maxKeys: plan.maxKeys,
  };
}

/* ---------------------------------------------------------------- keys */

export interface KeyFields {
  revokedAt: Date | null;
  /** Set when a key is rotated: valid until then. */
  expiresAt: Date | null;
}

export function isKeyActive(k: KeyFields, now = new Date()): boolean {
  return k.revokedAt === null && (k.expiresAt === null || k.expiresAt > now);
}

export type KeyVerdict = 'valid' | 'invalid' | 'suspended' | 'unverified';

/**
 * What the API makes of a key: `invalid` (unknown, revoked, expired: one answer for all,
 * so a caller learns nothing about keys it does not hold), `suspended`, `unverified` (the
 * account's address is not confirmed yet), or `valid`.
 */
export function keyVerdict(
  key: KeyFields | null,
  account: { status: 'active' | 'suspended'; emailVerified: boolean } | null,
  now: Date,
): KeyVerdict {
  if (!key || !account || !isKeyActive(key, now)) return 'invalid';
  if (account.status === 'suspended') return 'suspended';
  if (!account.emailVerified) return 'unverified';
  return 'valid';
}

/* ---------------------------------------------------------------- quota view */

/** `meta.quota`: the state after this call was counted (`used` includes it). */
export function quotaView(plan: PlanName, monthlyQuota: number | null, used: number, now: Date): TQuota {
  return {
    plan,
    limit: monthlyQuota,
    used,
    remaining: monthlyQuota === null ? null : Math.max(0, monthlyQuota - used),
    resets_at: quotaCalendar(now).resetsAt,
  };
}

/* ---------------------------------------------------------------- the account lock */

/**
 * Locks the account row for the rest of the transaction: key creation, rotation and plan
 * changes take it, so two of them on one account never both pass a limit check.
 */
export async function lockAccount(
  tx: { $queryRaw: (q: TemplateStringsArray, ...v: unknown[]) => Promise<unknown> },
  accountId: string,
): Promise<void> {
  await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
}
