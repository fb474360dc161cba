/**
 * Isolation between customers: another customer's plain search, idle and then while one
 * Pro key runs 10 parallel worst-case calls of each heavy kind (the README, "Heavy reads"):
 * area history at radius 5,000 m on fresh points of Douala, a 50 km radius with
 * `status=any`, a whole-country box with `status=any` (each with a random `min_price`, so
 * no total is cached); exports are not in the Pro plan (`--kinds 1,2,3,4` adds loops that
 * only get its 403, which a real client would not repeat). The server is the
 * repository's own (`server/start/main.ts` under tsx, production settings, Redis), started
 * as a child on `--port`; the victim is one client calling in sequence (four searches in
 * turn, their totals counted once before, a call every 250 ms at most), the attacker's 40
 * loops in this process. An attacker loop retries a 429 after its `Retry-After` (as the SDK
 * does; at most `--max-wait` s); `--no-backoff` retries at once.
 *
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/mboa_iso_1m REDIS_URL=redis://127.0.0.1:6379/3 \
 *     node --import tsx bench/isolation.ts [--idle 30] [--attack 60] [--port 3103]
 *
 * Prints the victim's p50, p90 and p99 idle and under attack, their ratio, the victim's
 * answers by status and the attacker's by kind and status.
 */
import { parseArgs } from 'node:util';
import { createAccount } from '../server/accounts/accounts.js';
import { openDatabase } from '../server/platform/db.js';
import { randomId } from '../server/platform/ids.js';
import { loopbackServices, productionEnv, startChild, waitReady } from './loopback.js';

const { values } = parseArgs({
  options: {
    idle: { type: 'string', default: '30' },
    attack: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '10' },
    parallel: { type: 'string', default: '10' },
    port: { type: 'string', default: '3103' },
    'max-wait': { type: 'string', default: '60' },
    'no-backoff': { type: 'boolean', default: false },
    /** Only these kinds (numbers from 1, in the order above, comma-separated). */
    kinds: { type: 'string', default: '1,2,3' },
  },
});

const { databaseUrl, redisUrl } = loopbackServices('a seeded database: npm run admin -- seed --listings 1000000 --seed 1');
const db = openDatabase(databaseUrl, { max: 2 });
const account = async (plan: 'pro' | 'enterprise') =>
  (await createAccount(db.prisma, { email: `${randomId('bench')}@bench.mboa.cm`, plan })).key;
const victimKey = await account('pro');
const attackerKey = await account('pro');
const { rows: count } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings');
await db.close();

const port = Number(values.port);
const base = `http://127.0.0.1:${port}`;
const server = startChild(process.execPath, ['--import', 'tsx', 'server/start/main.ts'], {
  ...productionEnv({ databaseUrl, redisUrl, port }),
  LOG_LEVEL: 'error',
});

const VICTIM_PATHS = [
  'city=Douala&purpose=rent',
  'city=Yaound%C3%A9&purpose=sale',
  'city=Douala&purpose=sale&type=house',
  'city=Kribi',
].map((q) => `/api/v1/listings?${q}&limit=20`);
const VICTIM_EVERY_MS = 250;
const rand = (lo: number, hi: number) => lo + Math.random() * (hi - lo);
const KINDS: Record<string, () => string> = {
  'area history, 5 km, fresh point': () =>
    `/api/v1/market/history?city=Douala&purpose=rent&radius_m=5000&near=${rand(3.98, 4.12).toFixed(5)},${rand(9.64, 9.8).toFixed(5)}`,
  '50 km radius, status=any': () =>
    `/api/v1/listings?near=${rand(3.8, 4.2).toFixed(5)},${rand(9.5, 11.6).toFixed(5)}&radius_m=50000&status=any&min_price=${Math.floor(rand(0, 5000))}`,
  'whole country box, status=any': () => `/api/v1/listings?bbox=8.4,1.6,16.2,13.1&status=any&min_price=${Math.floor(rand(0, 5000))}`,
  'export (not in Pro: 403)': () => `/api/v1/exports/listings?status=any&min_price=${Math.floor(rand(0, 5000))}`,
};

async function call(path: string, key: string): Promise<{ status: number; ms: number; retryAfter: number }> {
  const started = performance.now();
  try {
    const res = await fetch(`${base}${path}`, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'identity' } });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started, retryAfter: Number(res.headers.get('retry-after') ?? 0) };
  } catch {
    return { status: 0, ms: performance.now() - started, retryAfter: 0 };
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const tally = (statuses: number[]) => {
  const by = new Map<number, number>();
  for (const s of statuses) by.set(s, (by.get(s) ?? 0) + 1);
  return [...by]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${n} × ${s || 'cut'}`)
    .join(', ');
};

/** The victim calling in sequence for `seconds`, a call every 250 ms at most (within Pro's 300 a minute). */
async function victim(seconds: number) {
  const until = Date.now() + seconds * 1000;
  const ms: number[] = [];
  const statuses: number[] = [];
  for (let i = 0; Date.now() < until; i++) {
    const r = await call(VICTIM_PATHS[i % VICTIM_PATHS.length], victimKey);
    ms.push(r.ms);
    statuses.push(r.status);
    await new Promise((ok) => setTimeout(ok, Math.max(0, VICTIM_EVERY_MS - r.ms)));
  }
  return { ms, statuses };
}

let attacking = true;
const attackerStatuses = new Map<string, number[]>(Object.keys(KINDS).map((k) => [k, []]));
async function attackLoop(kind: string) {
  while (attacking) {
    const r = await call(KINDS[kind](), attackerKey);
    attackerStatuses.get(kind)!.push(r.status);
    if (r.status === 429 && !values['no-backoff'])
      await new Promise((ok) => setTimeout(ok, Math.min(r.retryAfter, Number(values['max-wait'])) * 1000));
  }
}

try {
  await waitReady(`${base}/readyz`);
  for (const p of VICTIM_PATHS) await call(p, victimKey); // each total counted once, as a customer's would be
  const idle = await victim(Number(values.idle));
  const chosen = values.kinds.split(',').map((n) => Object.keys(KINDS)[Number(n) - 1]);
  const loops = chosen.flatMap((kind) => Array.from({ length: Number(values.parallel) }, () => attackLoop(kind)));
  await new Promise((ok) => setTimeout(ok, Number(values.warmup) * 1000));
  const attacked = await victim(Number(values.attack));
  attacking = false;
  await Promise.all(loops);

  const f = (x: number) => `${x.toFixed(0)} ms`;
  console.log(
    `${count[0].n.toLocaleString('en-US')} listings; Node ${process.version}; attacker ${values.parallel} loops per kind, ${values['no-backoff'] ? 'no backoff' : `429s retried after Retry-After (at most ${values['max-wait']} s)`}\n`,
  );
  console.log('| Victim: plain search | calls | p50 | p90 | p99 | answers |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, r] of [
    ['idle', idle],
    ['under attack', attacked],
  ] as const) {
    console.log(
      `| ${name} | ${r.ms.length} | ${f(quantile(r.ms, 0.5))} | ${f(quantile(r.ms, 0.9))} | ${f(quantile(r.ms, 0.99))} | ${tally(r.statuses)} |`,
    );
  }
  console.log(`\np50 under attack / idle: ${(quantile(attacked.ms, 0.5) / quantile(idle.ms, 0.5)).toFixed(2)}\n`);
  console.log('| Attacker: kind | calls | answers |');
  console.log('|---|---|---|');
  for (const [kind, statuses] of attackerStatuses) console.log(`| ${kind} | ${statuses.length} | ${tally(statuses)} |`);
} finally {
  attacking = false;
  server.kill('SIGTERM');
}
