/**
 * The bulk export: every listing matching the search's filters, as NDJSON (one Listing per
 * line, built by the database exactly as a search page maps it: see `listingJsonSql`), in
 * `id` order so that `after` resumes a broken export with no line lost or repeated.
 *
 * One `COPY ... TO STDOUT` streams the lines as the database writes them, straight to the
 * client: the server neither parses nor re-encodes a row, and the export reads one
 * consistent snapshot. It is written only as fast as the client reads (backpressure), so
 * memory stays flat whatever the size. Exports take connections from a small pool of
 * their own: a burst of exports never starves the API's queries.
 *
 * Charging is the caller's: `blocks.start(k)` is called before the chunk that holds the
 * first line of block k (blocks of EXPORT_LINES_PER_CALL lines), and the export stops,
 * the connection cut, when it answers false (the quota is used up).
 */
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { EXPORT_LINES_PER_CALL, type TExportQueryParsed } from '../../../contract/schemas.js';
import { type Dataset, table } from '../dataset.js';
import { type EffectiveFilters, listingFilterSql } from './filters.js';
import { listingJsonSql } from './public-row.js';

export interface ExportBlocks {
  /** Before block `index` (0, 1, 2...) is written; false stops the export. */
  start(index: number): Promise<boolean>;
}

export interface ExportResult {
  lines: number;
  /** False when the export stopped early (the client left, or `blocks.start` said no). */
  complete: boolean;
}

const NEWLINE = 0x0a;

/** COPY takes no bind parameters: each one inlined as a literal, quoted by the driver. */
function inline(sql: string, params: unknown[], client: pg.PoolClient): string {
  return sql.replace(/\$(\d+)\b/g, (_, n: string) => {
    const value = params[Number(n) - 1];
    if (typeof value === 'number' || typeof value === 'bigint') {
      if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('non-finite export parameter');
      return String(value);
    }
    if (value instanceof Date) return `${client.escapeLiteral(value.toISOString())}::timestamptz`;
    // A list of enum values (`purpose=sale,rent`): an array literal, cast by the condition.
    if (Array.isArray(value)) return client.escapeLiteral(`{${value.map((v) => `"${String(v).replace(/["\\]/g, '')}"`).join(',')}}`);
    return client.escapeLiteral(String(value));
  });
}

function countLines(chunk: Buffer): number {
  let n = 0;
  for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1)) n++;
  return n;
}

/** Waits for the client to read what was written: true when it did, false if it left. */
function drainWaiter(res: ServerResponse): () => Promise<boolean> {
  // One listener of each kind for the whole stream: a compressing response would not let a
  // listener be removed, and thousands of waits would pile them up.
  let waiting: ((ok: boolean) => void) | null = null;
  let gone = false;
  res.on('drain', () => waiting?.(true));
  res.on('close', () => {
    gone = true;
    waiting?.(false);
  });
  return () =>
    gone
      ? Promise.resolve(false)
      : new Promise<boolean>((resolve) => {
          waiting = (ok) => {
            waiting = null;
            resolve(ok);
          };
        });
}

/** Streams the listings that match `effective`, the query's filters as `effectiveFilters` works them out. */
export async function streamListings(
  pool: pg.Pool,
  data: Dataset,
  q: TExportQueryParsed,
  effective: EffectiveFilters,
  res: ServerResponse,
  blocks: ExportBlocks,
): Promise<ExportResult> {
  const filters = listingFilterSql(effective, 'l');
  if (q.after !== undefined) filters.add(`l.id > ${filters.param(q.after)}`);
  const select = `SELECT ${listingJsonSql(q.currency)} FROM ${table(data, 'listings')} l ${filters.where()} ORDER BY l.id`;

  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // CSV with a delimiter and a quote no JSON text holds: every field goes out as it is.
    const copy = client.query(
      copyTo(`COPY (${inline(select, filters.params, client)}) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`),
    );
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    const drained = drainWaiter(res);
    let lines = 0;
    let started = 0;
    for await (const chunk of copy as AsyncIterable<Buffer>) {
      const count = countLines(chunk);
      // Every block whose first line is in this chunk is started before it goes out.
      while (started * EXPORT_LINES_PER_CALL < lines + Math.max(count, 1)) {
        if (!(await blocks.start(started))) {
          broken = new Error('quota used up');
          copy.destroy();
          return { lines, complete: false };
        }
        started++;
      }
      if (res.destroyed || (!res.write(chunk) && !(await drained()))) {
        broken = new Error('client gone');
        copy.destroy();
        return { lines, complete: false };
      }
      lines += count;
    }
    res.end();
    return { lines, complete: true };
  } catch (err) {
    broken = err as Error;
    throw err;
  } finally {
    // A connection left in the middle of a COPY is of no further use: discard it.
    client.release(broken);
  }
}
