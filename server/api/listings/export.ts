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
 * the connection cut, when it answers false (the quota is used up). It stops too when the
 * client reads nothing for `idleMs`, or keeps too slow a pace: in every `pace.windowMs` the
 * export spends waiting on the client, the client must take `pace.minBytes` (counted as the
 * server's buffers empty, before compression). A paused or trickling client does not hold
 * a connection forever; a slow but steady one (a few kB/s) keeps it.
 */
import type { ServerResponse } from 'node:http';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { EXPORT_LINES_PER_CALL, type TExportQueryParsed } from '../../../contract/schemas.js';
import { type Dataset, table } from '../../domain/listing/dataset.js';
import { type EffectiveFilters, listingFilterSql } from '../../domain/listing/filters.js';
import { distanceSql } from '../../domain/listing/geo.js';
import { listingJsonSql } from '../../domain/listing/public-row.js';

export interface ExportBlocks {
  /** Before block `index` (0, 1, 2...) is written; false stops the export. */
  start(index: number): Promise<boolean>;
}

/** The slowest reader an export waits for. */
export interface ExportPace {
  windowMs: number;
  minBytes: number;
}

export interface ExportResult {
  lines: number;
  /** False when the export stopped early (the client left or read nothing, or `blocks.start` said no). */
  complete: boolean;
  /** Why it stopped early. */
  stopped?: 'quota used up' | 'client gone' | 'client idle' | 'client too slow';
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

/**
 * Waits for the client to read what was written: 'read' when it did, 'gone' if it left,
 * 'timeout' when `ms` passed first.
 */
function drainWaiter(res: ServerResponse): (ms: number) => Promise<'read' | 'gone' | 'timeout'> {
  // One listener of each kind for the whole stream: a compressing response would not let a
  // listener be removed, and thousands of waits would pile them up.
  let waiting: ((outcome: 'read' | 'gone' | 'timeout') => void) | null = null;
  let gone = false;
  res.on('drain', () => waiting?.('read'));
  res.on('close', () => {
    gone = true;
    waiting?.('gone');
  });
  return (ms) =>
    gone
      ? Promise.resolve('gone')
      : new Promise((resolve) => {
          const timer = setTimeout(() => waiting?.('timeout'), ms);
          waiting = (outcome) => {
            clearTimeout(timer);
            waiting = null;
            resolve(outcome);
          };
        });
}

/**
 * The client's pace: the time the export waited on it and the bytes it took since the
 * last check; each `windowMs` of waiting, it must have taken `minBytes`.
 */
class PaceWatch {
  private waitedMs = 0;
  private takenSinceCheck = 0;
  constructor(private readonly pace: ExportPace) {}

  /** How long the next wait may last before a check is due. */
  get untilCheckMs(): number {
    return Math.max(1, this.pace.windowMs - this.waitedMs);
  }

  taken(bytes: number): void {
    this.takenSinceCheck += bytes;
  }

  /** Adds a wait; false when a window of waiting ended with too little taken. */
  waited(ms: number): boolean {
    this.waitedMs += ms;
    if (this.waitedMs < this.pace.windowMs) return true;
    const kept = this.takenSinceCheck >= this.pace.minBytes;
    this.waitedMs = 0;
    this.takenSinceCheck = 0;
    return kept;
  }
}

/**
 * Waits until the client took what was written (`written` bytes not yet taken): 'read',
 * or why the export stops ('gone', idle for `idleMs`, or too slow for `pace`).
 */
async function awaitClient(
  drained: ReturnType<typeof drainWaiter>,
  watch: PaceWatch,
  written: number,
  idleMs: number,
): Promise<'read' | 'client gone' | 'client idle' | 'client too slow'> {
  let idle = 0;
  for (;;) {
    const wait = Math.min(watch.untilCheckMs, idleMs - idle);
    const since = Date.now();
    const outcome = await drained(wait);
    const ms = Date.now() - since;
    if (outcome === 'gone') return 'client gone';
    if (outcome === 'read') watch.taken(written);
    if (!watch.waited(ms)) return 'client too slow';
    if (outcome === 'read') return 'read';
    idle += ms;
    if (idle >= idleMs) return 'client idle';
  }
}

/** Streams the listings that match `effective`, the query's filters as `effectiveFilters` works them out. */
export async function streamListings(
  pool: pg.Pool,
  data: Dataset,
  q: TExportQueryParsed,
  effective: EffectiveFilters,
  res: ServerResponse,
  blocks: ExportBlocks,
  limits: { idleMs: number; pace: ExportPace },
): Promise<ExportResult> {
  const filters = listingFilterSql(effective, 'l');
  if (q.after !== undefined) filters.add(`l.id > ${filters.param(q.after)}`);
  // With `near`, each line ends with `distance_m`, rounded by the database as the search's is.
  const distance = distanceSql(effective, filters);
  const json = listingJsonSql(q.currency);
  const line = distance ? `left(${json}, -1) || ',"distance_m":' || round(${distance})::int || '}'` : json;
  const select = `SELECT ${line} FROM ${table(data, 'listings')} l ${filters.where()} ORDER BY l.id`;

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
    const watch = new PaceWatch(limits.pace);
    /** Bytes written since the client last took everything. */
    let pending = 0;
    let lines = 0;
    let started = 0;
    const stop = (why: NonNullable<ExportResult['stopped']>): ExportResult => {
      broken = new Error(why);
      copy.destroy();
      return { lines, complete: false, stopped: why };
    };
    for await (const chunk of copy as AsyncIterable<Buffer>) {
      // Cut meanwhile (its key revoked, the client gone): no block starts, nothing more is written.
      if (res.destroyed) return stop('client gone');
      const count = countLines(chunk);
      // Every block whose first line is in this chunk is started before it goes out.
      while (started * EXPORT_LINES_PER_CALL < lines + Math.max(count, 1)) {
        if (!(await blocks.start(started))) return stop('quota used up');
        started++;
      }
      if (res.destroyed) return stop('client gone');
      pending += chunk.length;
      if (res.write(chunk)) {
        watch.taken(pending);
        pending = 0;
      } else {
        const outcome = await awaitClient(drained, watch, pending, limits.idleMs);
        if (outcome !== 'read') return stop(outcome);
        pending = 0;
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
