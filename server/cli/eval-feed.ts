/**
 * A feed imported for `valuations evaluate --feed`, apart from the live data: a scratch
 * schema holding its own copies of the tables an import writes (created empty, `LIKE` the
 * live ones), the importer run on a pool whose search path puts that schema first (the
 * gazetteer's quarters and aliases are read from `public`), the rows read back as the
 * evaluation reads the live ones, then the schema dropped. Repeats are folded by the
 * importer, so each stored row is one distinct advert. The import reads a copy of the file
 * in a temporary folder, so its report is written there, never beside the feed.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pg from 'pg';
import { type EvalRow, loadEvalRows } from '../domain/valuations/evaluate.js';
import type { ColumnMap } from '../ingest/column-map.js';
import type { FeedFormat } from '../ingest/feed-reader.js';
import { type ImportResult, importFile } from '../ingest/import.js';

/** The scratch schema: one name, dropped before and after each run. */
export const EVAL_SCHEMA = 'valuation_eval';
const TABLES = ['listings', 'price_history', 'market_stats', 'market_trends', 'market_history', 'market_history_dirty', 'places'];

export interface FeedRows {
  rows: EvalRow[];
  import: ImportResult;
}

export async function loadFeedRows(
  url: string,
  opts: { file: string; format: FeedFormat; columns?: ColumnMap; asOf: Date },
): Promise<FeedRows> {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'mboa-eval-'));
  const file = join(dir, basename(opts.file));
  copyFileSync(opts.file, file);
  const scratch = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${EVAL_SCHEMA},public` });
  try {
    await admin.query(`DROP SCHEMA IF EXISTS ${EVAL_SCHEMA} CASCADE`);
    await admin.query(`CREATE SCHEMA ${EVAL_SCHEMA}`);
    for (const t of TABLES) await admin.query(`CREATE TABLE ${EVAL_SCHEMA}.${t} (LIKE public.${t} INCLUDING ALL)`);
    // Each row's searchable point, as on the live table (the importer leaves it to the database).
    await admin.query(
      `CREATE TRIGGER listings_geo_insert BEFORE INSERT ON ${EVAL_SCHEMA}.listings FOR EACH ROW EXECUTE FUNCTION public.listing_geo_point()`,
    );
    const result = await importFile(scratch, {
      file,
      format: opts.format,
      source: 'evaluation',
      columns: opts.columns,
      now: opts.asOf,
      bulk: 'never',
    });
    const rows = await loadEvalRows(scratch, new Date(opts.asOf.getTime() + 1000));
    return { rows, import: result };
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${EVAL_SCHEMA} CASCADE`).catch(() => undefined);
    await scratch.end();
    await admin.end();
    rmSync(dir, { recursive: true, force: true });
  }
}
