/**
 * Runs asynchronous batch writes with at most `max` of them at once, so a loader keeps
 * several database connections busy while memory stays bounded to `max` batches. The
 * first failure stops new work and is rethrown by `add()` or `drain()`.
 */
export class InFlight {
  private readonly running = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;

  constructor(private readonly max: number) {}

  /** Waits for a free slot, then starts `task` without waiting for it. */
  async add(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.max && !this.failure) await Promise.race(this.running);
    this.throwIfFailed();
    const p: Promise<void> = task()
      .catch((error) => {
        this.failure ??= { error };
      })
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Waits for every started task; rethrows the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.running);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}
