/**
 * Valuations on a large database, side by side: Mboa's `GET /api/v1/valuations` through
 * the full chain (key → plan → rate limit → quota → places → comparables SQL → model),
 * and a bare `node:http` server in the same process that calls the very same valuation
 * function (same comparables SQL, same model) with nothing else. Both answer the same
 * rotating subjects (real quarters, types and purposes of the data, with a typical surface
 * and bedrooms); autocannon on loopback, bounded in requests. The model is fitted before
 * either is measured: once here for the bare server, and by Mboa itself when it starts
 * (its valuations answer 503 until then: the run waits for that fit, and times it).
 *
 *   DATABASE_URL=postgresql://… npx tsx bench/valuations.ts [--connections 10] [--amount 4000] [--subjects 200]
 *
 * Measured 2026-11-25 at 961,650 listings on 2 shared cores (load average 3.5 to 5.5; no
 * idle machine to be had): model ready 3.5 to 3.9 s after start (fit 2.8 to 4.1 s; 15 to
 * 18 s before the fit's SQL was reworked). --connections 1: bare p50 3 ms, 250 req/s; Mboa
 * p50 4 ms, 200 req/s; ratio 0.80. --connections 10: bare p50 24 ms, 400 req/s; Mboa p50
 * 30 ms (the queue: 10 / 308 req/s), 308 req/s; ratio 0.77. Before the comparables
 * indexes (load 13 to 18): p50 317 / 365 ms, ratio 0.84. Details: bench/README.md.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ZValuationQuery } from '../contract/valuations.js';
import { live } from '../server/domain/listing/dataset.js';
import { effectiveFilters } from '../server/domain/listing/filters.js';
import { fitModel } from '../server/domain/valuations/sql.js';
import { valuation } from '../server/domain/valuations/valuation.js';
import { openDatabase } from '../server/platform/db.js';
import { benchServer, loopbackDatabase } from './loopback.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    amount: { type: 'string', default: '4000' },
    subjects: { type: 'string', default: '200' },
  },
});
const url = loopbackDatabase('a seeded database: npm run admin -- seed --listings 1000000');
const db = openDatabase(url, { max: 10 });
const data = live(db.pool);

const { rows: count } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings');
const fitStart = performance.now();
const model = await fitModel(data);
console.log(`${count[0].n.toLocaleString('en-US')} listings; model fitted in ${((performance.now() - fitStart) / 1000).toFixed(1)} s`);

// Subjects: the busiest cells of the data (where valuations are asked), with a typical surface and bedrooms.
const { rows: subjects } = await db.pool.query<Record<string, string | number>>(
  `SELECT city, min(neighborhood) AS neighborhood, type::text AS type, purpose::text AS purpose,
          round(percentile_disc(0.5) WITHIN GROUP (ORDER BY surface))::int AS surface,
          percentile_disc(0.5) WITHIN GROUP (ORDER BY bedrooms) AS bedrooms
   FROM listings WHERE neighborhood IS NOT NULL AND surface IS NOT NULL AND bedrooms IS NOT NULL
   GROUP BY city, neighborhood_key, type, purpose ORDER BY count(*) DESC LIMIT $1`,
  [Number(values.subjects)],
);
const paths = subjects.map((s) => `/api/v1/valuations?${new URLSearchParams(Object.entries(s).map(([k, v]) => [k, String(v)]))}`);

const bare = createServer((req, res) => {
  const q = ZValuationQuery.parse(Object.fromEntries(new URL(req.url!, 'http://x').searchParams));
  valuation(data, q, effectiveFilters({ city: q.city, neighborhood: q.neighborhood }), model).then(
    (body) => {
      const json = JSON.stringify({ data: body, meta: { request_id: 'req_bare' } });
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
      res.end(json);
    },
    (e: { status?: number }) => {
      res.writeHead(e.status ?? 500);
      res.end();
    },
  );
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareBase = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;
const startAt = performance.now();
const { server, base, key } = await benchServer(url);
// The server fits its own model when it starts (valuations answer 503 until then): measured once it is done.
await server.fitValuations();
console.log(
  `Mboa listening, then its model fitted in the background: ready ${((performance.now() - startAt) / 1000).toFixed(1)} s after start`,
);

async function run(title: string, target: string, headers: Record<string, string>) {
  const result = await autocannon({
    url: target,
    headers,
    connections: Number(values.connections),
    amount: Number(values.amount),
    duration: 120,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
  console.log(
    `${title.padEnd(28)} p50 ${result.latency.p50} ms  p90 ${result.latency.p90} ms  p99 ${result.latency.p99} ms  ${Math.round(result.requests.average)} req/s  non-2xx ${result.non2xx}`,
  );
  return result;
}

console.log(`${paths.length} subjects, ${values.amount} requests per run, ${values.connections} connections`);
// Warm both (pool connections, plans, caches of the place check), then measure each twice, alternating.
await run('warm-up (bare)', bareBase, {});
await run('warm-up (Mboa)', base, { 'X-API-Key': key });
const results: Record<'bare' | 'mboa', number[]> = { bare: [], mboa: [] };
for (let i = 0; i < 2; i++) {
  results.bare.push((await run('bare server, same SQL', bareBase, {})).requests.average);
  results.mboa.push((await run('Mboa, full chain', base, { 'X-API-Key': key })).requests.average);
}
const best = (xs: number[]) => Math.max(...xs);
console.log(`throughput ratio Mboa / bare: ${(best(results.mboa) / best(results.bare)).toFixed(2)} (best of two runs each)`);
await server.close();
bare.close();
await db.close();
