/**
 * The valuation's reads: the model's sufficient statistics per cell (one pass over the
 * adverts of the horizon, fitted in the background: see model-store.ts), and a subject's candidate
 * comparables (one indexed read of its quarter, or of its city when the quarter is thin).
 */
import { type Dataset, table } from '../listing/dataset.js';
import { PUBLIC_COLUMNS, type PublicRow } from '../listing/public-row.js';
import { CALIBRATION_SAMPLE, calibrate, type Score } from './calibration.js';
import { ageYears, CANDIDATE_LIMIT, horizonStart, MIN_COMPARABLES, NEIGHBORHOOD_MIN } from './candidates.js';
import { OUTLIER_SQL } from './outliers.js';
import { addMoments, type CellStats, emptyCell, K, type Moments, TITLE_CODE } from './fit.js';
import { buildModel, type Candidate, type Method, type Model, poolOf, valueSubject } from './model.js';

const YEAR_S = 365.25 * 86_400;
const TITLE_SQL = `CASE land_title::text ${Object.entries(TITLE_CODE)
  .map(([k, v]) => `WHEN '${k}' THEN ${v}`)
  .join(' ')} ELSE 0 END`;
/** The K values of a row, an unknown surface or bedrooms as 0 (its pattern says which are known). */
const VALUES = ['ls', 'lb', 'age', 'fu', 'lt', 'ba', 'bk', 'y'];

/** count, the K sums and the K(K+1)/2 products, in `Moments` order. */
function momentColumns(): string {
  const cols = ['count(*)', ...VALUES.map((v) => `sum(${v})`)];
  for (let i = 0; i < K; i++) for (let j = i; j < K; j++) cols.push(`sum(${VALUES[i]} * ${VALUES[j]})`);
  return cols.map((c, i) => `${c}::float8 AS m${i}`).join(',\n  ');
}
const MOMENT_COLUMNS = momentColumns();

/**
 * The sums of `CellAccumulator`, per cell, by PostgreSQL, outliers set aside and counted
 * (outliers.ts): one pass, summed per cell and
 * pattern of what is known (surface, bedrooms), 45 plain sums a group; the three row sets
 * of a cell are then added up here from its (at most four) patterns, the unknown
 * regressors' entries left at 0. Only sums per group leave the database, never rows.
 */
export async function cellStats(data: Dataset, asOf: Date): Promise<{ cells: CellStats[]; outliers: number }> {
  const { rows } = await data.pool.query<Record<string, unknown>>(
    `WITH base AS (
       SELECT purpose::text AS purpose, type::text AS type, city_key, neighborhood_key, bedrooms,
              coalesce(surface > 0, false) AS has_ls, bedrooms IS NOT NULL AS has_lb,
              CASE WHEN surface > 0 THEN ln(surface) ELSE 0 END::float8 AS ls, coalesce(ln(1 + bedrooms), 0)::float8 AS lb,
              CASE WHEN furnished THEN 1 ELSE 0 END::float8 AS fu, (${TITLE_SQL})::float8 AS lt,
              CASE WHEN bathrooms > 0 THEN ln(bathrooms) ELSE 0 END::float8 AS ba, CASE WHEN bathrooms > 0 THEN 1 ELSE 0 END::float8 AS bk,
              greatest(0, date_part('epoch', $1::timestamptz - listed_at) / ${YEAR_S})::float8 AS age, ln(price::float8) AS y
       FROM ${table(data, 'listings')}
       WHERE listed_at >= $2 AND listed_at <= $1 AND price > 0),
     ${OUTLIER_SQL}
     SELECT purpose, type, city_key, neighborhood_key, has_ls, has_lb, out,
       ${MOMENT_COLUMNS}
     FROM judged GROUP BY purpose, type, city_key, neighborhood_key, has_ls, has_lb, out`,
    [asOf, horizonStart(asOf)],
  );
  const cells = new Map<string, CellStats>();
  let outliers = 0;
  for (const r of rows) {
    if (r.out === true) {
      outliers += r.m0 as number;
      continue;
    }
    let k = 0;
    const next = () => r[`m${k++}`] as number;
    const m: Moments = { n: next(), sum: Array.from({ length: K }, next), prod: Array.from({ length: (K * (K + 1)) / 2 }, next) };
    const neighborhoodKey = r.neighborhood_key as string | null;
    const key = `${r.purpose as string}|${r.type as string}|${r.city_key as string}|${neighborhoodKey ?? ''}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = emptyCell(r.purpose as string, r.type as string, r.city_key as string, neighborhoodKey);
      cells.set(key, cell);
    }
    if (r.has_ls && r.has_lb) addMoments(cell.full, m, []);
    if (r.has_lb) addMoments(cell.rooms, m, [0]);
    addMoments(cell.all, m, [0, 1]);
  }
  return { cells: [...cells.values()], outliers };
}

/** The model of a dataset as its adverts stand at `asOf`: one pass of SQL, the pure fit, then its ranges calibrated. */
export async function fitModel(data: Dataset, asOf = new Date()): Promise<Model> {
  const { cells, outliers } = await cellStats(data, asOf);
  const model = buildModel(cells, outliers);
  model.calibration = calibrate(await calibrationScores(data, model, asOf));
  return model;
}

/** Adverts valued for the calibration per city, purpose and type (a hash of their id picks them). */
const CALIBRATION_PER_STRATUM = 80;

/**
 * The calibration's scores (calibration.ts): a sample of the horizon's adverts, up to
 * `CALIBRATION_PER_STRATUM` per city, purpose and type and `CALIBRATION_SAMPLE` in all,
 * each valued as the API values a subject (its quarter's candidates, else its city's),
 * never from itself.
 */
async function calibrationScores(data: Dataset, model: Model, asOf: Date): Promise<Score[]> {
  const { rows } = await data.pool.query<CandidateRow & { rn: number }>(
    `SELECT * FROM (
       SELECT ${PUBLIC_COLUMNS}, l.neighborhood_key, l.furnished, l.land_title::text AS land_title,
              row_number() OVER (PARTITION BY l.city_key, l.purpose, l.type ORDER BY md5(l.id)) AS rn
       FROM ${table(data, 'listings')} l
       WHERE l.listed_at >= $1 AND l.listed_at <= $2 AND l.price > 0) s
     WHERE rn <= ${CALIBRATION_PER_STRATUM} ORDER BY md5(id) LIMIT ${CALIBRATION_SAMPLE}`,
    [horizonStart(asOf), asOf],
  );
  const scores: Score[] = [];
  // Each quarter's and city's candidates read once, one more than a subject gets: a subject's
  // own are the first `CANDIDATE_LIMIT` of them that are not itself, as `candidateRows` excluding it reads.
  const pools = new Map<string, Promise<CandidateRow[]>>();
  const candidates = (r: CandidateRow, neighborhoodKey: string | null) => {
    const key = `${r.city_key}|${neighborhoodKey}|${r.purpose}|${r.type}`;
    let rows = pools.get(key);
    if (!rows) {
      rows = candidateRows(
        data,
        { cityKey: r.city_key, neighborhoodKey, purpose: r.purpose, type: r.type, excludeId: null },
        asOf,
        CANDIDATE_LIMIT + 1,
      );
      pools.set(key, rows);
    }
    return rows.then((list) => list.filter((c) => c.id !== r.id).slice(0, CANDIDATE_LIMIT));
  };
  const one = async (r: CandidateRow) => {
    if (!model.groups.has(`${r.purpose}|${r.type}`)) return;
    let method: Method = 'quarter_comparables';
    let pool = r.neighborhood_key === null ? [] : await candidates(r, r.neighborhood_key);
    if (pool.length < NEIGHBORHOOD_MIN) {
      method = 'city_comparables';
      pool = await candidates(r, null);
    }
    if (pool.length < MIN_COMPARABLES) return;
    const v = valueSubject(
      { ...asCandidate(r, asOf), cityKey: r.city_key, type: r.type, purpose: r.purpose },
      pool.map((c) => asCandidate(c, asOf)),
      method,
      model,
      0,
    );
    scores.push({
      method,
      pool: poolOf(r.purpose, r.type),
      cityKey: r.city_key,
      score: Math.abs(Math.log(Number(r.price) / v.price)) / v.rawFsd,
    });
  };
  // One subject at a time: the pool's other users keep their connections (its reads are cached by quarter and city).
  for (const r of rows) await one(r);
  return scores;
}

/** A stored advert as a candidate comparable (its point, else its quarter's). */
export function asCandidate(r: CandidateRow, asOf: Date): Candidate {
  return {
    id: r.id,
    price: Number(r.price),
    surface: r.surface,
    bedrooms: r.bedrooms,
    furnished: r.furnished,
    landTitle: r.land_title,
    bathrooms: r.bathrooms,
    neighborhoodKey: r.neighborhood_key,
    point:
      r.lat !== null && r.lng !== null
        ? { lat: r.lat, lng: r.lng }
        : r.neighborhood_point
          ? { lat: r.neighborhood_point[0], lng: r.neighborhood_point[1] }
          : null,
    ageYears: ageYears(r.listed_at, asOf),
  };
}

export type CandidateRow = PublicRow & { neighborhood_key: string | null; furnished: boolean | null; land_title: string | null };

/** The subject's candidates in its quarter (`neighborhoodKey`) or its whole city (null), most recent first. */
export async function candidateRows(
  data: Dataset,
  where: { cityKey: string; neighborhoodKey: string | null; purpose: string; type: string; excludeId: string | null },
  asOf: Date,
  limit = CANDIDATE_LIMIT,
): Promise<CandidateRow[]> {
  const params: unknown[] = [where.cityKey, where.purpose, where.type, horizonStart(asOf), asOf, where.excludeId ?? ''];
  const neighborhood = where.neighborhoodKey === null ? '' : `AND l.neighborhood_key = $${params.push(where.neighborhoodKey)}`;
  const { rows } = await data.pool.query<CandidateRow>(
    `SELECT ${PUBLIC_COLUMNS}, l.neighborhood_key, l.furnished, l.land_title::text AS land_title
     FROM ${table(data, 'listings')} l
     WHERE l.city_key = $1 ${neighborhood} AND l.purpose = $2 AND l.type = $3
       AND l.listed_at >= $4 AND l.listed_at <= $5 AND l.price > 0 AND l.id <> $6
     ORDER BY l.listed_at DESC, l.id
     LIMIT ${limit}`,
    params,
  );
  return rows;
}
