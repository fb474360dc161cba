/**
 * Which cities and neighbourhoods the API knows, so that `city=Doula` is a 400 that
 * suggests Douala rather than an empty answer that is charged. Known means: in the
 * catalog (contract/places.ts, listed in the API reference), or holding at least one
 * listing, whatever its status, at the last market refresh (the `places` table, rebuilt
 * after every load and periodically): places a partner feed brings stay searchable.
 * Names match by matching key (case and accents folded), as the filters do.
 */
import { type Dataset, table } from '../../domain/listing/dataset.js';
import type { TFieldError } from '../../../contract/errors.js';
import { CITIES } from '../../../contract/places.js';
import { ApiError } from '../../platform/errors.js';
import { foldNeighborhood, GAZETTEER, resolveNeighborhood } from '../../domain/places/gazetteer.js';
import { closestNames, matchKey } from '../../platform/text.js';

interface CatalogCity {
  name: string;
  neighborhoods: Map<string, string>;
}

const CATALOG = new Map<string, CatalogCity>(
  CITIES.map((c) => [matchKey(c.name), { name: c.name, neighborhoods: new Map(c.neighborhoods.map((n) => [matchKey(n.name), n.name])) }]),
);

export interface PlaceFilter {
  city?: string | undefined;
  neighborhood?: string | undefined;
}

interface Place {
  city: string;
  neighborhood: string;
}

const quoted = (s: string) => JSON.stringify(s);

function listOrHint(names: string[], what: string): string {
  return names.length <= 30 ? `known ${what}: ${names.join(', ')}` : `the known ${what} are listed in the API reference (/docs)`;
}

export class KnownPlaces {
  constructor(
    private readonly data: Dataset,
    /** The dataset's cache (cleared when the data changes), or a read every time. */
    private readonly remember: <T>(key: string, load: () => Promise<T>) => Promise<T> = (_key, load) => load(),
  ) {}

  /** Resolves when every place given is known; else throws a `validation_error` naming each unknown one, with suggestions. */
  async check(filter: PlaceFilter): Promise<void> {
    const errors = await this.errorsOf(filter);
    if (errors.length > 0) throw new ApiError('validation_error', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
  }

  /**
   * The places of a raw query that are unknown, each with suggestions: checked beside the
   * other parameters, so one answer names every mistake. A place whose own form is wrong
   * (`refused`: given twice, empty, too long) is left to that error.
   */
  async errorsOfQuery(raw: Record<string, unknown>, refused: ReadonlySet<string>): Promise<TFieldError[]> {
    const take = (name: 'city' | 'neighborhood') => {
      const value = raw[name];
      return typeof value === 'string' && !refused.has(name) && value.trim() !== '' ? value.trim() : undefined;
    };
    return this.errorsOf({ city: take('city'), neighborhood: take('neighborhood') });
  }

  private async errorsOf(filter: PlaceFilter): Promise<TFieldError[]> {
    const errors: TFieldError[] = [];
    let cityKey: string | undefined;
    if (filter.city !== undefined) {
      const key = matchKey(filter.city);
      if (await this.cityKnown(key)) cityKey = key;
      else errors.push(await this.unknownCity(filter.city));
    }
    if (filter.neighborhood !== undefined) {
      const key = matchKey(filter.neighborhood);
      const known =
        cityKey !== undefined
          ? await this.neighborhoodKnownIn(cityKey, key, filter.neighborhood)
          : await this.neighborhoodKnownAnywhere(key, filter.neighborhood);
      // With an unknown city, a neighbourhood known somewhere is not a second mistake.
      if (!known) errors.push(await this.unknownNeighborhood(filter.neighborhood, cityKey));
    }
    return errors;
  }

  private async cityKnown(key: string): Promise<boolean> {
    if (key === '') return false;
    if (CATALOG.has(key)) return true;
    const { rowCount } = await this.data.pool.query(`SELECT 1 FROM ${table(this.data, 'places')} WHERE city_key = $1 LIMIT 1`, [key]);
    return (rowCount ?? 0) > 0;
  }

  private async neighborhoodKnownIn(cityKey: string, key: string, typed: string): Promise<boolean> {
    if (key === '') return false;
    if (CATALOG.get(cityKey)?.neighborhoods.has(key)) return true;
    const city = GAZETTEER.get(cityKey);
    if (city && resolveNeighborhood(city, typed)) return true;
    const { rowCount } = await this.data.pool.query(
      `SELECT 1 FROM ${table(this.data, 'places')} WHERE city_key = $1 AND neighborhood_key = $2`,
      [cityKey, key],
    );
    return (rowCount ?? 0) > 0;
  }

  private async neighborhoodKnownAnywhere(key: string, typed: string): Promise<boolean> {
    if (key === '') return false;
    for (const city of CATALOG.values()) if (city.neighborhoods.has(key)) return true;
    const folded = foldNeighborhood(typed);
    for (const city of GAZETTEER.values()) if (city.byName.has(folded)) return true;
    const { rowCount } = await this.data.pool.query(`SELECT 1 FROM ${table(this.data, 'places')} WHERE neighborhood_key = $1 LIMIT 1`, [
      key,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /** Every known place, from the dataset's cache until the data changes: errors are checked before admission. */
  private allPlaces(): Promise<Place[]> {
    return this.remember('known-places', () => this.readAllPlaces());
  }

  /** Every known place: the catalog's, then the ones listings brought (error path only). */
  private async readAllPlaces(): Promise<Place[]> {
    const catalog = CITIES.flatMap((c) => c.neighborhoods.map((n) => ({ city: c.name, neighborhood: n.name })));
    // Then the gazetteer's quarters (top-level names: their parts are found under them).
    for (const city of GAZETTEER.values()) {
      for (const q of new Set([...city.byName.values()].map((v) => v.neighborhood))) catalog.push({ city: city.name, neighborhood: q });
    }
    const { rows } = await this.data.pool.query<Place>(
      `SELECT city, neighborhood FROM ${table(this.data, 'places')} ORDER BY city, neighborhood`,
    );
    const seen = new Set(catalog.map((p) => `${matchKey(p.city)}/${matchKey(p.neighborhood)}`));
    return [...catalog, ...rows.filter((p) => !seen.has(`${matchKey(p.city)}/${matchKey(p.neighborhood)}`))];
  }

  private async unknownCity(typed: string): Promise<TFieldError> {
    const cities = uniqueByKey((await this.allPlaces()).map((p) => p.city));
    const suggestions = closestNames(typed, cities);
    const message = suggestions.length
      ? `unknown city ${quoted(typed)}; did you mean ${suggestions.join(', ')}?`
      : `unknown city ${quoted(typed)}; ${listOrHint(cities, 'cities')}`;
    return { path: 'city', message, suggestions };
  }

  private async unknownNeighborhood(typed: string, cityKey: string | undefined): Promise<TFieldError> {
    const places = await this.allPlaces();
    const key = matchKey(typed);
    if (cityKey === undefined) {
      const suggestions = closestNames(typed, uniqueByKey(places.map((p) => p.neighborhood)));
      const message = suggestions.length
        ? `unknown neighbourhood ${quoted(typed)}; did you mean ${suggestions.join(', ')}?`
        : `unknown neighbourhood ${quoted(typed)}; the known neighbourhoods are listed in the API reference (/docs)`;
      return { path: 'neighborhood', message, suggestions };
    }
    const inCity = places.filter((p) => matchKey(p.city) === cityKey);
    const cityName = inCity[0]?.city ?? CATALOG.get(cityKey)?.name ?? cityKey;
    const names = uniqueByKey(inCity.map((p) => p.neighborhood));
    const suggestions = closestNames(typed, names);
    const elsewhere = uniqueByKey(places.filter((p) => matchKey(p.neighborhood) === key).map((p) => p.city));
    const where = elsewhere.length ? ` (${quoted(typed)} is in ${elsewhere.join(', ')})` : '';
    const message = suggestions.length
      ? `${quoted(typed)} is not a known neighbourhood of ${cityName}${where}; did you mean ${suggestions.join(', ')}?`
      : `${quoted(typed)} is not a known neighbourhood of ${cityName}${where}; ${listOrHint(names, `neighbourhoods of ${cityName}`)}`;
    return { path: 'neighborhood', message, suggestions };
  }
}

/** One spelling per matching key, first seen first. */
function uniqueByKey(names: string[]): string[] {
  const byKey = new Map<string, string>();
  for (const name of names) if (!byKey.has(matchKey(name))) byKey.set(matchKey(name), name);
  return [...byKey.values()];
}
