/**
 * What the price model is calibrated to: for every quarter of the gazetteer
 * (contract/gazetteer/), the median monthly asking rent of an unfurnished 2-bedroom
 * apartment in November 2026 (`LEVELS_AS_OF`), in XAF. Every other price of the model
 * (other types, rooms, sales, land) is derived from this one figure (price-model.ts).
 *
 * Douala and Yaoundé are set quarter by quarter from public adverts and press surveys
 * (README, "Demo data", lists them). Adverts of a few years ago are raised by about 10 %
 * for the rise in rents since. The other ten cities have no such survey at hand: their
 * levels follow from the city's rent level against Douala (`City.rentLevel`) and the
 * quarter's tier, stepping down from the first-listed quarter of a tier to the last
 * (±10 %), so every quarter still has its own level.
 *
 * The gazetteer knows more quarters than the catalog (91 in Douala against 23). Those
 * have no surveyed level: theirs is interpolated from the catalog quarters of the same
 * city and tier nearest to it (the geometric mean of the three nearest, weighted by the
 * inverse square of the distance between centroids), so a popular quarter beside Logpom
 * asks what Logpom's popular neighbours ask, not what Bonapriso asks.
 */
import { CITIES, type City, type Tier } from '../../contract/places.js';
import { GAZETTEER, type Point } from '../domain/places/gazetteer.js';
import { matchKey } from '../platform/text.js';

/** The month the levels describe (prices before it follow the city's trend back). */
export const LEVELS_AS_OF = { year: 2026, month: 10 } as const; // November 2026 (month 0-based)

/** Douala and Yaoundé, quarter by quarter: median unfurnished 2-bedroom apartment rent, XAF/month. */
const SURVEYED: Record<string, Record<string, number>> = {
  Douala: {
    // Prime: adverts asked 550,000 in Bonapriso, 290,000 in Akwa, 275,000 in Bali.
    Bonapriso: 600_000,
    Bonanjo: 450_000,
    Akwa: 320_000,
    Bali: 300_000,
    // Middle class: 135,000 Bonamoussadi, 125,000 Makepe, 120,000 Kotto, 100,000 Logpom.
    Deïdo: 160_000,
    Bonamoussadi: 150_000,
    Makepe: 140_000,
    Kotto: 130_000,
    Logpom: 110_000,
    'Cité des Palmiers': 110_000,
    Ndogbong: 120_000,
    Bessengue: 110_000,
    // Popular and peripheral: two-bedroom flats "from 120,000" advertised in Yassa (2019).
    Japoma: 80_000,
    PK14: 70_000,
    Yassa: 90_000,
    Bonabéri: 90_000,
    'New Bell': 80_000,
    Ndokotti: 100_000,
    Logbaba: 85_000,
    Bépanda: 90_000,
    Nyalla: 90_000,
    Village: 80_000,
    Mboppi: 85_000,
  },
  Yaoundé: {
    // The diplomatic and residential quarters.
    Bastos: 450_000,
    Golf: 400_000,
    'Santa Barbara': 350_000,
    'Quartier du Lac': 300_000,
    Omnisport: 150_000,
    Nlongkak: 140_000,
    Essos: 120_000,
    'Biyem-Assi': 110_000,
    Etoudi: 110_000,
    Ngousso: 130_000,
    Tsinga: 140_000,
    'Elig-Essono': 150_000,
    Mfandena: 130_000,
    // Popular: Emana and Mendong flats 100,000, Mimboman 150,000 "high standing" (2019 survey).
    Mvan: 90_000,
    Odza: 85_000,
    Mendong: 90_000,
    'Mvog-Mbi': 85_000,
    Ekounou: 85_000,
    Nkolbisson: 65_000,
    Emana: 95_000,
    Simbock: 75_000,
    Mimboman: 100_000,
    Nsimeyong: 90_000,
  },
};

/** Other cities: a tier-2 quarter at Douala's tier-2 median times the city's rent level. */
const TIER2_BASE = 127_500;
const TIER_RATIO: Record<Tier, number> = { 1: 2, 2: 1, 3: 0.7 };

function derivedLevels(city: City): Map<string, number> {
  const levels = new Map<string, number>();
  for (const tier of [1, 2, 3] as Tier[]) {
    const names = city.neighborhoods.filter((n) => n.tier === tier).map((n) => n.name);
    names.forEach((name, i) => {
      const step = names.length > 1 ? 1.1 - (0.2 * i) / (names.length - 1) : 1;
      levels.set(name, Math.round((TIER2_BASE * city.rentLevel * TIER_RATIO[tier] * step) / 1000) * 1000);
    });
  }
  return levels;
}

/** The catalog quarters' levels: surveyed in Douala and Yaoundé, derived from the tier elsewhere. */
function catalogLevels(city: City): Map<string, number> {
  const surveyed = SURVEYED[city.name];
  if (!surveyed) return derivedLevels(city);
  const levels = new Map<string, number>();
  for (const n of city.neighborhoods) {
    const level = surveyed[n.name];
    if (level === undefined) throw new Error(`neighborhood-levels: no level for ${n.name}, ${city.name}`);
    levels.set(n.name, level);
  }
  return levels;
}

/** Kilometres between two centroids (equirectangular: quarters of one city are a few km apart). */
function km(a: Point, b: Point): number {
  const x = (b.lng - a.lng) * Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  return Math.hypot(x, b.lat - a.lat) * 111.2;
}

/** How many catalog neighbours of the same tier a quarter without a survey is interpolated from. */
const INTERPOLATION_NEIGHBOURS = 3;

/** Every gazetteer quarter of `city`: the catalog's levels, the others interpolated (see the header). */
function cityLevels(city: City): Map<string, number> {
  const levels = catalogLevels(city);
  const gazetteer = GAZETTEER.get(matchKey(city.name));
  if (!gazetteer) return levels;
  const points = new Map(gazetteer.neighborhoods.map((n) => [n.name, n]));
  for (const n of gazetteer.neighborhoods) {
    if (levels.has(n.name)) continue;
    const nearest = city.neighborhoods
      .filter((c) => c.tier === n.tier && points.has(c.name))
      .map((c) => ({ level: levels.get(c.name)!, d: Math.max(0.3, km(n.point, points.get(c.name)!.point)) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, INTERPOLATION_NEIGHBOURS);
    if (nearest.length === 0) {
      levels.set(n.name, Math.round((TIER2_BASE * city.rentLevel * TIER_RATIO[n.tier]) / 1000) * 1000);
      continue;
    }
    const weights = nearest.map((c) => 1 / (c.d * c.d));
    const total = weights.reduce((a, b) => a + b, 0);
    const logLevel = nearest.reduce((sum, c, i) => sum + (weights[i] / total) * Math.log(c.level), 0);
    levels.set(n.name, Math.round(Math.exp(logLevel) / 1000) * 1000);
  }
  return levels;
}

/** City name → quarter name (gazetteer spelling) → level, XAF/month. Every gazetteer quarter has one. */
export const NEIGHBORHOOD_LEVELS: ReadonlyMap<string, ReadonlyMap<string, number>> = new Map(
  CITIES.map((city) => [city.name, cityLevels(city)]),
);

/** A city's level for a place the gazetteer does not know: the median of its catalog quarters' levels. */
export const CITY_MEDIAN_LEVEL: ReadonlyMap<string, number> = new Map(
  CITIES.map((city) => {
    const sorted = [...catalogLevels(city).values()].sort((a, b) => a - b);
    return [city.name, sorted[Math.floor(sorted.length / 2)]];
  }),
);
