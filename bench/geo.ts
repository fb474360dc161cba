/**
 * Geographic search against a bare server running the same SQL: page 1 of a radius search
 * (2 km around central Douala, Akwa), the same nearest first, and a box around it.
 * Mboa's production server (whole chain: key, plan, limits and quota in Redis) side by
 * side with `bench/bare-server.ts` (the same query functions, nothing else: no key, no
 * validation, no cache, so it recounts every total). Both run under tsx; autocannon in
 * this process, on loopback; each case runs `--duration` s on one server then the other,
 * `--rounds` times in turn; the table gives the medians and each round's ratio.
 *
 *   DATABASE_URL=postgresql://127.0.0.1:5432/mboa_bench_geo REDIS_URL=redis://127.0.0.1:6379/12 \
 *     node --import tsx bench/geo.ts [--duration 8] [--rounds 3] [--connections 16]
 *
 * It also prints EXPLAIN ANALYZE of each case's page query, the SQL searchListings runs
 * (server/api/listings/geo-page.ts: the grid cells by date, the GiST walk by distance).
 * `--connections 1` gives the latency of one call alone.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { migrationStatus } from '../prisma/migration-status.js';
import { createAccount } from '../server/accounts/accounts.js';
import { ZListingsQuery } from '../contract/schemas.js';
import { CursorCodec } from '../server/api/listings/cursor.js';
import { effectiveFilters, listingFilterSql } from '../server/domain/listing/filters.js';
import { searchListings } from '../server/api/listings/search.js';
import { openDatabase } from '../server/platform/db.js';
import { randomId } from '../server/platform/ids.js';
import { loopbackServices, productionEnv, startChild, waitReady } from './loopback.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    'mboa-port': { type: 'string', default: '3992' },
    'bare-port': { type: 'string', default: '3993' },
  },
});

const { databaseUrl, redisUrl } = loopbackServices('a seeded database: npm run admin -- seed --listings 1000000');
const db = openDatabase(databaseUrl, { max: 2 });
const status = await migrationStatus(db.pool);
if (status.pending.length) {
  console.error(`pending migrations: ${status.pending.join(', ')} (npm run db:migrate)`);
  process.exit(2);
}
const AKWA = { lat: 4.0483, lng: 9.7043 };
const CASES = [
  { name: 'radius 2 km around Akwa, page 1, 50 rows (newest first)', query: `near=${AKWA.lat},${AKWA.lng}&radius_m=2000&limit=50` },
  { name: 'same, sort=distance', query: `near=${AKWA.lat},${AKWA.lng}&radius_m=2000&sort=distance&limit=50` },
  { name: 'bbox around Akwa (about 4 × 4 km), page 1, 50 rows', query: 'bbox=9.686,4.030,9.722,4.066&limit=50' },
];

const { rows: count } = await db.pool.query<{ n: number; geo: number }>(
  "SELECT count(*) FILTER (WHERE status = 'active')::int AS n, count(geo_lat)::int AS geo FROM listings",
);
const filters = effectiveFilters({ near: AKWA, radius_m: 2000, status: 'active' });
const where = listingFilterSql(filters, 'l');
const { rows: matched } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM listings l ${where.where()}`, where.params);
/** EXPLAIN ANALYZE of the page query the search runs for a case (captured from searchListings itself), run twice: the second, warm, is printed. */
async function pagePlan(query: string): Promise<string[]> {
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const capture = {
    query: (sql: string, params: unknown[]) => {
      seen.push({ sql, params });
      return db.pool.query(sql, params);
    },
  };
  const q = ZListingsQuery.parse(Object.fromEntries(new URLSearchParams(query)));
  await searchListings(
    { pool: capture as never, schema: 'public' },
    new CursorCodec(['bench-cursor-secret-0123456789-abcdefgh']),
    q,
    effectiveFilters(q),
  );
  const page = seen.find((x) => x.sql.includes('WITH hits'))!;
  await db.pool.query(`EXPLAIN ANALYZE ${page.sql}`, page.params);
  const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ANALYZE ${page.sql}`, page.params);
  return rows.map((r) => r['QUERY PLAN']);
}
const plans: string[] = [];
for (const c of CASES) plans.push(`${c.name}:\n${(await pagePlan(c.query)).map((l) => `    ${l}`).join('\n')}`);
const { key } = await createAccount(db.prisma, {
  email: `${randomId('bench')}@bench.mboa.cm`,
  plan: 'enterprise',
  monthlyQuotaOverride: 1_000_000_000,
  rateLimitOverride: 100_000_000,
});
await db.close();

const mboaPort = Number(values['mboa-port']);
const barePort = Number(values['bare-port']);
const mboa = startChild(process.execPath, ['--import', 'tsx', 'server/start/main.ts'], {
  ...productionEnv({ databaseUrl, redisUrl, port: mboaPort }),
  LOG_LEVEL: 'warn',
});
const bare = startChild(process.execPath, ['--import', 'tsx', 'bench/bare-server.ts'], {
  DATABASE_URL: databaseUrl,
  PORT: String(barePort),
});

async function load(base: string, path: string, seconds: number) {
  const r = await autocannon({
    url: `${base}${path}`,
    headers: { 'X-API-Key': key },
    connections: Number(values.connections),
    duration: seconds,
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  await waitReady(`http://127.0.0.1:${mboaPort}/readyz`);
  await waitReady(`http://127.0.0.1:${barePort}/api/v1/ping`);
  console.log(
    `${count[0].n.toLocaleString('en-US')} active listings (${count[0].geo.toLocaleString('en-US')} with a searchable point); ` +
      `${matched[0].n.toLocaleString('en-US')} active within 2 km of Akwa\n\nEXPLAIN ANALYZE of each case's page query (warm):\n${plans.join('\n\n')}\n`,
  );
  console.log(
    `autocannon ${values.connections} connections, ${values.rounds} rounds of ${values.duration} s per case and server, in turn; Node ${process.version}\n`,
  );
  console.log('| Case | Mboa req/s | Bare req/s | Ratio (rounds) | Mboa p50 | Bare p50 | Mboa p99 | Bare p99 | Mboa non-2xx |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const seconds = Number(values.duration);
  for (const c of CASES) {
    const path = `/api/v1/listings?${c.query}`;
    await load(`http://127.0.0.1:${mboaPort}`, path, 2);
    await load(`http://127.0.0.1:${barePort}`, path, 2);
    const runs: Array<{ m: Awaited<ReturnType<typeof load>>; b: Awaited<ReturnType<typeof load>> }> = [];
    for (let r = 0; r < Number(values.rounds); r++) {
      const m = await load(`http://127.0.0.1:${mboaPort}`, path, seconds);
      const b = await load(`http://127.0.0.1:${barePort}`, path, seconds);
      runs.push({ m, b });
    }
    const med = (pick: (run: (typeof runs)[number]) => number) => median(runs.map(pick));
    const f = (n: number) => Math.round(n).toLocaleString('en-US');
    const ratios = runs.map((r) => (r.m.rps / r.b.rps).toFixed(2)).join(', ');
    console.log(
      `| ${c.name} | ${f(med((r) => r.m.rps))} | ${f(med((r) => r.b.rps))} | ${med((r) => r.m.rps / r.b.rps).toFixed(2)} (${ratios}) | ${med((r) => r.m.p50)} ms | ${med((r) => r.b.p50)} ms | ${med((r) => r.m.p99)} ms | ${med((r) => r.b.p99)} ms | ${runs.reduce((n, r) => n + r.m.non2xx, 0)} |`,
    );
  }
} finally {
  mboa.kill('SIGTERM');
  bare.kill('SIGTERM');
}
