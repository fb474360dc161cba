/**
 * The valuation's reads: the model's sufficient statistics per cell (one pass over the
 * adverts of the horizon, fitted in the background: see model-store.ts), and a subject's candidate
 * comparables (one indexed read of its quarter, or of its city when the quarter is thin).
 */
import { type Dataset, table } from '../dataset.js';
import { PUBLIC_COLUMNS, type PublicRow } from '../listings/public-row.js';
import { CANDIDATE_LIMIT, horizonStart } from './candidates.js';
import { type CellStats, K, type Moments, TITLE_CODE } from './fit.js';
import { buildModel, type Model } from './model.js';

const YEAR_S = 365.25 * 86_400;
/** [ls, lb, age, fu, lt, y] of each row set, with the condition a row of the set meets. */
const SETS: Array<{ vars: string[]; where: string }> = [
  { vars: ['ls', 'lb', 'age', 'fu', 'lt', 'y'], where: 'ls IS NOT NULL AND lb IS NOT NULL' },
  { vars: ['0', 'lb', 'age', 'fu', 'lt', 'y'], where: 'lb IS NOT NULL' },
  { vars: ['0', '0', 'age', 'fu', 'lt', 'y'], where: 'true' },
];
const TITLE_SQL = `CASE land_title::text ${Object.entries(TITLE_CODE)
  .map(([k, v]) => `WHEN '${k}' THEN ${v}`)
  .join(' ')} ELSE 0 END`;

function momentColumns(): string {
  const cols: string[] = [];
  for (const set of SETS) {
    const f = `FILTER (WHERE ${set.where})`;
    cols.push(`count(*) ${f}`);
    for (let i = 0; i < K; i++) cols.push(`coalesce(sum(${set.vars[i]}) ${f}, 0)`);
    for (let i = 0; i < K; i++) for (let j = i; j < K; j++) cols.push(`coalesce(sum(${set.vars[i]} * ${set.vars[j]}) ${f}, 0)`);
  }
  return cols.map((c, i) => `${c}::float8 AS m${i}`).join(',\n  ');
}
const MOMENT_COLUMNS = momentColumns();

/** The sums of `CellAccumulator`, per cell, by PostgreSQL. */
export async function cellStats(data: Dataset, asOf: Date): Promise<CellStats[]> {
  const { rows } = await data.pool.query<Record<string, unknown>>(
    `WITH r AS (
       SELECT purpose::text AS purpose, type::text AS type, city_key, neighborhood_key,
              CASE WHEN surface > 0 THEN ln(surface) END AS ls, ln(1 + bedrooms) AS lb,
              CASE WHEN furnished THEN 1 ELSE 0 END AS fu, ${TITLE_SQL} AS lt,
              greatest(0, extract(epoch FROM ($1::timestamptz - listed_at)) / ${YEAR_S})::float8 AS age, ln(price)::float8 AS y
       FROM ${table(data, 'listings')}
       WHERE listed_at >= $2 AND listed_at <= $1 AND price > 0)
     SELECT purpose, type, city_key, neighborhood_key,
       ${MOMENT_COLUMNS}
     FROM r GROUP BY purpose, type, city_key, neighborhood_key`,
    [asOf, horizonStart(asOf)],
  );
  return rows.map((r) => {
    let k = 0;
    const next = () => r[`m${k++}`] as number;
    const moments = (): Moments => ({
      n: next(),
      sum: Array.from({ length: K }, next),
      prod: Array.from({ length: (K * (K + 1)) / 2 }, next),
    });
    return {
      purpose: r.purpose as string,
      type: r.type as string,
      cityKey: r.city_key as string,
      quarterKey: r.neighborhood_key as string | null,
      full: moments(),
      rooms: moments(),
      all: moments(),
    };
  });
}

/** The model of a dataset as its adverts stand at `asOf`: one pass of SQL, then the pure fit. */
export async function fitModel(data: Dataset, asOf = new Date()): Promise<Model> {
  return buildModel(await cellStats(data, asOf));
}

export type CandidateRow = PublicRow & { neighborhood_key: string | null; furnished: boolean | null; land_title: string | null };

/** The subject's candidates in its quarter (`quarterKey`) or its whole city (null), most recent first. */
export async function candidateRows(
  data: Dataset,
  where: { cityKey: string; quarterKey: string | null; purpose: string; type: string; excludeId: string | null },
  asOf: Date,
): Promise<CandidateRow[]> {
  const params: unknown[] = [where.cityKey, where.purpose, where.type, horizonStart(asOf), asOf, where.excludeId ?? ''];
  const quarter = where.quarterKey === null ? '' : `AND l.neighborhood_key = $${params.push(where.quarterKey)}`;
  const { rows } = await data.pool.query<CandidateRow>(
    `SELECT ${PUBLIC_COLUMNS}, l.neighborhood_key, l.furnished, l.land_title::text AS land_title
     FROM ${table(data, 'listings')} l
     WHERE l.city_key = $1 ${quarter} AND l.purpose = $2 AND l.type = $3
       AND l.listed_at >= $4 AND l.listed_at <= $5 AND l.price > 0 AND l.id <> $6
     ORDER BY l.listed_at DESC, l.id
     LIMIT ${CANDIDATE_LIMIT}`,
    params,
  );
  return rows;
}
