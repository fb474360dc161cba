/**
 * The valuation model's coefficients, fitted on every advert of the last 36 months: per
 * purpose and type, how log price moves with log surface, log(1 + bedrooms) and the age of
 * the advert within a quarter (a fixed-effects regression: each quarter is compared with
 * itself, so the coefficients say nothing of which quarters are dear), and per quarter its
 * price level against its city (for the city method). Sufficient statistics are summed
 * per cell (purpose, type, city, quarter) by SQL or by `CellAccumulator`; the fit is pure.
 */

/**
 * The regressors, in this order: log surface, log(1 + bedrooms), age of the advert in
 * years, furnished (1, else 0), land title (titled 1, in progress 0.4, unknown 0, untitled
 * -1), log bathrooms (0 when unsaid) and whether bathrooms are said (1, else 0: real rent
 * adverts state no surface, and their bathrooms say much of their standing); then log
 * price, `y`, at index `Y`.
 */
export const VARIABLES = ['ls', 'lb', 'age', 'fu', 'lt', 'ba', 'bk'] as const;
export type Variable = (typeof VARIABLES)[number];
/** Index of log price among the summed values; `K` values in all. */
const Y = VARIABLES.length;
export const K = Y + 1;
/** Land title as a number: the slope per group says what a title is worth there. */
export const TITLE_CODE: Record<string, number> = { titled: 1, in_progress: 0.4, unknown: 0, untitled: -1 };

/** A set of rows of one cell: count, sums of the K values and of their pairwise products (upper triangle, row-major). */
export interface Moments {
  n: number;
  sum: number[];
  /** K(K+1)/2 products: (0,0) (0,1) … (0,K-1) (1,1) … (K-1,K-1). */
  prod: number[];
}

export interface CellStats {
  purpose: string;
  type: string;
  cityKey: string;
  neighborhoodKey: string | null;
  /** Rows with surface and bedrooms: [ls, lb, age, fu, lt, ba, bk, y]. */
  full: Moments;
  /** Rows with bedrooms (surface known or not): [0, lb, age, fu, lt, ba, bk, y]. */
  rooms: Moments;
  /** Every row: [0, 0, age, fu, lt, ba, bk, y]. */
  all: Moments;
}

const emptyMoments = (): Moments => ({ n: 0, sum: new Array<number>(K).fill(0), prod: new Array<number>((K * (K + 1)) / 2).fill(0) });
/** Index of the product (i, j) in `Moments.prod`. */
function P(i: number, j: number): number {
  const [a, b] = i <= j ? [i, j] : [j, i];
  return a * K - (a * (a - 1)) / 2 + (b - a);
}

/** A cell with no rows yet. */
export const emptyCell = (purpose: string, type: string, cityKey: string, neighborhoodKey: string | null): CellStats => ({
  purpose,
  type,
  cityKey,
  neighborhoodKey,
  full: emptyMoments(),
  rooms: emptyMoments(),
  all: emptyMoments(),
});

/** Adds the sums of `m` to `into`, but none of the regressors `unknown` (indices): their entries stay 0. */
export function addMoments(into: Moments, m: Moments, unknown: number[]): void {
  into.n += m.n;
  for (let i = 0; i < K; i++) {
    if (unknown.includes(i)) continue;
    into.sum[i] += m.sum[i];
    for (let j = i; j < K; j++) if (!unknown.includes(j)) into.prod[P(i, j)] += m.prod[P(i, j)];
  }
}

function addTo(m: Moments, v: number[]): void {
  m.n++;
  for (let i = 0; i < K; i++) {
    m.sum[i] += v[i];
    for (let j = i; j < K; j++) m.prod[P(i, j)] += v[i] * v[j];
  }
}

/** One row's regressors and log price (null surface or bedrooms: that regressor unknown). */
export interface RowFeatures {
  ls: number | null;
  lb: number | null;
  age: number;
  fu: number;
  lt: number;
  ba: number;
  bk: number;
  y: number;
}

/** What the model reads of an advert (or a subject, with price 1). */
export interface Described {
  price: number;
  surface: number | null;
  bedrooms: number | null;
  furnished: boolean | null;
  landTitle: string | null;
  bathrooms: number | null;
  ageYears: number;
}

export const featuresOf = (d: Described): RowFeatures => ({
  ls: d.surface !== null && d.surface > 0 ? Math.log(d.surface) : null,
  lb: d.bedrooms !== null ? Math.log1p(d.bedrooms) : null,
  age: Math.max(0, d.ageYears),
  fu: d.furnished === true ? 1 : 0,
  lt: TITLE_CODE[d.landTitle ?? 'unknown'] ?? 0,
  ba: d.bathrooms !== null && d.bathrooms > 0 ? Math.log(d.bathrooms) : 0,
  bk: d.bathrooms !== null && d.bathrooms > 0 ? 1 : 0,
  y: Math.log(d.price),
});

/** The same sums as the SQL of `cellStats` (sql.ts), over rows in memory (the evaluation's training rows). */
export class CellAccumulator {
  readonly cells = new Map<string, CellStats>();

  add(purpose: string, type: string, cityKey: string, neighborhoodKey: string | null, f: RowFeatures): void {
    const key = `${purpose}|${type}|${cityKey}|${neighborhoodKey ?? ''}`;
    let cell = this.cells.get(key);
    if (!cell) {
      cell = emptyCell(purpose, type, cityKey, neighborhoodKey);
      this.cells.set(key, cell);
    }
    const rest = [f.age, f.fu, f.lt, f.ba, f.bk, f.y];
    addTo(cell.all, [0, 0, ...rest]);
    if (f.lb !== null) addTo(cell.rooms, [0, f.lb, ...rest]);
    if (f.lb !== null && f.ls !== null) addTo(cell.full, [f.ls, f.lb, ...rest]);
  }
}

/** Coefficients of one regression: which regressors, their slopes, the residual variance. */
export interface Regression {
  vars: Variable[];
  beta: Partial<Record<Variable, number>>;
  /** Residual variance of log price within a quarter, after adjustment. */
  sigma2: number;
  n: number;
}

export interface GroupModel {
  /** By the regressors subject and comparable share: 'ls,lb', 'ls', 'lb', ''. */
  regressions: Map<string, Regression>;
}

/**
 * Ridge toward these slopes, worth `RIDGE` units of within-quarter sum of squares: a slope
 * with little data (few adverts, or a regressor that never varies, like the bedrooms of
 * land) stays near a sensible value instead of wandering.
 */
const PRIOR: Record<Variable, number> = { ls: 0.8, lb: 0.3, age: 0, fu: 0.5, lt: 0.1, ba: 0.3, bk: 0 };
/** Regressors every row has (as codes): in every regression. */
const ALWAYS: Variable[] = ['age', 'fu', 'lt', 'ba', 'bk'];
const RIDGE = 0.5;

/** Within-quarter centred cross-products of the variables `idx` (and y), summed over cells. */
function centred(cells: CellStats[], pick: (c: CellStats) => Moments, idx: number[]) {
  const k = idx.length;
  const xx = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const xy = new Array<number>(k).fill(0);
  let yy = 0;
  let n = 0;
  let groups = 0;
  for (const c of cells) {
    const m = pick(c);
    if (m.n < 2) continue;
    groups++;
    n += m.n;
    const cov = (i: number, j: number) => m.prod[P(i, j)] - (m.sum[i] * m.sum[j]) / m.n;
    for (let a = 0; a < k; a++) {
      xy[a] += cov(idx[a], Y);
      for (let b = 0; b < k; b++) xx[a][b] += cov(idx[a], idx[b]);
    }
    yy += cov(Y, Y);
  }
  return { xx, xy, yy, n, groups };
}

/** Solves A x = b (small, symmetric positive definite once ridged) by Gaussian elimination. */
function solve(a: number[][], b: number[]): number[] {
  const k = b.length;
  const m = a.map((row, i) => [...row, b[i]]);
  for (let i = 0; i < k; i++) {
    let best = i;
    for (let r = i + 1; r < k; r++) if (Math.abs(m[r][i]) > Math.abs(m[best][i])) best = r;
    [m[i], m[best]] = [m[best], m[i]];
    for (let r = 0; r < k; r++) {
      if (r === i || m[i][i] === 0) continue;
      const f = m[r][i] / m[i][i];
      for (let c = i; c <= k; c++) m[r][c] -= f * m[i][c];
    }
  }
  return m.map((row, i) => (row[i] === 0 ? 0 : row[k] / row[i]));
}

function regress(cells: CellStats[], pick: (c: CellStats) => Moments, vars: Variable[]): Regression {
  const all: Variable[] = [...vars, ...ALWAYS];
  const idx = all.map((v) => VARIABLES.indexOf(v));
  const { xx, xy, yy, n, groups } = centred(cells, pick, idx);
  const a = xx.map((row, i) => row.map((v, j) => v + (i === j ? RIDGE : 0)));
  const b = xy.map((v, i) => v + RIDGE * PRIOR[all[i]]);
  const beta = solve(a, b);
  // Residual sum of squares of the fitted slopes (ridge included), per degree of freedom.
  let rss = yy;
  for (let i = 0; i < all.length; i++) {
    rss -= 2 * beta[i] * xy[i];
    for (let j = 0; j < all.length; j++) rss += beta[i] * beta[j] * xx[i][j];
  }
  const dof = n - groups - all.length;
  return {
    vars,
    beta: Object.fromEntries(all.map((v, i) => [v, beta[i]])),
    sigma2: dof > 0 ? Math.max(rss / dof, 1e-4) : 0.09,
    n,
  };
}

export function fitGroup(cells: CellStats[]): GroupModel {
  return {
    regressions: new Map([
      ['ls,lb', regress(cells, (c) => c.full, ['ls', 'lb'])],
      ['ls', regress(cells, (c) => c.full, ['ls'])],
      ['lb', regress(cells, (c) => c.rooms, ['lb'])],
      ['', regress(cells, (c) => c.all, [])],
    ]),
  };
}

/** The regression a subject and a comparable can use: the regressors both know. */
export function regressionFor(group: GroupModel, shared: { ls: boolean; lb: boolean }): Regression {
  const key = shared.ls && shared.lb ? 'ls,lb' : shared.ls ? 'ls' : shared.lb ? 'lb' : '';
  return group.regressions.get(key)!;
}

/** A cell's intercept under a regression: its mean log price once its mean features are adjusted away. */
export function cellLevel(cell: CellStats, group: GroupModel): { level: number; n: number } | null {
  // The rows that say most: surface and bedrooms, else bedrooms (real rents state no surface), else any.
  const m = cell.full.n >= 1 && cell.full.n >= cell.rooms.n / 2 ? cell.full : cell.rooms.n >= 1 ? cell.rooms : cell.all;
  if (m.n === 0) return null;
  const r = group.regressions.get(m === cell.full ? 'ls,lb' : m === cell.rooms ? 'lb' : '')!;
  let level = m.sum[Y] / m.n;
  for (const v of [...r.vars, ...ALWAYS]) level -= (r.beta[v] ?? 0) * (m.sum[VARIABLES.indexOf(v)] / m.n);
  return { level, n: m.n };
}
