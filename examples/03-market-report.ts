/**
 * A market report: price statistics per city, then the neighbourhoods that moved most
 * over the last 30 days. Trends are in the Pro and Enterprise plans, so by default this
 * uses the demo Pro key; with a Starter key (MBOA_API_KEY) it prints the statistics,
 * explains why trends are missing, and exits 1.
 *
 *   npx tsx examples/03-market-report.ts [--city Douala] [--purpose sale] [--type villa] [--top 15]
 */
import { PlanForbiddenError, type MarketTrend, type PropertyType, type Purpose } from '@mboa/sdk';
import { client, flags, run, table, xaf } from './shared.js';

const args = flags(
  `
Market statistics per city and 30-day trends per neighbourhood.

  --city NAME        one city (all cities when absent)
  --purpose PURPOSE  sale, rent or furnished_rent (every purpose when absent)
  --type TYPE        one property type (every type together when absent)
  --top N            trend rows to show, most new listings first (default 15)
`,
  {
    city: { type: 'string' },
    purpose: { type: 'string' },
    type: { type: 'string' },
    top: { type: 'string', default: '15' },
  },
);

const pct = (v: number | null) => (v === null ? '-' : `${v > 0 ? '+' : ''}${v.toFixed(1)} %`);

run(async () => {
  const mboa = client('pro');
  const filters = { city: args.city, purpose: args.purpose as Purpose | undefined, type: args.type as PropertyType | undefined };

  const stats = await mboa.market.stats(filters);
  const asOf = stats.data[0]?.as_of ?? '-';
  console.log(`Market statistics over active listings (computed ${asOf}), prices in XAF (rents per month)\n`);
  console.log(
    table(
      ['city', 'purpose', 'type', 'listings', 'median', 'average', 'min', 'max', 'avg / m²'],
      stats.data
        .sort((a, b) => a.city.localeCompare(b.city) || a.purpose.localeCompare(b.purpose))
        .map((s) => [
          s.city,
          s.purpose,
          s.type ?? 'all',
          String(s.volume),
          xaf(s.median_price),
          xaf(s.avg_price),
          xaf(s.min_price),
          xaf(s.max_price),
          xaf(s.avg_price_per_m2),
        ]),
      new Set([0, 1, 2]),
    ),
  );

  let trends: MarketTrend[];
  try {
    trends = (await mboa.market.trends(filters)).data;
  } catch (err) {
    if (err instanceof PlanForbiddenError) {
      console.error(`\nNo trends: ${err.detail} Set MBOA_API_KEY to a Pro or Enterprise key.`);
      process.exit(1);
    }
    throw err;
  }

  const top = trends
    .filter((t) => t.new_listings > 0)
    .sort((a, b) => b.new_listings - a.new_listings || a.neighborhood.localeCompare(b.neighborhood))
    .slice(0, Number(args.top));
  const period = trends[0] ? `${trends[0].period_start.slice(0, 10)} to ${trends[0].period_end.slice(0, 10)}` : 'last 30 days';
  console.log(`\nMost active neighbourhoods, ${period}, against the 30 days before\n`);
  console.log(
    table(
      ['city', 'neighborhood', 'type', 'purpose', 'new', 'change', 'median', 'average', 'avg change', 'avg / m²'],
      top.map((t) => [
        t.city,
        t.neighborhood,
        t.type,
        t.purpose,
        String(t.new_listings),
        pct(t.new_listings_change_pct),
        xaf(t.median_price),
        xaf(t.avg_price),
        pct(t.avg_price_change_pct),
        xaf(t.avg_price_per_m2),
      ]),
      new Set([0, 1, 2, 3]),
    ),
  );
  console.log(`\n${trends.length} neighbourhood rows in all; ${mboa.quota?.remaining ?? 'unlimited'} calls left this month.`);
});
