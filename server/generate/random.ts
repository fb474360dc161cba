/**
 * A small seeded PRNG. Every generated listing draws from its own stream, seeded from
 * (source, seed, index): listing #n is the same whatever `count` is asked, so a bigger
 * seed extends a smaller one instead of replacing it.
 */

function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static forRow(source: string, seed: number, index: number): Random {
    let h = hashString(source) ^ Math.imul(seed | 0, 0x9e3779b1);
    h = Math.imul(h ^ (index >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h ^ Math.floor(index / 4294967296), 0xc2b2ae35);
    return new Random(h ^ (h >>> 16));
  }

  /** Uniform in [0, 1) (mulberry32). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One item of a table built once by `weightedTable`: no allocation per draw. */
  draw<T>(table: WeightedTable<T>): T {
    const r = this.next() * table.total;
    const { cumulative, items } = table;
    for (let i = 0; i < cumulative.length; i++) if (r < cumulative[i]) return items[i];
    return items[items.length - 1];
  }
}

export interface WeightedTable<T> {
  items: readonly T[];
  cumulative: number[];
  total: number;
}

export function weightedTable<T>(entries: readonly (readonly [T, number])[]): WeightedTable<T> {
  let total = 0;
  const cumulative = entries.map(([, w]) => (total += w));
  return { items: entries.map(([item]) => item), cumulative, total };
}
