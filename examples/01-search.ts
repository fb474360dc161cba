/**
 * Search listings, look at one in detail, and read the quota.
 *
 *   npx tsx examples/01-search.ts [--city Douala] [--purpose sale] [--type villa] [--limit 10]
 */
import type { ListingSearchParams, PropertyType, Purpose } from '@mboa/sdk';
import { client, flags, run, table, xaf } from './shared.js';

const args = flags(
  `
Search listings, then show the first one with its price history.

  --city NAME        city (accents and case do not matter), default Douala
  --purpose PURPOSE  sale, rent or furnished_rent, default sale
  --type TYPE        villa, house, apartment, studio, duplex, room, land, office, shop, warehouse
  --limit N          listings to show, 1 to 200, default 10
`,
  {
    city: { type: 'string', default: 'Douala' },
    purpose: { type: 'string', default: 'sale' },
    type: { type: 'string' },
    limit: { type: 'string', default: '10' },
  },
);

run(async () => {
  const mboa = client('starter');
  const params: ListingSearchParams = {
    city: args.city,
    purpose: args.purpose as Purpose,
    type: args.type as PropertyType | undefined,
    limit: Number(args.limit),
    sort: '-listed_at',
  };

  // One page: awaiting a search gives the first page only.
  const page = await mboa.listings.search(params);
  console.log(`${page.meta.total} listings match ${JSON.stringify(params)}; the ${page.meta.returned} newest:\n`);
  console.log(
    table(
      ['id', 'type', 'neighborhood', 'bedrooms', 'm²', 'price (XAF)', 'XAF/m²', 'listed'],
      page.data.map((l) => [
        l.id,
        l.type,
        l.neighborhood ?? '?',
        String(l.bedrooms ?? '?'),
        String(l.surface ?? '?'),
        xaf(l.price),
        xaf(l.price_per_m2),
        l.listed_at.slice(0, 10),
      ]),
      new Set([0, 1, 2]),
    ),
  );

  const first = page.data[0];
  if (first) {
    const { data: listing } = await mboa.listings.get(first.id);
    console.log(`\n${listing.title} (${listing.city}, ${listing.neighborhood})`);
    console.log(`  ${listing.status}, ${listing.days_on_market} days on the market; price history:`);
    for (const change of listing.price_history) console.log(`  ${change.date.slice(0, 10)}  ${xaf(change.price)} XAF`);
  }

  // Every answer reports the quota; ping reads it without being counted.
  const { meta } = await mboa.ping();
  const q = meta.quota;
  console.log(`\nQuota (${q.plan}): ${q.used} calls used, ${q.remaining ?? 'unlimited'} left until ${q.resets_at}`);
});
