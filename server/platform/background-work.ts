/**
 * Work an answer leaves behind (usage counts written, reservations given back), tracked so
 * that a shutdown can wait for it before the database pool closes.
 */
/** Promises of work done after an answer (usage writes), awaited before the pool closes. */
export class BackgroundWork {
  private readonly pending = new Set<Promise<unknown>>();

  track<T>(promise: Promise<T>): Promise<T> {
    this.pending.add(promise);
    const forget = () => this.pending.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
