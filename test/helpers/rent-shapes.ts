/**
 * The shapes of a rent market, measured the same way on real adverts and on generated
 * ones: the bedroom curve, the spread of rents within a like-for-like cell, and what an
 * advert leaves out. Used by test/ingest/generator-shapes.test.ts, which compares the
 * generator with the real crawl in ../shared/realdata/ (read there, never committed).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GAZETTEER, resolveNeighborhood } from '../../server/domain/places/gazetteer.js';
import { matchKey } from '../../server/platform/text.js';

export const CRAWL = join(process.cwd(), '..', 'shared', 'realdata', 'koutchoumi-rents.csv');

/** One apartment rent advert as the shapes read it. */
export interface RentAdvert {
  city: string;
  /** The top-level gazetteer quarter, or null when the name resolves to none. */
  neighborhood: string | null;
  bedrooms: number;
  furnished: boolean;
  price: number;
}

/** The crawl's distinct adverts (its exact repeats folded), or null when the file is absent. */
export function readCrawl(): { rows: number; distinct: RentAdvert[] } | null {
  if (!existsSync(CRAWL)) return null;
  const lines = readFileSync(CRAWL, 'utf8').split(/\r?\n/).slice(1).filter(Boolean);
  const distinct = new Map<string, RentAdvert>();
  for (const line of new Set(lines)) {
    const [area, , bedrooms, price, title] = line.split(',');
    const [city, ...rest] = area.split('/');
    const gazetteer = GAZETTEER.get(matchKey(city));
    const beds = Number(/\d+/.exec(bedrooms)?.[0]);
    const asked = Number(price.replace(/\D/g, ''));
    if (!gazetteer || !Number.isFinite(beds) || !(asked > 0)) continue;
    const resolved = resolveNeighborhood(gazetteer, rest.join('/'));
    distinct.set(line, {
      city: gazetteer.name,
      neighborhood: resolved?.neighborhood ?? null,
      bedrooms: beds,
      furnished: /furnished/i.test(title),
      price: asked,
    });
  }
  return { rows: lines.length, distinct: [...distinct.values()] };
}

export const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * The bedroom curve: for each quarter with at least `min` unfurnished adverts of both `b`
 * and 2 bedrooms, the ratio of their median rents; the median of those ratios over quarters.
 */
export function bedroomRatio(adverts: RentAdvert[], bedrooms: number, min = 5): { ratio: number; quarters: number } {
  const cells = new Map<string, { two: number[]; b: number[] }>();
  for (const a of adverts) {
    if (a.furnished || a.neighborhood === null || (a.bedrooms !== 2 && a.bedrooms !== bedrooms)) continue;
    const key = `${a.city}|${a.neighborhood}`;
    const cell = cells.get(key) ?? { two: [], b: [] };
    (a.bedrooms === 2 ? cell.two : cell.b).push(a.price);
    cells.set(key, cell);
  }
  const ratios = [...cells.values()].filter((c) => c.two.length >= min && c.b.length >= min).map((c) => median(c.b) / median(c.two));
  return { ratio: ratios.length > 0 ? median(ratios) : NaN, quarters: ratios.length };
}

/**
 * The spread within a like-for-like cell (city × quarter × bedrooms × furnished, cells of
 * at least `min` adverts): the median absolute deviation of log rents from their cell's
 * median, pooled over cells, times 1.4826 (a normal's σ from its MAD).
 */
export function cellSpread(adverts: RentAdvert[], min = 5): { sigma: number; cells: number } {
  const cells = new Map<string, number[]>();
  for (const a of adverts) {
    if (a.neighborhood === null) continue;
    const key = `${a.city}|${a.neighborhood}|${a.bedrooms}|${a.furnished}`;
    cells.set(key, [...(cells.get(key) ?? []), Math.log(a.price)]);
  }
  const deviations: number[] = [];
  let used = 0;
  for (const logs of cells.values()) {
    if (logs.length < min) continue;
    used++;
    const centre = median(logs);
    for (const l of logs) deviations.push(Math.abs(l - centre));
  }
  return { sigma: median(deviations) * 1.4826, cells: used };
}

/** Share of adverts whose quarter resolves to a gazetteer quarter outside `catalog` (city|name). */
export function outsideCatalog(adverts: RentAdvert[], catalog: Set<string>): number {
  const placed = adverts.filter((a) => a.neighborhood !== null);
  return placed.filter((a) => !catalog.has(`${a.city}|${a.neighborhood}`)).length / placed.length;
}
