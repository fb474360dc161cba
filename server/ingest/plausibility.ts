/**
 * Plausibility at the door: a valid row whose price cannot be a real asking price is held,
 * not stored as a listing (so no market figure, valuation model or API answer ever sees
 * it), kept whole in `held_listings` with its reason, and served only once an operator
 * releases it (`npm run admin -- held list`, `held release`). The rules:
 *
 * - absolute floors: a monthly rent (furnished or not) under 5,000 XAF, a sale under
 *   100,000 XAF; a ceiling: a monthly rent over 50,000,000 XAF;
 * - the stratum (city × purpose × type × bedrooms, from the active listings stored when the
 *   import starts; with fewer than 20, city × purpose × type; then purpose × type): held
 *   when the price is under the stratum's median divided by exp(max(4 σ, ln 8)) or over
 *   it times exp(max(4 σ, ln 16)), σ = 1.4826 × the median absolute deviation of
 *   ln(price) (a robust standard deviation): never nearer than ÷8 or ×16;
 * - a title naming a price an order of magnitude (×10) away from the price column is
 *   reported (`price_warnings`); it adds to the reason when the row is held.
 *
 * A row released by an operator is not held again at the same price.
 */
import { matchKey } from '../platform/text.js';
import { readPrice } from './money.js';
import type { StoredRecord } from './record.js';
import type { Queryable } from './upsert.js';

export const FLOORS: Record<string, number> = { rent: 5_000, furnished_rent: 5_000, sale: 100_000 };
export const RENT_CEILING = 50_000_000;
export const MIN_STRATUM = 20;
const SIGMAS = 4;
/** The nearest bounds, below and above the median: real adverts' right tail is long (a luxury flat asks ten times the median). */
const MIN_FACTOR_LOW = 8;
const MIN_FACTOR_HIGH = 16;

export interface HeldRow {
  line: number;
  source_ref: string;
  price: number;
  reason: string;
}

export interface PriceWarning {
  line: number;
  source_ref: string;
  reason: string;
}

interface Stratum {
  n: number;
  median: number;
  sigma: number;
}

const LEVELS = [
  ['city_key', 'purpose', 'type', 'bedrooms'],
  ['city_key', 'purpose', 'type'],
  ['purpose', 'type'],
] as const;

type Keyed = { city_key?: string | null; purpose: string; type: string; bedrooms?: number | null };
const keyOf = (level: readonly string[], r: Keyed) => level.map((c) => String((r as Record<string, unknown>)[c] ?? '')).join('\u0000');

const REPORT_CAP = 1_000;
const XAF = /(\d[\d .,]*\d|\d)\s*(k|m|millions?|mille)?\s*(f ?cfa|fcfa|cfa|xaf|frs?|francs?|f)\b/g;

/** The amounts a title names in XAF (`150.000 fcfa`, `150k F`). */
export function titleAmounts(title: string): number[] {
  const folded = title
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
  const out: number[] = [];
  for (const m of folded.matchAll(XAF)) {
    const read = readPrice(m[0]);
    if (read.kind === 'amount' && read.xaf > 0) out.push(read.xaf);
  }
  return out;
}

export class Plausibility {
  private readonly strata: Array<Map<string, Stratum>>;
  private readonly released: Map<string, number>;
  /** References held by an earlier import and not released; those that pass now, to forget. */
  private readonly stillHeld: Set<string>;
  private readonly passed: string[] = [];
  readonly held: Array<HeldRow & { record: StoredRecord }> = [];
  readonly warnings: PriceWarning[] = [];
  private warned = 0;

  constructor(
    strata: Array<Map<string, Stratum>> = LEVELS.map(() => new Map()),
    released = new Map<string, number>(),
    stillHeld = new Set<string>(),
  ) {
    this.strata = strata;
    this.released = released;
    this.stillHeld = stillHeld;
  }

  /** The strata of the stored active listings, and the rows of `source` operators released. */
  static async load(db: Queryable, source: string): Promise<Plausibility> {
    const strata: Array<Map<string, Stratum>> = [];
    for (const level of LEVELS) {
      const cols = level.join(', ');
      const on = level.map((c) => `l.${c} IS NOT DISTINCT FROM m.${c}`).join(' AND ');
      const { rows } = await db.query<Keyed & { n: number; median: number; mad: number }>(
        `WITH l AS (SELECT ${cols}, ln(price::float8) AS lp FROM listings WHERE status = 'active' AND price > 0),
              m AS (SELECT ${cols}, count(*)::int AS n, percentile_cont(0.5) WITHIN GROUP (ORDER BY lp) AS median
                    FROM l GROUP BY ${cols} HAVING count(*) >= ${MIN_STRATUM})
         SELECT ${level.map((c) => `m.${c}`).join(', ')}, m.n, m.median,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(l.lp - m.median)) AS mad
         FROM m JOIN l ON ${on} GROUP BY ${level.map((c) => `m.${c}`).join(', ')}, m.n, m.median`,
      );
      strata.push(new Map(rows.map((r) => [keyOf(level, r), { n: r.n, median: r.median, sigma: 1.4826 * r.mad }])));
    }
    const { rows } = await db.query<{ source_ref: string; price: string; released: boolean }>(
      'SELECT source_ref, price, released_at IS NOT NULL AS released FROM held_listings WHERE source = $1',
      [source],
    );
    const released = new Map(rows.filter((r) => r.released).map((r) => [r.source_ref, Number(r.price)]));
    return new Plausibility(strata, released, new Set(rows.filter((r) => !r.released).map((r) => r.source_ref)));
  }

  /** Why the price of `r` cannot be served as it is, or null. */
  reasonFor(r: StoredRecord): string | null {
    const price = r.price;
    const floor = FLOORS[r.purpose];
    const what = r.purpose === 'sale' ? 'a sale' : 'a monthly rent';
    if (floor !== undefined && price < floor) return `price: ${fmt(price)} XAF is under the floor of ${fmt(floor)} XAF for ${what}`;
    if (r.purpose !== 'sale' && price > RENT_CEILING)
      return `price: ${fmt(price)} XAF is over the ceiling of ${fmt(RENT_CEILING)} XAF for a monthly rent`;
    for (let i = 0; i < LEVELS.length; i++) {
      const s = this.strata[i].get(keyOf(LEVELS[i], { ...r, city_key: matchKey(r.city) }));
      if (!s) continue;
      const low = Math.exp(Math.max(SIGMAS * s.sigma, Math.log(MIN_FACTOR_LOW)));
      const high = Math.exp(Math.max(SIGMAS * s.sigma, Math.log(MIN_FACTOR_HIGH)));
      const median = Math.exp(s.median);
      if (price > median * high || price < median / low) {
        const factor = price > median ? high : low;
        const stratum = LEVELS[i]
          .map((c) => `${c.replace('_key', '')} ${(r as Record<string, unknown>)[c.replace('_key', '')] ?? '?'}`)
          .join(', ');
        return `price: ${fmt(price)} XAF is more than ×${factor.toFixed(1)} from the median ${fmt(Math.round(median))} XAF of ${s.n} listings (${stratum})`;
      }
      return null;
    }
    return null;
  }

  /** Checks one valid row: true when it is held (then not to be written). */
  check(record: StoredRecord, line: number): boolean {
    const titled = titleAmounts(record.title).find((a) => record.price >= a * 10 || record.price * 10 <= a);
    const warning = titled === undefined ? null : `price: the title says ${fmt(titled)} XAF, the price column ${fmt(record.price)} XAF`;
    if (warning && this.warned++ < REPORT_CAP) this.warnings.push({ line, source_ref: record.source_ref, reason: warning });
    if (this.released.get(record.source_ref) === record.price) return false;
    const reason = this.reasonFor(record);
    if (!reason) {
      if (this.stillHeld.delete(record.source_ref)) this.passed.push(record.source_ref);
      return false;
    }
    this.held.push({
      line,
      source_ref: record.source_ref,
      price: record.price,
      reason: warning ? `${reason}; ${warning}` : reason,
      record,
    });
    return true;
  }

  /** What the import report says: the held rows (the first thousand) and the warnings. */
  report(): { held_prices: HeldRow[]; price_warnings: PriceWarning[] } {
    return {
      held_prices: this.held.slice(0, REPORT_CAP).map(({ line, source_ref, price, reason }) => ({ line, source_ref, price, reason })),
      price_warnings: this.warnings,
    };
  }

  /**
   * Keeps the held rows of `source` (a row held again replaces its earlier hold,
   * unreleased), and forgets earlier holds whose row passed this time.
   */
  async store(db: Queryable, source: string, now: Date): Promise<void> {
    if (this.passed.length > 0) {
      await db.query('DELETE FROM held_listings WHERE source = $1 AND released_at IS NULL AND source_ref = ANY($2::text[])', [
        source,
        this.passed,
      ]);
    }
    // One statement cannot write a reference twice: the file's last row of a reference stands.
    const rows = [...new Map(this.held.map((h) => [h.source_ref, h])).values()];
    for (let i = 0; i < rows.length; i += 1_000) {
      const chunk = rows.slice(i, i + 1_000);
      await db.query(
        `INSERT INTO held_listings (source, source_ref, price, reason, record, held_at)
         SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::text[], $5::jsonb[], $6::timestamptz[])
         ON CONFLICT (source, source_ref) DO UPDATE SET
           price = EXCLUDED.price, reason = EXCLUDED.reason, record = EXCLUDED.record, held_at = EXCLUDED.held_at, released_at = NULL`,
        [
          source,
          chunk.map((h) => h.source_ref),
          chunk.map((h) => h.price),
          chunk.map((h) => h.reason),
          chunk.map((h) => JSON.stringify(h.record)),
          chunk.map(() => now),
        ],
      );
    }
  }
}

const fmt = (n: number) => n.toLocaleString('en-US');
