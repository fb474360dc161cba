/**
 * Search latency on the seeded database, through the full chain (key → plan → rate limit
 * → quota → SQL), with autocannon on loopback only, bounded in requests and time.
 * Reports latency percentiles and, side by side in the same run, the ratio between a deep
 * page (via its cursor) and page 1: keyset pagination should keep it near 1.
 *
 *   DATABASE_URL=postgresql://… npx tsx bench/search.ts [--connections 10] [--amount 2000]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchServer, loopbackDatabase } from './loopback.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    amount: { type: 'string', default: '2000' },
    depth: { type: 'string', default: '50' },
  },
});
const { server: bench, base, key } = await benchServer(loopbackDatabase('a seeded database: npm run admin -- seed --listings N'));
const { rows } = await bench.db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM listings WHERE status = 'active'");

const query = '/api/v1/listings?city=Douala&purpose=sale&limit=50';
let cursor: string | null = null;
for (let i = 0; i < Number(values.depth); i++) {
  const res = await fetch(`${base}${query}${cursor ? `&cursor=${cursor}` : ''}`, { headers: { 'X-API-Key': key } });
  const body = (await res.json()) as { meta: { next_cursor: string | null } };
  if (!body.meta.next_cursor) break;
  cursor = body.meta.next_cursor;
}

async function run(title: string, path: string) {
  const result = await autocannon({
    url: `${base}${path}`,
    headers: { 'X-API-Key': key },
    connections: Number(values.connections),
    amount: Number(values.amount),
    duration: 60,
  });
  const non2xx = result.non2xx;
  console.log(
    `${title.padEnd(34)} p50 ${result.latency.p50} ms  p90 ${result.latency.p90} ms  p99 ${result.latency.p99} ms  ${Math.round(result.requests.average)} req/s  non-2xx ${non2xx}`,
  );
  return result;
}

console.log(`${rows[0].n} active listings; ${values.amount} requests per case, ${values.connections} connections`);
const first = await run('page 1 (city+purpose, limit 50)', query);
const deep = await run(`page ${values.depth} (same search, by cursor)`, `${query}&cursor=${cursor}`);
const detail = await run('ping (chain only)', '/api/v1/ping');
console.log(`deep page / page 1 latency ratio (p50): ${(deep.latency.p50 / Math.max(first.latency.p50, 0.01)).toFixed(2)}`);
console.log(`page 1 / ping latency ratio (p50): ${(first.latency.p50 / Math.max(detail.latency.p50, 0.01)).toFixed(2)}`);
await bench.close();
