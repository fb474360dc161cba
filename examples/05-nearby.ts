/**
 * Every listing within 1 km of a point, nearest first.
 *
 *   npx tsx examples/05-nearby.ts [--lat 4.0483] [--lng 9.7043] [--radius 1000] [--purpose rent]
 */
import type { Listing, Purpose } from '@mboa/sdk';
import { client, flags, run, table, xaf } from './shared.js';

const args = flags(
  `
Every listing within --radius metres of a point (default: 1 km around Akwa, Douala), nearest first.
Listings located only by their city are never found; those at their quarter's centroid are,
with precision "neighborhood".

  --lat LAT          latitude, decimal degrees, default 4.0483
  --lng LNG          longitude, decimal degrees, default 9.7043
  --radius METRES    1 to 50000, default 1000
  --purpose PURPOSE  sale, rent or furnished_rent (default: all)
`,
  {
    lat: { type: 'string', default: '4.0483' },
    lng: { type: 'string', default: '9.7043' },
    radius: { type: 'string', default: '1000' },
    purpose: { type: 'string' },
  },
);

run(async () => {
  const mboa = client('starter');
  const near: [number, number] = [Number(args.lat), Number(args.lng)];
  // Iterating the search walks every page (200 listings a call, the fewest calls of your quota).
  const found: Listing[] = [];
  for await (const listing of mboa.listings.search({
    near,
    radius_m: Number(args.radius),
    sort: 'distance',
    purpose: args.purpose as Purpose | undefined,
    limit: 200,
  })) {
    found.push(listing);
  }
  console.log(`${found.length} listings within ${args.radius} m of ${near.join(',')}, nearest first:\n`);
  console.log(
    table(
      ['id', 'distance', 'precision', 'neighbourhood', 'type', 'purpose', 'price (XAF)'],
      found.map((l) => [l.id, `${l.distance_m} m`, l.location?.precision ?? '-', l.neighborhood ?? '-', l.type, l.purpose, xaf(l.price)]),
      new Set([0, 2, 3, 4, 5]),
    ),
  );
});
