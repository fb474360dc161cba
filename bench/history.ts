/**
 * Market history on a large seeded database: the market refresh with a full rebuild of
 * the history, with nothing to recompute, and after a nightly-like import (new listings
 * published today: only the current month is touched, so no complete month is
 * recomputed); then the latency of /market/history for a city and for a quarter through
 * the full chain against a bare `node:http` server running the very same SQL (the same
 * `marketHistory` function, no key, plan, quota, validation or cache).
 *
 *   DATABASE_URL=postgresql://… npx tsx bench/history.ts [--connections 10] [--amount 2000] [--nightly 5000]
 *
 * The nightly feed is generated once into the temp directory and imported under a source
 * of its own each run.
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { THistoryQueryParsed } from '../contract/history.js';
import { live } from '../server/domain/listing/dataset.js';
import { effectiveFilters } from '../server/domain/listing/filters.js';
import { marketHistory } from '../server/domain/market/history.js';
import { writeFeed } from '../server/generate/feed-writer.js';
import { generateListings } from '../server/generate/generator.js';
import { importFile } from '../server/ingest/import.js';
import { refreshMarketFigures } from '../server/ingest/market-refresh.js';
import { openDatabase } from '../server/platform/db.js';
import { benchServer, loopbackDatabase } from './loopback.js';

const { values } = parseArgs({
  options: {
    connections: { type: 'string', default: '10' },
    amount: { type: 'string', default: '2000' },
    nightly: { type: 'string', default: '5000' },
  },
});
const url = loopbackDatabase('a seeded database: npm run admin -- seed --listings N');
const db = openDatabase(url, { max: 10 });
const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings');
console.log(`${rows[0].n} listings`);

async function timed(title: string, run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  const s = (performance.now() - started) / 1000;
  console.log(`${title.padEnd(60)} ${s.toFixed(1)} s`);
  return s;
}

await timed('market refresh, history rebuilt in full', () => refreshMarketFigures(db.pool, new Date(), { fullHistory: true }));
await timed('market refresh, nothing written since', () => refreshMarketFigures(db.pool));
const history = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM market_history');
console.log(`market_history: ${history.rows[0].n} rows`);

// A nightly feed: listings published in the last hours.
const feed = join(tmpdir(), `mboa-bench-nightly-${values.nightly}.ndjson`);
if (!existsSync(feed)) {
  const now = Date.now();
  const listings = [...generateListings({ count: Number(values.nightly), seed: 2026, source: 'nightly' })].map((l, i) => ({
    ...l,
    status: 'active' as const,
    removed_at: null,
    price_history: undefined,
    listed_at: new Date(now - (i % 20) * 3_600_000).toISOString(),
  }));
  await writeFeed(feed, 'ndjson', listings);
}
const source = `nightly-${Date.now().toString(36)}`;
const result = await importFile(db.pool, { file: feed, format: 'ndjson', source, bulk: 'never' });
console.log(
  `nightly import of ${values.nightly} new listings: ${result.seconds.toFixed(1)} s (load ${result.phases.load.toFixed(1)} s, market refresh ${result.phases.market_refresh?.toFixed(1)} s)`,
);

// The API against a bare server running the same SQL.
const { server, base, key } = await benchServer(url);
const data = live(db.pool);
const bare = createServer((req, res) => {
  const p = new URL(req.url ?? '/', 'http://bare').searchParams;
  const query = {
    city: p.get('city')!,
    neighborhood: p.get('neighborhood') ?? undefined,
    purpose: p.get('purpose'),
    type: p.get('type') ?? undefined,
    bedrooms: p.has('bedrooms') ? Number(p.get('bedrooms')) : undefined,
    months: Number(p.get('months') ?? 24),
    currency: 'XAF',
  } as THistoryQueryParsed;
  marketHistory(data, query, effectiveFilters({ city: query.city, neighborhood: query.neighborhood })).then(
    (points) => {
      const json = JSON.stringify({ data: points, meta: { total: points.length, returned: points.length } });
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(json) });
      res.end(json);
    },
    (err: Error) => {
      res.writeHead(500);
      res.end(err.message);
    },
  );
});
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareBase = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

async function load(target: string, path: string, headers: Record<string, string>) {
  const r = await autocannon({
    url: `${target}${path}`,
    headers,
    connections: Number(values.connections),
    amount: Number(values.amount),
    duration: 60,
  });
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx };
}

console.log(`${values.amount} requests per case, ${values.connections} connections`);
for (const [title, path] of [
  ['history, city (Douala rents, 24 months)', '/api/v1/market/history?city=Douala&purpose=rent'],
  [
    'history, quarter + type + bedrooms (36 months)',
    '/api/v1/market/history?city=Douala&neighborhood=Bonamoussadi&purpose=rent&type=apartment&bedrooms=2&months=36',
  ],
]) {
  const mboa = await load(base, path, { 'X-API-Key': key });
  const plain = await load(bareBase, path, {});
  console.log(
    `${title.padEnd(48)} Mboa ${mboa.rps} req/s p50 ${mboa.p50} ms p99 ${mboa.p99} ms (non-2xx ${mboa.non2xx}) | bare ${plain.rps} req/s p50 ${plain.p50} ms p99 ${plain.p99} ms | ratio ${(mboa.rps / plain.rps).toFixed(2)}`,
  );
}

bare.close();
await server.close();
await db.pool.query('DELETE FROM listings WHERE source = $1', [source]);
await db.close();
