/** Billing arithmetic: proration by day at the day's highest plan, and Cameroon VAT. */
import { describe, expect, it } from 'vitest';
import { chargedPlanForDay, monthlyStatements, proratedAmount } from '../../server/accounts/billing.js';
import { vatOn } from '../../server/billing/vat.js';

const at = (iso: string) => new Date(iso);

describe('proration', () => {
  it('rounds price × days / days in month half up, in integers, and a whole month costs the price', () => {
    expect(proratedAmount(50_000, 30, 30)).toBe(50_000);
    expect(proratedAmount(50_000, 31, 31)).toBe(50_000);
    expect(proratedAmount(250_000, 1, 30)).toBe(8_333); // 8,333.33
    expect(proratedAmount(250_000, 2, 30)).toBe(16_667); // 16,666.67
    expect(proratedAmount(1_000_000, 1, 28)).toBe(35_714); // 35,714.29
  });

  it('charges a day at the most expensive plan held at any moment of it', () => {
    const changes = [
      { plan: 'starter' as const, changedAt: at('2026-11-01T00:00:00Z') },
      { plan: 'pro' as const, changedAt: at('2026-11-10T15:00:00Z') },
      { plan: 'starter' as const, changedAt: at('2026-11-20T09:00:00Z') },
    ];
    expect(chargedPlanForDay(changes, at('2026-10-31T00:00:00Z'))).toBeNull();
    expect(chargedPlanForDay(changes, at('2026-11-09T00:00:00Z'))).toBe('starter');
    expect(chargedPlanForDay(changes, at('2026-11-10T00:00:00Z'))).toBe('pro'); // upgraded during the day
    expect(chargedPlanForDay(changes, at('2026-11-20T00:00:00Z'))).toBe('pro'); // downgraded during the day
    expect(chargedPlanForDay(changes, at('2026-11-21T00:00:00Z'))).toBe('starter');
  });

  it('makes one line per run of days on one plan, summing to the month', () => {
    const [november] = monthlyStatements(
      [
        { plan: 'starter', changedAt: at('2026-11-01T00:00:00Z') },
        { plan: 'pro', changedAt: at('2026-11-16T08:00:00Z') },
      ],
      at('2026-12-05T00:00:00Z'),
    ).filter((s) => s.month === '2026-11');
    expect(november.status).toBe('closed');
    expect(november.lines.map((l) => [l.plan, l.from, l.to, l.days])).toEqual([
      ['starter', '2026-11-01', '2026-11-15', 15],
      ['pro', '2026-11-16', '2026-11-30', 15],
    ]);
    expect(november.totalXaf).toBe(25_000 + 125_000);
  });
});

describe('VAT', () => {
  it('is 19.25 % of the amount before tax, to the franc', () => {
    expect(vatOn(100_000)).toBe(19_250);
    expect(vatOn(50_000)).toBe(9_625);
    expect(vatOn(8_333)).toBe(1_604); // 1,604.10
  });
});
