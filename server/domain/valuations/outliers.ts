/**
 * Impossible prices never enter the fit: within each stratum (purpose, type, city and
 * bedrooms), an advert whose log price lies further from the stratum's median than
 * `MAD_FACTOR` robust standard deviations (1.4826 × the median absolute deviation), and
 * at least a factor `MIN_RATIO` away, is set aside (a rent of 30,000 XAF a night among
 * monthly rents, a price typed with a zero too many). Strata of fewer than `MIN_ROWS`
 * adverts keep them all. The SQL of the fit (sql.ts) and the evaluation's rows in memory
 * (`keptForFit`) follow this one rule; a test holds them equal.
 */

export const OUTLIER_RULE = { MAD_FACTOR: 3.5, MIN_RATIO: 3, MIN_ROWS: 8 } as const;
const LOG_FLOOR = Math.log(OUTLIER_RULE.MIN_RATIO);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

export interface Stratified {
  purpose: string;
  type: string;
  cityKey: string;
  bedrooms: number | null;
  price: number;
}

/** The rows the fit may use, and how many were set aside. */
export function keptForFit<T extends Stratified>(rows: T[]): { kept: T[]; rejected: number } {
  const strata = new Map<string, T[]>();
  for (const r of rows) {
    const k = `${r.purpose}|${r.type}|${r.cityKey}|${r.bedrooms ?? -1}`;
    const list = strata.get(k);
    if (list) list.push(r);
    else strata.set(k, [r]);
  }
  const kept: T[] = [];
  let rejected = 0;
  for (const list of strata.values()) {
    if (list.length < OUTLIER_RULE.MIN_ROWS) {
      kept.push(...list);
      continue;
    }
    const ys = list.map((r) => Math.log(r.price));
    const m = median(ys);
    const cut = Math.max(OUTLIER_RULE.MAD_FACTOR * 1.4826 * median(ys.map((y) => Math.abs(y - m))), LOG_FLOOR);
    list.forEach((r, i) => {
      if (Math.abs(ys[i] - m) <= cut) kept.push(r);
      else rejected++;
    });
  }
  return { kept, rejected };
}

/**
 * The same rule in SQL over a relation `base` with columns purpose, type, city_key,
 * bedrooms and y (log price): adds relation `judged`, base's columns and `out`.
 */
export const OUTLIER_SQL = `
  stratum AS (
    SELECT purpose, type, city_key, coalesce(bedrooms, -1) AS sb, count(*) AS n,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY y) AS m
    FROM base GROUP BY 1, 2, 3, 4),
  spread AS (
    SELECT s.purpose, s.type, s.city_key, s.sb, s.n, s.m,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(b.y - s.m)) AS mad
    FROM base b JOIN stratum s ON s.purpose = b.purpose AND s.type = b.type AND s.city_key = b.city_key AND s.sb = coalesce(b.bedrooms, -1)
    GROUP BY 1, 2, 3, 4, 5, 6),
  judged AS (
    SELECT b.*, (s.n >= ${OUTLIER_RULE.MIN_ROWS}
                 AND abs(b.y - s.m) > greatest(${OUTLIER_RULE.MAD_FACTOR} * 1.4826 * s.mad, ${LOG_FLOOR})) AS out
    FROM base b JOIN spread s ON s.purpose = b.purpose AND s.type = b.type AND s.city_key = b.city_key AND s.sb = coalesce(b.bedrooms, -1))`;
