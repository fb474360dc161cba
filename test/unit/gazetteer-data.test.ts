/**
 * The gazetteer's data (contract/gazetteer/<city>.json), checked as data: the format the loader reads, every
 * point inside its city and near it, names that stay unambiguous once folded, the catalogue's quarters kept
 * with their spelling and tier, and a source and an honest precision behind every coordinate.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CITIES } from '../../contract/places.js';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../../contract/gazetteer');

/** Four decimals at most (about 11 m): more would claim a precision no source here has. */
const coordinate = (min: number, max: number) =>
  z
    .number()
    .min(min)
    .max(max)
    .refine((v) => Math.abs(v * 1e4 - Math.round(v * 1e4)) < 1e-6, 'at most 4 decimals');
const lat = coordinate(-90, 90);
const lng = coordinate(-180, 180);
const name = z.string().trim().min(1);
const source = z.string().trim().min(1);
const precision = z.number().int().positive().max(5000);

const SubNeighborhood = z
  .object({
    name,
    aliases: z.array(name),
    lat: lat.optional(),
    lng: lng.optional(),
    precision_m: precision.optional(),
    source: source.optional(),
  })
  .strict()
  .refine(
    (s) =>
      [s.lat, s.lng, s.precision_m, s.source].every((v) => v === undefined) ||
      [s.lat, s.lng, s.precision_m, s.source].every((v) => v !== undefined),
    {
      message: 'a sub-quarter has all of lat, lng, precision_m and source, or none',
    },
  );

const Neighborhood = z
  .object({
    name,
    arrondissement: name.nullable(),
    lat,
    lng,
    precision_m: precision,
    source,
    aliases: z.array(name),
    sub_neighborhoods: z.array(SubNeighborhood),
    tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  })
  .strict();

const CityFile = z
  .object({
    city: name,
    region: name,
    centroid: z.object({ lat, lng, source, precision_m: precision }).strict(),
    bounds: z.object({ south: lat, west: lng, north: lat, east: lng }).strict(),
    bounds_source: source,
    neighborhoods: z.array(Neighborhood).min(1),
  })
  .strict();
type CityFile = z.infer<typeof CityFile>;

/** What the resolver ignores: case, accents, spacing and punctuation. */
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

/** The file name a city's data lives under: lower-case ASCII. */
const slug = (city: string) => fold(city);

/** Great-circle distance in metres. */
function distanceM(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const r = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(r(bLat - aLat) / 2) ** 2 + Math.cos(r(aLat)) * Math.cos(r(bLat)) * Math.sin(r(bLng - aLng) / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.sqrt(h));
}

interface Point {
  what: string;
  lat: number;
  lng: number;
  precision_m: number;
  source: string;
}

/** Every point of a city: each quarter's, and each sub-quarter's own or, without one, its parent's. */
function points(c: CityFile): Point[] {
  return c.neighborhoods.flatMap((q) => [
    { what: q.name, lat: q.lat, lng: q.lng, precision_m: q.precision_m, source: q.source },
    ...q.sub_neighborhoods.map((s) =>
      s.lat === undefined
        ? { what: `${q.name} > ${s.name}`, lat: q.lat, lng: q.lng, precision_m: q.precision_m, source: q.source }
        : { what: `${q.name} > ${s.name}`, lat: s.lat, lng: s.lng!, precision_m: s.precision_m!, source: s.source! },
    ),
  ]);
}

/** Problems with a city's points: outside its bounds, or further than 25 km from its centroid. */
function misplaced(c: CityFile): string[] {
  const { south, west, north, east } = c.bounds;
  return points(c).flatMap((p) => {
    const out: string[] = [];
    if (p.lat < south || p.lat > north || p.lng < west || p.lng > east) out.push(`${p.what} outside the bounds`);
    const d = distanceM(c.centroid.lat, c.centroid.lng, p.lat, p.lng);
    if (d > 25_000) out.push(`${p.what} ${Math.round(d / 1000)} km from the centroid`);
    return out;
  });
}

/** Every name a city answers to (quarters, their aliases, sub-quarters and theirs), with what it belongs to. */
function names(c: CityFile): { folded: string; raw: string; owner: string }[] {
  return c.neighborhoods.flatMap((q) => [
    { folded: fold(q.name), raw: q.name, owner: q.name },
    ...q.aliases.map((a) => ({ folded: fold(a), raw: a, owner: q.name })),
    ...q.sub_neighborhoods.flatMap((s) => [
      { folded: fold(s.name), raw: s.name, owner: `${q.name} > ${s.name}` },
      ...s.aliases.map((a) => ({ folded: fold(a), raw: a, owner: `${q.name} > ${s.name}` })),
    ]),
  ]);
}

/** Names that fold to the same key: a name or alias that would resolve two ways, or an alias that adds nothing. */
function collisions(c: CityFile): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const n of names(c)) {
    const before = seen.get(n.folded);
    if (before !== undefined) out.push(`"${n.raw}" (${n.owner}) folds like a name of ${before}`);
    else seen.set(n.folded, n.owner);
  }
  return out;
}

const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const cities = new Map<string, CityFile>(files.map((f) => [f, CityFile.parse(JSON.parse(readFileSync(join(DIR, f), 'utf8')))]));
const bySlug = new Map([...cities.values()].map((c) => [slug(c.city), c]));
const byName = (city: string): CityFile => {
  const c = [...cities.values()].find((x) => x.city === city);
  if (!c) throw new Error(`no gazetteer file for ${city}`);
  return c;
};

describe('gazetteer data', () => {
  it('has one file per catalogue city, named after the city', () => {
    expect(files.sort()).toEqual(CITIES.map((c) => `${slug(c.name)}.json`).sort());
    for (const [file, c] of cities) expect(file).toBe(`${slug(c.city)}.json`);
    expect(bySlug.size).toBe(files.length);
  });

  it('places every city in Cameroon, with its centroid inside its bounds', () => {
    for (const c of cities.values()) {
      const { south, west, north, east } = c.bounds;
      expect(south, c.city).toBeLessThan(north);
      expect(west, c.city).toBeLessThan(east);
      for (const v of [south, north]) expect(v, c.city).toBeGreaterThanOrEqual(1.6);
      for (const v of [south, north]) expect(v, c.city).toBeLessThanOrEqual(13.1);
      for (const v of [west, east]) expect(v, c.city).toBeGreaterThanOrEqual(8.4);
      for (const v of [west, east]) expect(v, c.city).toBeLessThanOrEqual(16.2);
      expect(c.centroid.lat >= south && c.centroid.lat <= north && c.centroid.lng >= west && c.centroid.lng <= east, c.city).toBe(true);
    }
  });

  it('places every quarter and sub-quarter inside its city and within 25 km of its centroid', () => {
    for (const c of cities.values()) expect(misplaced(c), c.city).toEqual([]);
  });

  it('tells a point outside its city (the check can fail)', () => {
    const douala = structuredClone(byName('Douala'));
    const bali = douala.neighborhoods.find((q) => q.name === 'Bali')!;
    Object.assign(bali, { lat: 3.8667, lng: 11.5167 }); // Yaoundé's centre, about 200 km away
    expect(misplaced(douala)).toEqual(['Bali outside the bounds', expect.stringMatching(/^Bali 20\d km from the centroid$/)]);
    const moved = structuredClone(byName('Douala'));
    moved.bounds.east = 9.75; // the east of the city falls out
    expect(misplaced(moved).some((m) => m.startsWith('Japoma'))).toBe(true);
  });

  it('keeps every name unambiguous once case, accents, spacing and punctuation are folded', () => {
    for (const c of cities.values()) expect(collisions(c), c.city).toEqual([]);
    const twice = structuredClone(byName('Douala'));
    twice.neighborhoods[1].aliases.push('AKWA'); // Bonanjo given Akwa's name
    expect(collisions(twice)).toEqual(['"Akwa" (Akwa) folds like a name of Bonanjo']);
  });

  it("keeps every quarter of today's catalogue with its spelling and tier", () => {
    for (const city of CITIES) {
      const c = byName(city.name);
      const tiers = new Map(c.neighborhoods.map((q) => [q.name, q.tier]));
      for (const n of city.neighborhoods) expect(tiers.get(n.name), `${city.name} ${n.name}`).toBe(n.tier);
    }
  });

  it('counts on the order of a hundred quarters for Douala and Yaoundé, and more than the catalogue elsewhere', () => {
    expect(byName('Douala').neighborhoods.length).toBeGreaterThanOrEqual(90);
    expect(byName('Yaoundé').neighborhoods.length).toBeGreaterThanOrEqual(90);
    for (const city of CITIES) expect(byName(city.name).neighborhoods.length, city.name).toBeGreaterThanOrEqual(city.neighborhoods.length);
  });

  it('knows the quarter names a real crawl brought that the catalogue lacked', () => {
    const known = (city: string, raw: string) => names(byName(city)).some((n) => n.folded === fold(raw));
    const douala = ['Akwa I', 'Akwa II', 'PK 14', 'Makepe H', 'Logbessou I', 'Logbessou II', 'Ndogpassi I', 'Bonamouang'];
    const more = ['Malangue', 'Cité SIC', 'Youpwe', 'Koumassi', 'Ngodi', 'Bonadouma', 'Bonamikano', 'Mbanga Japoma'];
    for (const raw of [...douala, ...more]) expect(known('Douala', raw), raw).toBe(true);
    for (const raw of ['Biyem', 'Nkoldongo', 'Nkondengui', 'Ngoa-Ekellé', 'Mvog-Atangana Mballa'])
      expect(known('Yaoundé', raw), raw).toBe(true);
    expect(known('Douala', 'Akwa III')).toBe(false);
  });

  it('finds a sub-quarter under its parent', () => {
    const akwa = byName('Douala').neighborhoods.find((q) => q.name === 'Akwa')!;
    expect(akwa.sub_neighborhoods.map((s) => s.name)).toEqual(expect.arrayContaining(['Akwa I', 'Akwa II', 'Bonamouang']));
    const bonaberi = byName('Douala').neighborhoods.find((q) => q.name === 'Bonabéri')!;
    expect(bonaberi.sub_neighborhoods.map((s) => s.name)).toEqual(expect.arrayContaining(['Sodiko', 'Bojongo', 'Mabanda', 'Bonassama']));
  });

  it('gives every coordinate a source and an honest precision', () => {
    for (const c of cities.values()) {
      for (const p of [{ what: 'centroid', ...c.centroid }, ...points(c)]) {
        // An estimate placed from the map is not better than a kilometre; a cited point not better than 500 m,
        // since a source's point marks a place in the quarter, not its centroid.
        const floor = p.source === 'estimate' ? 1000 : 500;
        expect(p.precision_m, `${c.city} ${p.what}`).toBeGreaterThanOrEqual(floor);
        expect(
          p.source === 'estimate' || /geonames|openstreetmap|wikipedia|campost|memoireonline/i.test(p.source),
          `${c.city} ${p.what}`,
        ).toBe(true);
      }
    }
  });
});
