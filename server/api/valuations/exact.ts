/** The generator's exact (noise-free) price of a row, when the loaded data is generated: the floor any model meets. */
import type pg from 'pg';
import type { EvalRow } from './evaluate.js';

export async function exactPriceOf(_pool: pg.Pool): Promise<((row: EvalRow) => number | null) | null> {
  return null;
}
