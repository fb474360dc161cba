/**
 * The gazetteer (contract/gazetteer/<city>.json, described in its README) in memory: the
 * quarters of the twelve cities with their centroids, other names and sub-quarters, and
 * the resolver that turns a raw quarter name from a feed into a known quarter.
 *
 * A name resolves when, once folded (case, accents, spacing, punctuation, and numbering:
 * `Akwa I` = `Akwa 1` = `AKWA-1`), it is a quarter's name, one of its aliases, a
 * sub-quarter's name or alias, or an operator's alias (`admin alias add`). Failing that:
 * the text before a parenthesis or comma (`Bonamouang (Akwa`), a numbered part of a known
 * quarter (`Logbessou II`: kept as such, under Logbessou), or the start of exactly one
 * known name, five letters at least (`Biyem` → Biyem-Assi).
 *
 * A sub-quarter is kept (the listing says `Akwa I`) and filed under its parent: its
 * `key` (the listing's `neighborhood_key`) is the parent's, so searches and market
 * figures for Akwa include it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { matchKey } from '../../platform/text.js';

interface PointFields {
  lat?: number;
  lng?: number;
  precision_m?: number;
  source?: string;
}
interface SubNeighborhoodFile extends PointFields {
  name: string;
  aliases: string[];
}
interface NeighborhoodFile extends Required<PointFields> {
  name: string;
  tier: 1 | 2 | 3;
  arrondissement?: string;
  aliases: string[];
  sub_neighborhoods: SubNeighborhoodFile[];
}
interface CityFile {
  city: string;
  centroid: Required<PointFields>;
  bounds: { south: number; west: number; north: number; east: number };
  neighborhoods: NeighborhoodFile[];
}

export interface Point {
  lat: number;
  lng: number;
  precision_m: number;
}

/** A resolved quarter name. */
export interface Neighborhood {
  /** The name the listing shows: the quarter's, or the sub-quarter's. */
  name: string;
  /** Matching key of the top-level quarter: the listing's `neighborhood_key`. */
  key: string;
  /** Name of the top-level quarter (equal to `name` unless a sub-quarter). */
  neighborhood: string;
  /** Its centroid: the sub-quarter's own point when it has one, else the quarter's. */
  point: Point;
}

/** A top-level quarter as the gazetteer file lists it. */
export interface GazetteerNeighborhood {
  name: string;
  /** 1 prime, 2 middle class, 3 popular or peripheral (contract/gazetteer/README.md). */
  tier: 1 | 2 | 3;
  point: Point;
}

export interface GazetteerCity {
  name: string;
  key: string;
  centroid: Point;
  bounds: CityFile['bounds'];
  /** Every known quarter and sub-quarter name, for suggestions. */
  names: string[];
  /** Folded name or alias → quarter. */
  byName: Map<string, Neighborhood>;
  /** Matching key (a listing's `neighborhood_key`) → its top-level quarter. */
  byKey: Map<string, Neighborhood>;
  /** Every top-level quarter, in the file's order. */
  neighborhoods: GazetteerNeighborhood[];
}

const ROMAN: Record<string, string> = { i: '1', ii: '2', iii: '3', iv: '4', v: '5', vi: '6', vii: '7', viii: '8', ix: '9', x: '10' };
const ROMAN_OF = ['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII', 'IX', 'X'];

/** The resolver's key: matchKey, numbering in digits after the first word, no spaces. */
export function foldNeighborhood(value: string): string {
  const words = matchKey(value).split(' ');
  for (let i = 1; i < words.length; i++) words[i] = ROMAN[words[i]] ?? words[i];
  return words.join('');
}

const pointOf = (p: PointFields, fallback: Point): Point =>
  p.lat !== undefined && p.lng !== undefined && p.precision_m !== undefined
    ? { lat: p.lat, lng: p.lng, precision_m: p.precision_m }
    : fallback;

function cityOf(file: CityFile): GazetteerCity {
  const byName = new Map<string, Neighborhood>();
  const byKey = new Map<string, Neighborhood>();
  const names: string[] = [];
  const neighborhoods: GazetteerNeighborhood[] = [];
  const add = (name: string, q: Neighborhood) => {
    names.push(name);
    byName.set(foldNeighborhood(name), q);
  };
  for (const qf of file.neighborhoods) {
    const point = pointOf(qf, { lat: qf.lat, lng: qf.lng, precision_m: qf.precision_m });
    const neighborhood: Neighborhood = { name: qf.name, key: matchKey(qf.name), neighborhood: qf.name, point };
    add(qf.name, neighborhood);
    neighborhoods.push({ name: qf.name, tier: qf.tier, point });
    byKey.set(neighborhood.key, neighborhood);
    for (const alias of qf.aliases) add(alias, neighborhood);
    for (const sf of qf.sub_neighborhoods) {
      const sub: Neighborhood = { name: sf.name, key: neighborhood.key, neighborhood: qf.name, point: pointOf(sf, point) };
      add(sf.name, sub);
      for (const alias of sf.aliases) add(alias, sub);
    }
  }
  const c = file.centroid;
  return {
    name: file.city,
    key: matchKey(file.city),
    centroid: { lat: c.lat, lng: c.lng, precision_m: c.precision_m },
    bounds: file.bounds,
    names,
    byName,
    byKey,
    neighborhoods,
  };
}

/** contract/gazetteer, from the sources and from the compiled build (which copies it) alike. */
function readCities(): GazetteerCity[] {
  for (const candidate of ['../../contract/gazetteer/', '../../../contract/gazetteer/']) {
    const dir = new URL(candidate, import.meta.url);
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    } catch {
      continue;
    }
    if (files.length === 0) continue;
    return files.sort().map((f) => cityOf(JSON.parse(readFileSync(new URL(f, dir), 'utf8')) as CityFile));
  }
  throw new Error('contract/gazetteer not found beside the server');
}

export const GAZETTEER: ReadonlyMap<string, GazetteerCity> = new Map(readCities().map((c) => [c.key, c]));

/** Operators' aliases: city key → folded alias → the known name it stands for. */
export type OperatorAliases = Map<string, Map<string, string>>;

/** The quarter a raw name stands for in a gazetteer city, or null. */
export function resolveNeighborhood(city: GazetteerCity, raw: string, aliases?: OperatorAliases): Neighborhood | null {
  const folded = foldNeighborhood(raw);
  if (folded === '') return null;
  const direct = city.byName.get(folded);
  if (direct) return direct;
  const target = aliases?.get(city.key)?.get(folded);
  if (target !== undefined) return city.byName.get(foldNeighborhood(target)) ?? null;
  // "Bonamouang (Akwa", "Makepe, Douala": the name before the aside.
  const head = raw.split(/[(,/]/)[0];
  if (head !== raw && head.trim() !== '') {
    const found = resolveNeighborhood(city, head, aliases);
    if (found) return found;
  }
  // "Logbessou II": a numbered part of a known quarter, kept as such under it.
  const numbered = /^(.*\D)\s*\b(\d{1,2}|i{1,3}|iv|v|vi{0,3}|ix|x)$/i.exec(raw.trim());
  if (numbered) {
    const parent = city.byName.get(foldNeighborhood(numbered[1]));
    const n = Number(ROMAN[numbered[2].toLowerCase()] ?? numbered[2]);
    if (parent && n >= 1 && n <= 10) return { ...parent, name: `${parent.name} ${ROMAN_OF[n]}` };
  }
  // "Biyem": the start of exactly one known name.
  if (folded.length >= 5) {
    let only: Neighborhood | null = null;
    for (const [name, q] of city.byName) {
      if (!name.startsWith(folded)) continue;
      if (only && only.neighborhood !== q.neighborhood) return null;
      only = q.neighborhood === q.name ? q : (only ?? q);
    }
    return only;
  }
  return null;
}
