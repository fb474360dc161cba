/**
 * `import --full`: the file is the whole feed, so listings of its source that it no
 * longer carries have left the market. They are marked withdrawn (removed_at and
 * updated_at set to the import time), never deleted: customers syncing with
 * `updated_after` must see them go, and their history stays queryable.
 *
 * The references seen are collected in a temporary table on one dedicated connection,
 * not in memory, so a feed of millions of rows keeps memory bounded.
 */
import type pg from 'pg';
import { textArray } from './pg-array.js';

const FLUSH_EVERY = 10_000;

export class SeenReferences {
  private buffer: string[] = [];
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly client: pg.PoolClient,
    /** Whether this object took the client from the pool (and gives it back). */
    private readonly owned: boolean,
  ) {}

  /**
   * On a connection of its own, or on the given one: a bulk load must use its own
   * transaction's client, since the table it withdraws from is locked by it.
   */
  static async open(pool: pg.Pool, client?: pg.PoolClient): Promise<SeenReferences> {
    const c = client ?? (await pool.connect());
    try {
      await c.query('CREATE TEMP TABLE IF NOT EXISTS import_seen (source_ref text NOT NULL)');
      await c.query('TRUNCATE import_seen');
    } catch (err) {
      if (!client) c.release();
      throw err;
    }
    return new SeenReferences(c, !client);
  }

  /** Returns a promise only when the buffer was sent. */
  add(refs: readonly string[]): Promise<unknown> | undefined {
    // A reference no listing can have (too long, or holding NUL) is none of the source's.
    for (const r of refs) if (r.length <= 200 && !r.includes('\u0000')) this.buffer.push(r);
    return this.buffer.length >= FLUSH_EVERY ? this.flush() : undefined;
  }

  private flush(): Promise<unknown> {
    if (this.buffer.length === 0) return this.chain;
    const refs = textArray(this.buffer);
    this.buffer = [];
    this.chain = this.chain.then(() => this.client.query('INSERT INTO import_seen SELECT unnest($1::text[])', [refs]));
    return this.chain;
  }

  /** The source's active listings, and how many of them were not seen (those --full would withdraw). */
  async unseenShare(source: string): Promise<{ active: number; unseen: number }> {
    await this.flush();
    await this.client.query('ANALYZE import_seen');
    const { rows } = await this.client.query<{ active: number; unseen: number }>(
      `SELECT count(*)::int AS active,
              count(*) FILTER (WHERE NOT EXISTS (SELECT 1 FROM import_seen s WHERE s.source_ref = l.source_ref))::int AS unseen
       FROM listings l WHERE l.source = $1 AND l.status = 'active'`,
      [source],
    );
    return rows[0];
  }

  /** Withdraws the source's active listings that were not seen; returns how many. */
  async withdrawUnseen(source: string, now: Date): Promise<number> {
    await this.flush();
    await this.client.query('ANALYZE import_seen');
    const { rowCount } = await this.client.query(
      `UPDATE listings l SET status = 'withdrawn', removed_at = $2, updated_at = $2
       WHERE l.source = $1 AND l.status = 'active'
         AND NOT EXISTS (SELECT 1 FROM import_seen s WHERE s.source_ref = l.source_ref)`,
      [source, now],
    );
    return rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.chain.catch(() => {});
    try {
      await this.client.query('DROP TABLE IF EXISTS import_seen');
      if (this.owned) this.client.release();
    } catch (err) {
      if (this.owned) this.client.release(err as Error);
      else throw err;
    }
  }
}

/** `--full` withdraws at most this share of the source's active listings (unless forced)... */
export const MAX_WITHDRAWN_SHARE = 0.25;
/** ...once it would withdraw more than this many (a small source may lose a few at once). */
export const WITHDRAWALS_ALWAYS_ALLOWED = 10;

/**
 * Why `--full` must withdraw nothing, or null: a record of the file could not be read
 * (its reference, so its listing, is unknown), or the file lacks more than
 * MAX_WITHDRAWN_SHARE of the source's active listings (a truncated or wrong file).
 * `--force-full` overrides both; the report says it did.
 */
export function withdrawalGuard(
  unreadable: number,
  firstUnreadableLine: number | undefined,
  share: { active: number; unseen: number },
): string | null {
  if (unreadable > 0) {
    return `${unreadable} record(s) of the file could not be read (the first on line ${firstUnreadableLine}): the listings they hold are unknown, so none is withdrawn`;
  }
  const { active, unseen } = share;
  if (unseen > WITHDRAWALS_ALWAYS_ALLOWED && unseen > active * MAX_WITHDRAWN_SHARE) {
    const pct = Math.round((1000 * unseen) / active) / 10;
    return `the file lacks ${unseen} of the source's ${active} active listings (${pct} %), more than ${MAX_WITHDRAWN_SHARE * 100} %: a truncated or wrong file?`;
  }
  return null;
}
