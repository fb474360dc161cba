/**
 * Market figures on the seeded database: how long one rebuild of the precomputed tables
 * takes (stats per city and neighbourhood with quartiles, trends, known places), and the
 * latency of /market/stats, /market/trends and a search with a place check through the
 * full chain (key → plan → rate limit → quota → SQL), with autocannon on loopback only,
 * bounded in requests and time. Reads the tables; never scans listings per call.
 *
 *   DATABASE_URL=postgresql://… npx tsx bench/market.ts [--connections 10] [--amount 2000] [--refreshes 3]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../server/platform/db.js';
import { refreshMarketFigures } from '../server/ingest/market-refresh.js';
import { benchServer, loopbackDatabase } from './loopback.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    amount: { type: 'string', default: '2000' },
    refreshes: { type: 'string', default: '3' },
  },
});
const url = loopbackDatabase('a seeded database: npm run admin -- seed --listings N');

const db = openDatabase(url, { max: 10 });
const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings');

const seconds: number[] = [];
for (let i = 0; i < Number(values.refreshes); i++) {
  const started = performance.now();
  await refreshMarketFigures(db.pool);
  seconds.push((performance.now() - started) / 1000);
}
const counts = await db.pool.query<{ stats: number; trends: number; places: number }>(
  'SELECT (SELECT count(*) FROM market_stats)::int AS stats, (SELECT count(*) FROM market_trends)::int AS trends, (SELECT count(*) FROM places)::int AS places',
);
console.log(`${rows[0].n} listings; market refresh (VACUUM ANALYZE included): ${seconds.map((s) => `${s.toFixed(1)} s`).join(', ')}`);
console.log(`tables: ${counts.rows[0].stats} stats rows, ${counts.rows[0].trends} trend rows, ${counts.rows[0].places} places`);

const { server, base, key } = await benchServer(url);

async function run(title: string, path: string) {
  const result = await autocannon({
    url: `${base}${path}`,
    headers: { 'X-API-Key': key },
    connections: Number(values.connections),
    amount: Number(values.amount),
    duration: 60,
  });
  console.log(
    `${title.padEnd(44)} p50 ${result.latency.p50} ms  p90 ${result.latency.p90} ms  p99 ${result.latency.p99} ms  ${Math.round(result.requests.average)} req/s  non-2xx ${result.non2xx}`,
  );
  return result;
}

console.log(`${values.amount} requests per case, ${values.connections} connections`);
await run('stats, every city', '/api/v1/market/stats');
await run('stats, one neighbourhood per type, EUR', '/api/v1/market/stats?city=Douala&neighborhood=Bonapriso&type=villa&currency=EUR');
await run('trends, one city', '/api/v1/market/trends?city=Yaounde');
await run('trends, every row', '/api/v1/market/trends');
await run('search, city + neighbourhood (place check)', '/api/v1/listings?city=Douala&neighborhood=Bonapriso&limit=20');
await run('ping (chain only)', '/api/v1/ping');
await server.close();
await db.close();
