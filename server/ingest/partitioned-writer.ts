/**
 * Sends validated rows to the database in batches, several batches at once, with memory
 * bounded to two batches per partition. Rows are spread over partitions by a hash of
 * their source_ref, and each partition writes its batches one after another: the same
 * listing always goes through the same partition in file order, so when a feed repeats
 * a reference the later line wins, and two concurrent statements never touch the same
 * row (no lock waits, no deadlocks).
 */
import { ListingBatch } from './columns.js';
import type { StoredRecord } from './record.js';
import { type BatchResult, type Queryable, upsertBatch } from './upsert.js';

interface Partition {
  batch: ListingBatch;
  /** The batch's references, with the line of the row that brought each. */
  refs: Map<string, number>;
  /** The partition's batch being written, if any; never rejects (failures are kept aside). */
  writing: Promise<void>;
}

export interface WriterOptions {
  /** The pool, or the one client of a bulk load (then use a single partition). */
  db: Queryable;
  source: string;
  now: Date;
  partitions: number;
  batchRows: number;
  /** Whether a new reference repeating an active listing of the source is folded (upsert.ts). */
  foldRepeats?: boolean;
  /** Called after each batch is written, with the references it held and their lines. */
  onBatch?: (result: BatchResult, refs: ReadonlyMap<string, number>) => Promise<void> | void;
}

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class PartitionedWriter {
  private readonly parts: Partition[];
  private readonly nowIso: string;
  private failure: { error: unknown } | null = null;

  constructor(private readonly opts: WriterOptions) {
    this.nowIso = opts.now.toISOString();
    this.parts = Array.from({ length: Math.max(1, opts.partitions) }, () => ({
      batch: new ListingBatch(opts.source),
      refs: new Map<string, number>(),
      writing: Promise.resolve(),
    }));
  }

  /** Returns a promise only when a batch had to be sent (await it: that is the backpressure). */
  add(record: StoredRecord, line = 0, fingerprint?: string): Promise<void> | undefined {
    const part = this.parts[hash(record.source_ref) % this.parts.length];
    // One statement cannot upsert the same row twice: a repeated reference starts a new batch.
    if (part.refs.has(record.source_ref)) return this.flush(part).then(() => this.add(record, line, fingerprint));
    // The importer stamps its own time: updated_at is when Mboa's copy changed.
    part.batch.push(record, this.nowIso, fingerprint);
    part.refs.set(record.source_ref, line);
    return part.batch.size >= this.opts.batchRows ? this.flush(part) : undefined;
  }

  /** Writes what is left and waits for every batch; rethrows the first failure. */
  async finish(): Promise<void> {
    for (const part of this.parts) await this.flush(part);
    await Promise.all(this.parts.map((p) => p.writing));
    this.throwIfFailed();
  }

  /** Waits for batches already sent, after a failure elsewhere, without writing more. */
  async settle(): Promise<void> {
    await Promise.all(this.parts.map((p) => p.writing));
  }

  private async flush(part: Partition): Promise<void> {
    if (part.batch.size === 0) return;
    const { batch, refs } = part;
    part.batch = new ListingBatch(this.opts.source);
    part.refs = new Map();
    await part.writing;
    this.throwIfFailed();
    part.writing = this.write(batch, refs).catch((error) => {
      this.failure ??= { error };
    });
  }

  private async write(batch: ListingBatch, refs: Map<string, number>): Promise<void> {
    const result = await upsertBatch(this.opts.db, this.opts.source, batch, this.opts.now, this.opts.foldRepeats ?? false);
    await this.opts.onBatch?.(result, refs);
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
