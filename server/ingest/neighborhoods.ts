/**
 * The importer's side of the gazetteer: the `neighborhoods` table kept equal to the JSON files
 * (loaded by `npm run db:migrate`, demo mode and each import; idempotent), operators'
 * aliases read from `neighborhood_aliases`, and the resolver an import uses, which remembers
 * the names it could not resolve for the report.
 */
import {
  GAZETTEER,
  type GazetteerCity,
  type OperatorAliases,
  type Neighborhood,
  foldNeighborhood,
  resolveNeighborhood,
} from '../domain/places/gazetteer.js';
import { closestNames, matchKey } from '../platform/text.js';
import { approximateNeighborhood } from '../domain/places/approximate-neighborhood.js';
import type { Queryable } from './upsert.js';

const SYNC_SQL = `
INSERT INTO neighborhoods (city_key, folded, name, key, parent_name, lat, lng, precision_m)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::float8[], $7::float8[], $8::int[])
ON CONFLICT (city_key, folded) DO UPDATE SET
  name = EXCLUDED.name, key = EXCLUDED.key, parent_name = EXCLUDED.parent_name,
  lat = EXCLUDED.lat, lng = EXCLUDED.lng, precision_m = EXCLUDED.precision_m
WHERE (neighborhoods.name, neighborhoods.key, neighborhoods.parent_name, neighborhoods.lat, neighborhoods.lng, neighborhoods.precision_m)
  IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.key, EXCLUDED.parent_name, EXCLUDED.lat, EXCLUDED.lng, EXCLUDED.precision_m)`;

/** Writes the gazetteer's quarters and sub-quarters (each under its own name) into `neighborhoods`. */
export async function syncGazetteer(db: Queryable): Promise<void> {
  const cols: unknown[][] = [[], [], [], [], [], [], [], []];
  for (const city of GAZETTEER.values()) {
    const seen = new Set<string>();
    for (const q of city.byName.values()) {
      const folded = foldNeighborhood(q.name);
      if (seen.has(folded)) continue;
      seen.add(folded);
      const row = [
        city.key,
        folded,
        q.name,
        q.key,
        q.name === q.neighborhood ? null : q.neighborhood,
        q.point.lat,
        q.point.lng,
        q.point.precision_m,
      ];
      row.forEach((v, i) => cols[i].push(v));
    }
  }
  await db.query(SYNC_SQL, cols);
}

export async function operatorAliases(db: Queryable): Promise<OperatorAliases> {
  const { rows } = await db.query<{ city_key: string; folded: string; target: string }>(
    'SELECT city_key, folded, target FROM neighborhood_aliases',
  );
  const aliases: OperatorAliases = new Map();
  for (const r of rows) {
    let city = aliases.get(r.city_key);
    if (!city) aliases.set(r.city_key, (city = new Map()));
    city.set(r.folded, r.target);
  }
  return aliases;
}

export interface UnresolvedName {
  city: string;
  name: string;
  rows: number;
  /** The known quarter names closest to it, closest first. */
  closest: string[];
}

/** The known names closest to a raw name, or to one of its words (`Bonamousadi Carrefour`). */
function closestTo(raw: string, names: string[]): string[] {
  const found = new Set(closestNames(raw, names));
  for (const word of raw.split(/[\s,()/-]+/)) if (word.length >= 4) for (const n of closestNames(word, names)) found.add(n);
  return [...found].slice(0, 3);
}

/** A name resolved by approximate-neighborhood.ts: the import report lists it, an operator may overrule it. */
export interface ApproximateName {
  city: string;
  name: string;
  neighborhood: string;
  how: string;
  rows: number;
}

/** A quarter found for a name only approximately: `how` it was matched. */
export type ResolvedNeighborhood = Neighborhood & { approximate?: string };

/** Resolves raw quarter names for one import, each distinct name once. */
export class NeighborhoodResolver {
  /** City key → raw name → quarter: no string built per row (a million rows, a few hundred names). */
  private readonly cache = new Map<string, Map<string, ResolvedNeighborhood | null>>();
  private cached = 0;
  private readonly misses = new Map<string, { city: GazetteerCity; name: string; rows: number }>();
  private readonly approximations = new Map<string, ApproximateName>();

  constructor(private readonly aliases: OperatorAliases = new Map()) {}

  resolve(city: GazetteerCity, raw: string): ResolvedNeighborhood | null {
    let names = this.cache.get(city.key);
    if (!names) this.cache.set(city.key, (names = new Map()));
    let found = names.get(raw);
    if (found === undefined) {
      found = resolveNeighborhood(city, raw, this.aliases);
      if (found === null) {
        const near = approximateNeighborhood(city, raw, this.aliases);
        if (near) found = { ...near.neighborhood, approximate: near.how };
      }
      if (this.cached++ < 100_000) names.set(raw, found);
    }
    if (found?.approximate) {
      const key = `${city.key}\u0000${foldNeighborhood(raw)}`;
      const seen = this.approximations.get(key);
      if (seen) seen.rows++;
      else if (this.approximations.size < 10_000) {
        this.approximations.set(key, { city: city.name, name: raw.trim(), neighborhood: found.name, how: found.approximate, rows: 1 });
      }
    }
    if (found === null) {
      const missKey = `${city.key}\u0000${foldNeighborhood(raw)}`;
      const miss = this.misses.get(missKey);
      if (miss) miss.rows++;
      else if (this.misses.size < 10_000) this.misses.set(missKey, { city, name: raw.trim(), rows: 1 });
    }
    return found;
  }

  /** The names matched approximately, most rows first: each to check, and overrule if wrong. */
  approximate(): ApproximateName[] {
    return [...this.approximations.values()].sort((a, b) => b.rows - a.rows || a.name.localeCompare(b.name, 'fr'));
  }

  /** The names no quarter was found for, most rows first, with the closest known names. */
  unresolved(): UnresolvedName[] {
    return [...this.misses.values()]
      .sort((a, b) => b.rows - a.rows || a.name.localeCompare(b.name, 'fr'))
      .map((m) => ({ city: m.city.name, name: m.name, rows: m.rows, closest: closestTo(m.name, m.city.names) }));
  }
}

export class AliasError extends Error {}

/**
 * `admin alias add`: `raw` becomes another name of `target` (a known quarter or
 * sub-quarter of `cityName`) for every later import, and the listings already filed under
 * the city alone because of that name move to the quarter (their `updated_at` moves: their
 * public `neighborhood` changed). Returns the quarter and how many listings moved.
 */
export async function addAlias(
  db: Queryable,
  cityName: string,
  raw: string,
  target: string,
): Promise<{ neighborhood: string; moved: number }> {
  const city = GAZETTEER.get(matchKey(cityName));
  if (!city)
    throw new AliasError(`unknown city "${cityName}": the gazetteer covers ${[...GAZETTEER.values()].map((c) => c.name).join(', ')}`);
  const neighborhood = city.byName.get(foldNeighborhood(target));
  if (!neighborhood) {
    const closest = closestNames(target, city.names);
    throw new AliasError(`"${target}" is not a quarter of ${city.name}${closest.length ? `; did you mean ${closest.join(', ')}?` : ''}`);
  }
  const folded = foldNeighborhood(raw);
  if (folded === '') throw new AliasError('the name to add must not be empty');
  const existing = city.byName.get(folded);
  if (existing) throw new AliasError(`"${raw}" is already a name of ${existing.name} in the gazetteer`);
  await db.query(
    `INSERT INTO neighborhood_aliases (city_key, folded, alias, target) VALUES ($1, $2, $3, $4)
     ON CONFLICT (city_key, folded) DO UPDATE SET alias = EXCLUDED.alias, target = EXCLUDED.target`,
    [city.key, folded, raw.trim(), neighborhood.name],
  );
  // The listings filed under the city alone for that name, or matched approximately (their raw name kept).
  const names = await rawNames(db, city.key, folded);
  if (names.length === 0) return { neighborhood: neighborhood.name, moved: 0 };
  const moved = await db.query(
    `UPDATE listings SET neighborhood = $3, neighborhood_key = $4, raw_neighborhood = NULL, updated_at = now()
     WHERE city_key = $1 AND raw_neighborhood = ANY($2::text[])`,
    [city.key, names, neighborhood.name, neighborhood.key],
  );
  return { neighborhood: neighborhood.name, moved: moved.rowCount ?? 0 };
}

async function rawNames(db: Queryable, cityKey: string, folded: string): Promise<string[]> {
  const { rows } = await db.query<{ raw_neighborhood: string }>(
    `SELECT DISTINCT raw_neighborhood FROM listings WHERE city_key = $1 AND raw_neighborhood IS NOT NULL`,
    [cityKey],
  );
  return rows.map((r) => r.raw_neighborhood).filter((n) => foldNeighborhood(n) === folded);
}

/**
 * `admin alias refuse`: `raw` names no quarter of `cityName` (an approximate match of an
 * import report was wrong). Later imports file it under the city alone, and the listings
 * already matched to a quarter through it go back to the city alone. Returns how many moved.
 */
export async function refuseAlias(db: Queryable, cityName: string, raw: string): Promise<{ moved: number }> {
  const city = GAZETTEER.get(matchKey(cityName));
  if (!city)
    throw new AliasError(`unknown city "${cityName}": the gazetteer covers ${[...GAZETTEER.values()].map((c) => c.name).join(', ')}`);
  const folded = foldNeighborhood(raw);
  if (folded === '') throw new AliasError('the name to refuse must not be empty');
  const existing = city.byName.get(folded);
  if (existing) throw new AliasError(`"${raw}" is a name of ${existing.name} in the gazetteer: it cannot be refused`);
  // An empty target: the name stands for no quarter (resolveNeighborhood finds none, approximate matching is not tried).
  await db.query(
    `INSERT INTO neighborhood_aliases (city_key, folded, alias, target) VALUES ($1, $2, $3, '')
     ON CONFLICT (city_key, folded) DO UPDATE SET alias = EXCLUDED.alias, target = ''`,
    [city.key, folded, raw.trim()],
  );
  const names = await rawNames(db, city.key, folded);
  if (names.length === 0) return { moved: 0 };
  const moved = await db.query(
    `UPDATE listings SET neighborhood = NULL, neighborhood_key = NULL, updated_at = now()
     WHERE city_key = $1 AND raw_neighborhood = ANY($2::text[]) AND neighborhood_key IS NOT NULL`,
    [city.key, names],
  );
  return { moved: moved.rowCount ?? 0 };
}
