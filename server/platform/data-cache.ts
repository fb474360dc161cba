/**
 * Answers that depend only on the listings and market tables, which change only through
 * data loads and market refreshes: exact search totals per filter set, market figures per
 * query. Kept until the change feed says the data changed (every instance hears it), and
 * bypassed while the feed is not live, so an answer is never older than the data it
 * reflects. Concurrent misses of one key share one load.
 */
import type { ChangeFeed } from './change-feed.js';

export class DataCache<V> {
  private readonly entries = new Map<string, V>();
  private readonly loading = new Map<string, Promise<V>>();
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed | null,
    private readonly maxEntries = 10_000,
  ) {
    const clear = () => {
      this.generation++;
      this.entries.clear();
      this.loading.clear();
    };
    feed?.onDataChange(clear);
    feed?.onReset(clear);
  }

  /** Whether `get(key)` would answer from memory now, without loading. */
  has(key: string): boolean {
    return this.feed?.live === true && this.entries.has(key);
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.feed?.live) return load();
    if (this.entries.has(key)) return this.entries.get(key)!;
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const promise = load().finally(() => {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    });
    this.loading.set(key, promise);
    const value = await promise;
    if (generation === this.generation && this.feed.live) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(key, value);
    }
    return value;
  }
}
