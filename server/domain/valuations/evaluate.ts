/**
 * How good the valuations are, measured: a share of the adverts (chosen by a hash of the
 * seed and their id, so the same seed holds out the same rows) is held out; the model is
 * fitted on the rest and each held-out advert is valued from the rest only, at the date it
 * was listed; its asking price is the truth. The same rows are priced by two baselines: the
 * quarter's median for the same purpose (what `/market/stats` shows per neighbourhood), and
 * the quarter's median for the same purpose, type and bedrooms (each falling back to the
 * city's median when the quarter has none). Optionally a third row: a model knowing the
 * generator's exact formula (the noise floor, on generated data). The ranges are calibrated
 * on the training rows only (calibration.ts: each valued from the other training rows), so
 * the held-out rows measure their coverage honestly.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { ageYears, CANDIDATE_LIMIT, horizonStart, MIN_COMPARABLES, NEIGHBORHOOD_MIN } from './candidates.js';
import { CellAccumulator, featuresOf } from './fit.js';
import { keptForFit } from './outliers.js';
import { CALIBRATION_SAMPLE, calibrate } from './calibration.js';
import { buildModel, type Candidate, type Method, type Point, poolOf, valueSubject } from './model.js';

export interface EvalRow {
  id: string;
  /** The feed it came from (the generator's rows have a known formula). */
  source: string;
  city: string;
  cityKey: string;
  neighborhood: string | null;
  neighborhoodKey: string | null;
  purpose: string;
  type: string;
  price: number;
  surface: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  furnished: boolean | null;
  landTitle: string | null;
  listedAt: number;
  point: Point | null;
}

export async function loadEvalRows(pool: pg.Pool, asOf: Date): Promise<EvalRow[]> {
  const { rows } = await pool.query<{
    id: string;
    source: string;
    city: string;
    city_key: string;
    neighborhood: string | null;
    neighborhood_key: string | null;
    purpose: string;
    type: string;
    price: string;
    surface: number | null;
    bedrooms: number | null;
    bathrooms: number | null;
    furnished: boolean | null;
    land_title: string | null;
    listed_at: Date;
    lat: number | null;
    lng: number | null;
  }>(
    `SELECT l.id, l.source, l.city, l.city_key, l.neighborhood, l.neighborhood_key, l.purpose, l.type, l.price, l.surface, l.bedrooms, l.bathrooms, l.furnished, l.land_title::text, l.listed_at,
            coalesce(l.lat, q.lat) AS lat, coalesce(l.lng, q.lng) AS lng
     FROM listings l LEFT JOIN neighborhoods q ON q.city_key = l.city_key AND q.name = l.neighborhood
     WHERE l.listed_at >= $1 AND l.listed_at <= $2 AND l.price > 0`,
    [horizonStart(asOf), asOf],
  );
  return rows.map((r) => ({
    id: r.id,
    source: r.source,
    city: r.city,
    cityKey: r.city_key,
    neighborhood: r.neighborhood,
    neighborhoodKey: r.neighborhood_key,
    purpose: r.purpose,
    type: r.type,
    price: Number(r.price),
    surface: r.surface,
    bedrooms: r.bedrooms,
    bathrooms: r.bathrooms,
    furnished: r.furnished,
    landTitle: r.land_title,
    listedAt: r.listed_at.getTime(),
    point: r.lat !== null && r.lng !== null ? { lat: r.lat, lng: r.lng } : null,
  }));
}

/** Whether a row is held out: a hash of the seed and its id, below the share. */
export function heldOut(id: string, seed: number, share: number): boolean {
  const h = createHash('sha256').update(`${seed}:${id}`).digest();
  return h.readUInt32BE(0) / 2 ** 32 < share;
}

export interface Prediction {
  row: EvalRow;
  estimate: number | null;
  low: number | null;
  high: number | null;
  method: Method | null;
  confidence: 'high' | 'medium' | 'low' | null;
  /** The calibrated forecast standard deviation of the estimate. */
  fsd: number | null;
  /** Rule 1: the city's median for the same purpose. */
  cityMedian: number;
  /** Rule 2: the quarter's median for the same purpose (else the city's). */
  neighborhoodMedian: number;
  /** The quarter's median for the same purpose, type and bedrooms (else the city's). */
  roomsMedian: number;
  /** Rule 3: the quarter's median for the same purpose, bedrooms and furnishing (else the quarter's, else the city's). */
  termsMedian: number;
  exact: number | null;
  /** Training adverts set aside from the fit this row was valued by (outliers.ts). */
  outliersInFit: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Medians of training prices by a chain of keys: the first key the training rows have answers. */
function medians(train: EvalRow[], ...keys: Array<(r: EvalRow) => string>) {
  const by = new Map<string, number[]>();
  const chain = [...keys, (r: EvalRow) => `${r.cityKey}|${r.purpose}`];
  for (const r of train) {
    for (const key of chain) {
      const k = key(r);
      const list = by.get(k);
      if (list) list.push(r.price);
      else by.set(k, [r.price]);
    }
  }
  const m = new Map([...by].map(([k, v]) => [k, median(v)]));
  return (r: EvalRow) => {
    for (const key of chain) {
      const v = m.get(key(r));
      if (v !== undefined) return v;
    }
    return NaN;
  };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export interface EvalOptions {
  seed: number;
  /** Share of the rows held out (0 to 1). */
  share: number;
  asOf: Date;
  /** The generator's noise-free price of a row, when the data is generated and the formula known. */
  exactPrice?: (row: EvalRow) => number | null;
}

export function evaluate(rows: EvalRow[], opts: EvalOptions): Prediction[] {
  const test: EvalRow[] = [];
  const train: EvalRow[] = [];
  for (const r of rows) (heldOut(r.id, opts.seed, opts.share) ? test : train).push(r);
  return predict(train, test, opts);
}

/** The fold (0 to folds - 1) of a row: a hash of the seed and its id, so a stored advert (repeats folded) is in one fold only. */
export function foldOf(id: string, seed: number, folds: number): number {
  const h = createHash('sha256').update(`${seed}:${id}`).digest();
  return h.readUInt32BE(0) % folds;
}

/** K-fold cross-validation: every row valued once, from the rows of the other folds. */
export function crossValidate(rows: EvalRow[], opts: Omit<EvalOptions, 'share'> & { folds: number }): Prediction[] {
  const byFold = Array.from({ length: opts.folds }, () => [] as EvalRow[]);
  for (const r of rows) byFold[foldOf(r.id, opts.seed, opts.folds)].push(r);
  return byFold.flatMap((test, k) => predict(byFold.filter((_, j) => j !== k).flat(), test, opts));
}

/** Each of `test` valued from `train` only, by the model and by the simple rules. */
export function predict(train: EvalRow[], test: EvalRow[], opts: Omit<EvalOptions, 'share'>): Prediction[] {
  const asOfMs = opts.asOf.getTime();
  const cells = new CellAccumulator();
  const fit = keptForFit(train);
  for (const r of fit.kept) {
    cells.add(r.purpose, r.type, r.cityKey, r.neighborhoodKey, featuresOf({ ...r, ageYears: ageYears(r.listedAt, asOfMs) }));
  }
  const model = buildModel([...cells.cells.values()], fit.rejected);
  // Candidates as the SQL orders them: most recent first, then by id.
  const sorted = [...train].sort((a, b) => b.listedAt - a.listedAt || (a.id < b.id ? -1 : 1));
  const byNeighborhood = new Map<string, EvalRow[]>();
  const byCity = new Map<string, EvalRow[]>();
  for (const r of sorted) {
    const qk = `${r.cityKey}|${r.neighborhoodKey}|${r.purpose}|${r.type}`;
    const ck = `${r.cityKey}|${r.purpose}|${r.type}`;
    if (r.neighborhoodKey !== null) push(byNeighborhood, qk, r);
    push(byCity, ck, r);
  }
  const neighborhood = (r: EvalRow) => `${r.cityKey}|${r.neighborhoodKey}|${r.purpose}`;
  const cityMedian = medians(train);
  const neighborhoodMedian = medians(train, neighborhood);
  const roomsMedian = medians(train, (r) => `${r.cityKey}|${r.neighborhoodKey}|${r.purpose}|${r.type}|${r.bedrooms}`);
  const termsMedian = medians(train, (r) => `${neighborhood(r)}|${r.bedrooms}|${r.furnished === true}`, neighborhood);
  const asCandidate = (r: EvalRow): Candidate => ({
    id: r.id,
    price: r.price,
    surface: r.surface,
    bedrooms: r.bedrooms,
    bathrooms: r.bathrooms,
    furnished: r.furnished,
    landTitle: r.landTitle,
    neighborhoodKey: r.neighborhoodKey,
    point: r.point,
    ageYears: ageYears(r.listedAt, asOfMs),
  });
  /** A row valued from the training rows (never from itself), or null when too few comparables. */
  const valueRow = (r: EvalRow) => {
    const own = (list: EvalRow[] | undefined) => (list ?? []).filter((c) => c.id !== r.id).slice(0, CANDIDATE_LIMIT);
    let method: Method | null = null;
    let pool = r.neighborhoodKey === null ? [] : own(byNeighborhood.get(`${r.cityKey}|${r.neighborhoodKey}|${r.purpose}|${r.type}`));
    if (pool.length >= NEIGHBORHOOD_MIN) method = 'quarter_comparables';
    else {
      pool = own(byCity.get(`${r.cityKey}|${r.purpose}|${r.type}`));
      if (pool.length >= MIN_COMPARABLES) method = 'city_comparables';
    }
    if (method === null || !model.groups.has(`${r.purpose}|${r.type}`)) return null;
    return valueSubject(
      {
        cityKey: r.cityKey,
        neighborhoodKey: r.neighborhoodKey,
        point: r.point,
        type: r.type,
        purpose: r.purpose,
        surface: r.surface,
        bedrooms: r.bedrooms,
        furnished: r.furnished,
        landTitle: r.landTitle,
        bathrooms: r.bathrooms,
        ageYears: ageYears(r.listedAt, asOfMs),
      },
      pool.map(asCandidate),
      method,
      model,
      0,
    );
  };
  // The ranges calibrated on the training rows only, each valued from the others (calibration.ts).
  const sample =
    train.length <= CALIBRATION_SAMPLE ? train : train.filter((r) => heldOut(r.id, opts.seed + 1, CALIBRATION_SAMPLE / train.length));
  model.calibration = calibrate(
    sample.flatMap((r) => {
      const v = valueRow(r);
      return v
        ? [
            {
              method: v.method,
              pool: poolOf(r.purpose, r.type),
              cityKey: r.cityKey,
              score: Math.abs(Math.log(r.price / v.price)) / v.rawFsd,
            },
          ]
        : [];
    }),
  );
  return test.map((r) => {
    const base = {
      row: r,
      cityMedian: cityMedian(r),
      neighborhoodMedian: neighborhoodMedian(r),
      roomsMedian: roomsMedian(r),
      termsMedian: termsMedian(r),
      exact: opts.exactPrice?.(r) ?? null,
      outliersInFit: fit.rejected,
    };
    const v = valueRow(r);
    if (v === null) return { ...base, estimate: null, low: null, high: null, method: null, confidence: null, fsd: null };
    return { ...base, estimate: v.price, low: v.low, high: v.high, method: v.method, confidence: v.confidence, fsd: v.fsd };
  });
}

export interface Figures {
  rows: number;
  valued: number;
  mdape: number;
  pe10: number;
  pe20: number;
  coverage: number;
  cityMdape: number;
  neighborhoodMdape: number;
  roomsMdape: number;
  termsMdape: number;
  exactMdape: number | null;
}

/** The figures of a set of predictions, on the rows the model valued (baselines on the same rows). */
export function figures(preds: Prediction[]): Figures {
  const valued = preds.filter((p) => p.estimate !== null);
  const ape = (est: number, p: Prediction) => Math.abs(est - p.row.price) / p.row.price;
  const model = valued.map((p) => ape(p.estimate!, p));
  const exact = valued.filter((p) => p.exact !== null).map((p) => ape(p.exact!, p));
  const share = (f: (p: Prediction, i: number) => boolean) => (valued.length ? valued.filter(f).length / valued.length : NaN);
  return {
    rows: preds.length,
    valued: valued.length,
    mdape: valued.length ? median(model) : NaN,
    pe10: share((_, i) => model[i] <= 0.1),
    pe20: share((_, i) => model[i] <= 0.2),
    coverage: share((p) => p.row.price >= p.low! && p.row.price <= p.high!),
    cityMdape: valued.length ? median(valued.map((p) => ape(p.cityMedian, p))) : NaN,
    neighborhoodMdape: valued.length ? median(valued.map((p) => ape(p.neighborhoodMedian, p))) : NaN,
    roomsMdape: valued.length ? median(valued.map((p) => ape(p.roomsMedian, p))) : NaN,
    termsMdape: valued.length ? median(valued.map((p) => ape(p.termsMedian, p))) : NaN,
    exactMdape: exact.length ? median(exact) : null,
  };
}
