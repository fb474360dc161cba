/**
 * Currencies the API answers in. Amounts are stored and computed in XAF (whole francs);
 * XAF is pegged to the euro at 655.957 XAF = 1 EUR, so `currency=EUR` is an exact,
 * fixed conversion of each amount, never a market rate.
 *
 * Rounding: an EUR amount is its XAF amount divided by 655.957, rounded half up to the
 * cent. Each amount is converted on its own (a mean is the XAF mean, converted), so
 * sums of converted amounts may differ from a converted sum by a cent.
 */
export const CURRENCIES = ['XAF', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];

/** 655.957 XAF = 1 EUR, as integers: 655,957 XAF = 1,000 EUR = 100,000 cents. */
export const XAF_PER_EUR = 655.957;
const XAF_PER_1000_EUR = 655_957n;
const CENTS_PER_1000_EUR = 100_000n;

/** A whole XAF amount (number or PostgreSQL bigint text) in `currency`: unchanged for XAF, euros to the cent for EUR. */
export function fromXaf(xaf: number | bigint | string, currency: Currency): number {
  if (currency === 'XAF') return Number(xaf);
  const francs = BigInt(xaf);
  // cents = francs × 100,000 / 655,957, rounded half up (half away from zero for the
  // negative amounts no price has, so that the rule stays symmetric).
  const doubled = 2n * francs * CENTS_PER_1000_EUR;
  const sign = doubled < 0n ? -1n : 1n;
  const cents = (sign * doubled + XAF_PER_1000_EUR) / (2n * XAF_PER_1000_EUR);
  return Number(sign * cents) / 100;
}

/**
 * The XAF range of listings whose price, shown in `currency`, lies within [min, max]
 * (whole units of that currency). Exact: a listing matches `min_price=100&currency=EUR`
 * exactly when the EUR price the API shows for it is 100.00 or more.
 */
export function xafBounds(
  bounds: { min?: number | undefined; max?: number | undefined },
  currency: Currency,
): { min?: bigint; max?: bigint } {
  if (currency === 'XAF') {
    return {
      ...(bounds.min !== undefined ? { min: BigInt(bounds.min) } : {}),
      ...(bounds.max !== undefined ? { max: BigInt(bounds.max) } : {}),
    };
  }
  // shown cents = round_half_up(x × 100,000 / 655,957); for a bound of M euros:
  //   shown ≥ 100·M  ⇔  x ≥ (200·M − 1) × 655,957 / 200,000            (smallest such x: the ceiling)
  //   shown ≤ 100·M  ⇔  x < (200·M + 1) × 655,957 / 200,000            (largest such x: the ceiling − 1)
  const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
  const scale = 2n * CENTS_PER_1000_EUR;
  const result: { min?: bigint; max?: bigint } = {};
  if (bounds.min !== undefined) {
    const m = BigInt(bounds.min);
    result.min = m === 0n ? 0n : ceilDiv((200n * m - 1n) * XAF_PER_1000_EUR, scale);
  }
  if (bounds.max !== undefined) {
    const m = BigInt(bounds.max);
    result.max = ceilDiv((200n * m + 1n) * XAF_PER_1000_EUR, scale) - 1n;
  }
  return result;
}
