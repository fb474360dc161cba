/**
 * What the market explorer's page hands its script, as JSON in the page (never executed:
 * `<script type="application/json">`, so the strict CSP holds): the cities of the
 * gazetteer with their bounds and quarter centroids, the view asked for, the credential
 * its API calls carry, the key they act as, and the script's messages in the page's
 * language. The script (./explorer/) imports these types only.
 */
import { HISTORY_MAX_MONTHS, HISTORY_MIN_SAMPLE } from '../../contract/history.js';
import { CITY_NAMES } from '../../contract/places.js';
import { PLANS, type PlanName } from '../../contract/plans.js';
import { PROPERTY_TYPES, PURPOSES } from '../../contract/schemas.js';
import { BEDROOMS_TOP } from '../../contract/bedrooms.js';
import { GAZETTEER } from '../domain/places/gazetteer.js';
import type { Lang } from '../platform/lang.js';
import { matchKey } from '../platform/text.js';
import type { ClientMessageKey } from './messages/market-client.js';

export type Purpose = (typeof PURPOSES)[number];
export type PropertyType = (typeof PROPERTY_TYPES)[number];
export const COLOURS = ['median', 'm2', 'change'] as const;
export type Colour = (typeof COLOURS)[number];

export interface ExplorerCity {
  name: string;
  bounds: { south: number; west: number; north: number; east: number };
  /** Its quarters (not sub-quarters), each `[name, lat, lng]` at the gazetteer's centroid. */
  neighborhoods: Array<[string, number, number]>;
}

export interface ExplorerView {
  city: string;
  purpose: Purpose;
  type: PropertyType | null;
  bedrooms: number | null;
  colour: Colour;
}

export interface ExplorerKey {
  id: string;
  name: string;
  prefix: string;
  kind: 'live' | 'test';
}

export interface ExplorerConfig {
  lang: Lang;
  /** Where the API is, for the copyable calls (`https://host`). */
  origin: string;
  /** `X-Mboa-Explorer` of the page's calls; null without an active key. */
  credential: string | null;
  key: ExplorerKey | null;
  plan: PlanName;
  /** Whether the plan includes valuations (else the form previews them on the sample data). */
  valuations: boolean;
  /** Fewest listings a figure may rest on: below it a quarter is shown as lacking data. */
  minSample: number;
  months: number;
  /** The top bedrooms bucket: that many or more. */
  bedroomsTop: number;
  cities: ExplorerCity[];
  view: ExplorerView;
  messages: Record<ClientMessageKey, string>;
}

/** The gazetteer's cities, in the catalogue's order, with their quarters. */
function gazetteerCities(): ExplorerCity[] {
  const cities: ExplorerCity[] = [];
  for (const name of CITY_NAMES) {
    const city = GAZETTEER.get(matchKey(name));
    if (!city) continue;
    const neighborhoods = new Map<string, [string, number, number]>();
    for (const q of city.byName.values()) {
      if (q.name === q.neighborhood && !neighborhoods.has(q.key)) neighborhoods.set(q.key, [q.name, q.point.lat, q.point.lng]);
    }
    cities.push({ name: city.name, bounds: city.bounds, neighborhoods: [...neighborhoods.values()] });
  }
  return cities;
}

export const EXPLORER_CITIES: readonly ExplorerCity[] = gazetteerCities();

const pick = <T extends string>(options: readonly T[], value: unknown): T | null =>
  typeof value === 'string' && (options as readonly string[]).includes(value) ? (value as T) : null;

/** The view a page's query asks for; anything unknown falls back to Douala's rents by median. */
export function viewOf(query: Record<string, unknown>): ExplorerView {
  const cityAsked = typeof query.city === 'string' ? matchKey(query.city) : '';
  const city = EXPLORER_CITIES.find((c) => matchKey(c.name) === cityAsked)?.name ?? EXPLORER_CITIES[0].name;
  const bedrooms = typeof query.bedrooms === 'string' && /^[0-9]$/.test(query.bedrooms) ? Number(query.bedrooms) : null;
  return {
    city,
    purpose: pick(PURPOSES, query.purpose) ?? 'rent',
    type: pick(PROPERTY_TYPES, query.type),
    bedrooms: bedrooms !== null && bedrooms <= BEDROOMS_TOP ? bedrooms : null,
    colour: pick(COLOURS, query.colour) ?? 'median',
  };
}

export function explorerConfig(o: {
  lang: Lang;
  origin: string;
  credential: string | null;
  key: ExplorerKey | null;
  plan: PlanName;
  view: ExplorerView;
  messages: Record<ClientMessageKey, string>;
}): ExplorerConfig {
  return {
    ...o,
    valuations: PLANS[o.plan].endpoints.includes('valuations.get'),
    minSample: HISTORY_MIN_SAMPLE,
    months: HISTORY_MAX_MONTHS,
    bedroomsTop: BEDROOMS_TOP,
    cities: [...EXPLORER_CITIES],
  };
}

/** The config as the page carries it: JSON whose `<` cannot close the script element. */
export function configJson(config: ExplorerConfig): string {
  return JSON.stringify(config).replace(/</g, '\\u003c');
}
