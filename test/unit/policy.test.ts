/** The account policy: the quota month, limits in force, key validity and the quota as shown. */
import { describe, expect, it } from 'vitest';
import {
  daysInMonth,
  effectiveLimits,
  isKeyActive,
  keyVerdict,
  monthBounds,
  monthKey,
  monthStart,
  nextMonthStart,
  quotaCalendar,
  quotaView,
  secondsUntilReset,
  shiftMonth,
} from '../../server/accounts/policy.js';

describe('the quota month (UTC calendar month)', () => {
  it('starts at 00:00 UTC on the 1st and resets at the next 1st, whatever the local time zone', () => {
    const lateOn31st = new Date('2026-12-31T23:59:59.999Z');
    expect(monthStart(lateOn31st).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(nextMonthStart(lateOn31st).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(monthKey(lateOn31st)).toBe('2026-12');
    expect(secondsUntilReset(lateOn31st)).toBe(1);
    expect(secondsUntilReset(new Date('2026-11-30T00:00:00Z'))).toBe(86_400);
  });

  it('gives the day, month and reset of any instant, across midnight, month and year ends', () => {
    const instants = [
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00.000Z',
      '2026-12-31T00:00:00.000Z',
      '2024-02-29T12:00:00Z',
      '2026-12-31T23:59:59.999Z',
    ];
    for (const at of instants.map((i) => new Date(i))) {
      expect(quotaCalendar(at)).toEqual({
        day: at.toISOString().slice(0, 10),
        month: monthStart(at).toISOString().slice(0, 10),
        resetsAt: nextMonthStart(at).toISOString(),
      });
    }
  });

  it('walks months and counts their days, leap years included', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-11', 2)).toBe('2027-01');
    expect(monthBounds('2024-02')).toEqual({ start: new Date('2024-02-01T00:00:00Z'), end: new Date('2024-03-01T00:00:00Z') });
    expect(daysInMonth(2024, 1)).toBe(29);
    expect(daysInMonth(2026, 1)).toBe(28);
    expect(daysInMonth(2026, 11)).toBe(31);
  });
});

describe('limits in force', () => {
  it("are the plan's unless the Enterprise contract sets its own", () => {
    expect(effectiveLimits({ plan: 'starter', monthlyQuotaOverride: null, rateLimitOverride: null })).toEqual({
      monthlyQuota: 10_000,
      ratePerMinute: 30,
      maxKeys: 1,
    });
    expect(effectiveLimits({ plan: 'enterprise', monthlyQuotaOverride: null, rateLimitOverride: null })).toEqual({
      monthlyQuota: null,
      ratePerMinute: null,
      maxKeys: null,
    });
    expect(effectiveLimits({ plan: 'enterprise', monthlyQuotaOverride: 2_000_000, rateLimitOverride: 1_200 })).toEqual({
      monthlyQuota: 2_000_000,
      ratePerMinute: 1_200,
      maxKeys: null,
    });
  });
});

describe('keys', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  const active = { status: 'active' as const, emailVerified: true };

  it("are valid until revoked, or until the end of a rotation's grace period", () => {
    expect(isKeyActive({ revokedAt: null, expiresAt: null }, now)).toBe(true);
    expect(isKeyActive({ revokedAt: null, expiresAt: new Date('2026-11-22T12:00:01Z') }, now)).toBe(true);
    expect(isKeyActive({ revokedAt: null, expiresAt: now }, now)).toBe(false);
    expect(isKeyActive({ revokedAt: new Date('2026-11-01T00:00:00Z'), expiresAt: null }, now)).toBe(false);
  });

  it('answer invalid, suspended, unverified or valid, in that order', () => {
    const key = { revokedAt: null, expiresAt: null };
    expect(keyVerdict(null, null, now)).toBe('invalid');
    expect(keyVerdict({ ...key, revokedAt: now }, { status: 'suspended', emailVerified: false }, now)).toBe('invalid');
    expect(keyVerdict(key, { status: 'suspended', emailVerified: false }, now)).toBe('suspended');
    expect(keyVerdict(key, { status: 'active', emailVerified: false }, now)).toBe('unverified');
    expect(keyVerdict(key, active, now)).toBe('valid');
  });
});

describe('the quota as shown (meta.quota)', () => {
  it('counts this call, never shows a negative remainder, and is null when unlimited', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    expect(quotaView('starter', 10_000, 1_234, now)).toEqual({
      plan: 'starter',
      limit: 10_000,
      used: 1_234,
      remaining: 8_766,
      resets_at: '2026-12-01T00:00:00.000Z',
    });
    expect(quotaView('pro', 3, 5, now).remaining).toBe(0);
    expect(quotaView('enterprise', null, 99, now)).toMatchObject({ limit: null, remaining: null, used: 99 });
  });
});
