/**
 * `POST /api/v1/valuations/batch` of 1,000 subjects on a large database, through the full
 * chain (key → plan → heavy-read admission → rate limit → quota → per subject: schema,
 * places, comparables SQL, model → one quota call per subject valued), beside the single
 * `GET /api/v1/valuations` p50 on the same data and subjects. Subjects: the busiest cells
 * of the data with a typical surface and bedrooms, repeated with a bedroom more or less to
 * fill the batch. Redis is used for the quota when REDIS_URL is set (as in production).
 *
 *   DATABASE_URL=postgresql://… [REDIS_URL=redis://…] npx tsx bench/valuations-batch.ts [--batches 5] [--size 1000] [--singles 300]
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { benchServer, loopbackDatabase } from './loopback.js';
import { openDatabase } from '../server/platform/db.js';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '5' },
    size: { type: 'string', default: '1000' },
    singles: { type: 'string', default: '300' },
  },
});
const url = loopbackDatabase('a seeded database: npm run admin -- seed --listings 1000000');
const db = openDatabase(url, { max: 2 });
const { rows: count } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings');
const { rows: cells } = await db.pool.query<Record<string, string | number>>(
  `SELECT city, min(neighborhood) AS neighborhood, type::text AS type, purpose::text AS purpose,
          round(percentile_disc(0.5) WITHIN GROUP (ORDER BY surface))::int AS surface,
          percentile_disc(0.5) WITHIN GROUP (ORDER BY bedrooms) AS bedrooms
   FROM listings WHERE neighborhood IS NOT NULL AND surface IS NOT NULL AND bedrooms IS NOT NULL
   GROUP BY city, neighborhood_key, type, purpose ORDER BY count(*) DESC LIMIT 200`,
);
await db.close();
const size = Number(values.size);
const subjects = Array.from({ length: size }, (_, i) => {
  const c = cells[i % cells.length];
  return { ...c, bedrooms: Math.max(0, Number(c.bedrooms) + (Math.floor(i / cells.length) % 3) - 1) };
});

const startAt = performance.now();
const { server, base, key } = await benchServer(url, process.env.REDIS_URL);
await server.fitValuations();
console.log(
  `${count[0].n.toLocaleString('en-US')} listings; Mboa ready (model fitted) ${((performance.now() - startAt) / 1000).toFixed(1)} s after start${process.env.REDIS_URL ? ', quota in Redis' : ', quota in PostgreSQL'}`,
);

const paths = cells.map((s) => `/api/v1/valuations?${new URLSearchParams(Object.entries(s).map(([k, v]) => [k, String(v)]))}`);
const single = () =>
  autocannon({
    url: base,
    headers: { 'X-API-Key': key },
    connections: 1,
    amount: Number(values.singles),
    duration: 120,
    requests: paths.map((path) => ({ method: 'GET', path })),
  });
await single(); // warm-up: pool connections, plans, the place check's caches
const one = await single();
console.log(`single GET /valuations, 1 connection: p50 ${one.latency.p50} ms  p90 ${one.latency.p90} ms  non-2xx ${one.non2xx}`);

const body = JSON.stringify({ subjects });
const times: number[] = [];
for (let i = 0; i < Number(values.batches); i++) {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/valuations/batch`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  const answer = JSON.parse(text) as { meta?: { valued: number }; data?: Array<{ status: number }> };
  times.push(ms);
  const statuses = new Map<number, number>();
  for (const it of answer.data ?? []) statuses.set(it.status, (statuses.get(it.status) ?? 0) + 1);
  console.log(
    `batch of ${size.toLocaleString('en-US')}: HTTP ${res.status} in ${(ms / 1000).toFixed(2)} s, ${(Buffer.byteLength(text) / 1e6).toFixed(1)} MB, ${answer.meta?.valued ?? 0} valued (${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')})`,
  );
}
times.sort((a, b) => a - b);
console.log(
  `batch of ${size.toLocaleString('en-US')}: median ${(times[Math.floor(times.length / 2)] / 1000).toFixed(2)} s, best ${(times[0] / 1000).toFixed(2)} s`,
);
await server.close();
