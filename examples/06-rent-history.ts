/**
 * Rents a year apart: for Douala's quarters, the median monthly rent of a 2-bedroom flat
 * in the last complete month and in the same month a year before, from the monthly
 * market history (Pro and Enterprise; by default the demo Pro key). A median resting on
 * fewer than 5 listings is not given ("-"): the API returns null rather than a number from
 * two adverts. With `--csv FILE` it also saves the city's whole series as CSV.
 *
 *   npx tsx examples/06-rent-history.ts [--city Douala] [--bedrooms 2] [--type apartment] [--csv douala.csv]
 */
import { writeFileSync } from 'node:fs';
import type { PropertyType } from '@mboa/sdk';
import { client, flags, run, table, xaf } from './shared.js';

const args = flags(
  `
Median rent now and a year ago, per quarter.

  --city NAME           the city (default Douala)
  --neighborhoods LIST  neighborhoods, separated by commas (default: Douala's best-known ones)
  --type TYPE           property type (default apartment)
  --bedrooms N          bedrooms, 0 to 5 (5: 5 or more; default 2)
  --csv FILE            also save the city's 24 months as CSV
`,
  {
    city: { type: 'string', default: 'Douala' },
    neighborhoods: {
      type: 'string',
      default: 'Bonapriso,Bonanjo,Akwa,Bali,Deïdo,Bonamoussadi,Makepe,Kotto,Logpom,Cité des Palmiers,Ndogbong,Bonabéri,Japoma,PK14',
    },
    type: { type: 'string', default: 'apartment' },
    bedrooms: { type: 'string', default: '2' },
    csv: { type: 'string' },
  },
);

const pct = (v: number | null) => (v === null ? '-' : `${v > 0 ? '+' : ''}${v.toFixed(1)} %`);

run(async () => {
  const mboa = client('pro');
  const series = {
    city: args.city,
    purpose: 'rent' as const,
    type: args.type as PropertyType,
    bedrooms: Number(args.bedrooms),
    months: 13,
  };
  const rows: string[][] = [];
  let month = '';
  for (const neighborhood of args.neighborhoods.split(',').map((q) => q.trim())) {
    const { data } = await mboa.market.history({ ...series, neighborhood });
    const [yearAgo, now] = [data[0]!, data[data.length - 1]!];
    month = now.month;
    rows.push([
      now.neighborhood ?? neighborhood,
      xaf(now.median_price),
      String(now.sample_size),
      xaf(yearAgo.median_price),
      String(yearAgo.sample_size),
      pct(now.median_price_change_pct),
    ]);
  }
  console.log(`Median monthly rent (XAF) of a ${args.bedrooms}-bedroom ${args.type} in ${args.city}, ${month} against a year before\n`);
  console.log(table(['quarter', 'now', 'listings', 'a year ago', 'listings', 'change'], rows));
  if (args.csv) {
    const csv = await mboa.market.history({ ...series, months: 24 }, { format: 'csv' });
    writeFileSync(args.csv, csv);
    console.log(`\n${args.city}'s last 24 months saved to ${args.csv}`);
  }
});
