/**
 * What is on offer: property type, purpose, rooms and surface, drawn so that they
 * agree with each other the way they do on Cameroonian portals (a studio has at most one
 * bedroom, land none and no bathroom, shops and offices no bedroom). Prices come from the
 * price model (price-model.ts), once the generator knows what the advert says.
 *
 * Weighted tables are built once at load: the generator draws millions of rows.
 */
import type { Tier } from '../../contract/places.js';
import type { PropertyType, Purpose } from './kinds.js';
import { type Random, weightedTable } from './random.js';

const TYPE_WEIGHTS: Record<PropertyType, number> = {
  apartment: 24,
  studio: 14,
  room: 8,
  house: 12,
  villa: 10,
  duplex: 6,
  land: 14,
  office: 5,
  shop: 5,
  warehouse: 2,
};

/** Prime districts have more villas and fewer rooms to let; popular ones the reverse. */
const TIER_TYPE_BIAS: Partial<Record<PropertyType, [number, number, number]>> = {
  villa: [2, 1, 0.4],
  duplex: [1.5, 1.2, 0.6],
  room: [0.3, 0.9, 1.6],
  studio: [0.8, 1.1, 1],
  warehouse: [0.3, 0.8, 1.8],
  land: [0.5, 1, 1.4],
};

/** Shares of sale, rent and furnished rent per type. Studios and rooms are rarely sold. */
const PURPOSE_SHARES: Record<PropertyType, [number, number, number]> = {
  villa: [0.45, 0.4, 0.15],
  duplex: [0.35, 0.45, 0.2],
  house: [0.45, 0.55, 0],
  apartment: [0.12, 0.63, 0.25],
  studio: [0, 0.65, 0.35],
  room: [0, 0.85, 0.15],
  land: [1, 0, 0],
  office: [0.15, 0.85, 0],
  shop: [0.15, 0.85, 0],
  warehouse: [0.3, 0.7, 0],
};

/** Prime districts have larger homes. */
const ROOMY: Record<Tier, number> = { 1: 1.2, 2: 1, 3: 0.9 };

const TYPES = Object.keys(TYPE_WEIGHTS) as PropertyType[];
const TYPE_TABLES = ([1, 2, 3] as Tier[]).map((tier) =>
  weightedTable(TYPES.map((t) => [t, TYPE_WEIGHTS[t] * (TIER_TYPE_BIAS[t]?.[tier - 1] ?? 1)] as const)),
);
const PURPOSE_TABLES = Object.fromEntries(
  TYPES.map((t) => {
    const [sale, rent, furnished] = PURPOSE_SHARES[t];
    return [
      t,
      weightedTable<Purpose>([
        ['sale', sale],
        ['rent', rent],
        ['furnished_rent', furnished],
      ]),
    ];
  }),
) as Record<PropertyType, ReturnType<typeof weightedTable<Purpose>>>;
const APARTMENT_BEDROOMS = weightedTable([
  [1, 20],
  [2, 40],
  [3, 30],
  [4, 10],
] as const);
/** Plot sizes as sold; large plots exist only away from the prime districts. */
const LAND_PLOTS: Record<Tier, number[]> = {
  1: [200, 250, 300, 400, 500, 500, 600, 800, 1000, 1500],
  2: [200, 250, 300, 400, 500, 500, 500, 600, 800, 1000, 1000, 1500, 2000, 5000],
  3: [300, 400, 500, 500, 500, 600, 800, 1000, 1000, 1500, 2000, 5000, 10000],
};

export interface Property {
  type: PropertyType;
  purpose: Purpose;
  bedrooms: number;
  bathrooms: number;
  surface: number;
}

function around(rng: Random, base: number, tier: Tier): number {
  return Math.round(base * ROOMY[tier] * rng.between(0.85, 1.2));
}

/** Fills bedrooms, bathrooms and surface of `p` for its type. */
function fillRooms(rng: Random, p: Property, tier: Tier): void {
  switch (p.type) {
    case 'studio':
      p.bedrooms = rng.chance(0.4) ? 0 : 1;
      p.bathrooms = 1;
      p.surface = rng.int(18, 40);
      return;
    case 'room':
      p.bedrooms = 1;
      p.bathrooms = rng.chance(0.5) ? 1 : 0;
      p.surface = rng.int(9, 20);
      return;
    case 'apartment':
      p.bedrooms = rng.draw(APARTMENT_BEDROOMS);
      p.bathrooms = rng.int(1, p.bedrooms);
      p.surface = around(rng, 30 + p.bedrooms * 25, tier);
      return;
    case 'house':
      p.bedrooms = rng.int(2, 5);
      p.bathrooms = rng.int(1, p.bedrooms);
      p.surface = around(rng, 70 + p.bedrooms * 30, tier);
      return;
    case 'duplex':
      p.bedrooms = rng.int(3, 6);
      p.bathrooms = rng.int(2, p.bedrooms + 1);
      p.surface = around(rng, 150 + p.bedrooms * 35, tier);
      return;
    case 'villa':
      p.bedrooms = rng.int(3, 7);
      p.bathrooms = rng.int(2, p.bedrooms + 1);
      p.surface = around(rng, 200 + p.bedrooms * 60, tier);
      return;
    case 'land':
      p.bedrooms = 0;
      p.bathrooms = 0;
      p.surface = rng.pick(LAND_PLOTS[tier]);
      return;
    case 'office':
      p.bedrooms = 0;
      p.bathrooms = rng.int(1, 3);
      p.surface = rng.int(25, 400);
      return;
    case 'shop':
      p.bedrooms = 0;
      p.bathrooms = rng.int(0, 1);
      p.surface = rng.int(12, 150);
      return;
    case 'warehouse':
      p.bedrooms = 0;
      p.bathrooms = rng.int(0, 2);
      p.surface = rng.int(20, 300) * 10;
      return;
  }
}

/** Type, purpose, rooms and surface; the price comes from the price model (generator.ts). */
export function drawProperty(rng: Random, tier: Tier): Property {
  const type = rng.draw(TYPE_TABLES[tier - 1]);
  const p: Property = { type, purpose: rng.draw(PURPOSE_TABLES[type]), bedrooms: 0, bathrooms: 0, surface: 0 };
  fillRooms(rng, p, tier);
  return p;
}
