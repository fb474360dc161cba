/**
 * The hot-path benchmark: Mboa (the compiled production build, the whole request chain,
 * Redis set, an Enterprise account with a monthly quota and a per-minute limit so that
 * both run) side by side with the bare server of bench/bare-server.ts (same SQL, same
 * mapping and envelope, nothing else), in the same run, on the same data. `wrk` drives
 * each case against one server then the other; only loopback servers are accepted.
 *
 *   npm run build
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/mboa_1m REDIS_URL=redis://127.0.0.1:6379 \
 *     node --import tsx bench/hot-path.ts [--duration 8] [--connections 16] [--runtime compiled|tsx]
 *     [--rounds 3] [--cases ping,detail] [--profile <folder for the server's CPU profile>]
 *
 * BENCH_LOG_LEVEL sets the server's LOG_LEVEL (default info: one log line per request).
 *
 * Prints a markdown table: requests/s and p50 of each, their ratio, the CPU time (user and
 * system, from /proc) per request of each server and of PostgreSQL, the non-2xx count, and
 * the Mboa server's resident memory idle and after the load.
 */
import { type ChildProcess, execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { migrationStatus } from '../prisma/migration-status.js';
import { createAccount } from '../server/accounts/accounts.js';
import { loopbackServices, productionEnv, startChild, waitReady } from './loopback.js';
import { openDatabase } from '../server/platform/db.js';
import { randomId } from '../server/platform/ids.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '8' },
    /** Measurements per server and case, taken in turn (Mboa, bare, Mboa, ...); the table gives medians. */
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    runtime: { type: 'string', default: 'compiled' },
    cases: { type: 'string' },
    'mboa-port': { type: 'string', default: '3990' },
    'bare-port': { type: 'string', default: '3991' },
    /** Writes each server's V8 CPU profiles (.cpuprofile, one per thread) into <folder>/mboa and <folder>/bare when it exits. */
    profile: { type: 'string' },
  },
});

const { databaseUrl, redisUrl } = loopbackServices('a seeded database: npm run admin -- seed --listings 1000000');

const db = openDatabase(databaseUrl, { max: 2 });
const status = await migrationStatus(db.pool);
if (status.pending.length) {
  console.error(`pending migrations: ${status.pending.join(', ')} (npm run db:migrate)`);
  process.exit(2);
}
const { rows: count } = await db.pool.query<{ n: number }>("SELECT count(*)::int AS n FROM listings WHERE status = 'active'");
const { key } = await createAccount(db.prisma, {
  email: `${randomId('bench')}@bench.mboa.cm`,
  plan: 'enterprise',
  monthlyQuotaOverride: 1_000_000_000,
  rateLimitOverride: 100_000_000,
});
const { rows: sample } = await db.pool.query<{ id: string }>('SELECT id FROM listings TABLESAMPLE SYSTEM (1) LIMIT 2000');
await db.close();

const dir = mkdtempSync(join(tmpdir(), 'mboa-hot-path-'));
const pathsFile = (name: string, paths: string[]) => {
  const file = join(dir, `${name}.txt`);
  writeFileSync(file, `${paths.join('\n')}\n`);
  return file;
};
const AKWA = '4.0483,9.7043';
const VALUATION = '/api/v1/valuations?city=Douala&neighborhood=Akwa&type=apartment&purpose=rent&bedrooms=2&bathrooms=1';
const MIXES = [
  'city=Douala&purpose=sale&type=villa',
  'city=Douala&purpose=rent&type=apartment',
  'city=Yaound%C3%A9&purpose=sale&type=house',
  'city=Yaound%C3%A9&purpose=rent&type=studio',
  'city=Bafoussam&purpose=sale&type=land',
  'city=Douala&purpose=sale',
];
const CASES: Array<{ name: string; file: string; counted: boolean }> = [
  { name: 'ping', file: pathsFile('ping', ['/api/v1/ping']), counted: false },
  {
    name: 'search page 1, 50 rows, six mixes',
    file: pathsFile(
      'search',
      MIXES.map((m) => `/api/v1/listings?${m}&limit=50`),
    ),
    counted: true,
  },
  {
    name: 'detail by random id',
    file: pathsFile(
      'detail',
      sample.map((r) => `/api/v1/listings/${r.id}`),
    ),
    counted: true,
  },
  { name: 'market stats, Douala sale', file: pathsFile('stats', ['/api/v1/market/stats?city=Douala&purpose=sale']), counted: true },
  { name: 'market trends, Douala sale', file: pathsFile('trends', ['/api/v1/market/trends?city=Douala&purpose=sale']), counted: true },
  {
    name: 'radius 2 km around Akwa, page 1, 50 rows',
    file: pathsFile('radius', [`/api/v1/listings?near=${AKWA}&radius_m=2000&limit=50`]),
    counted: true,
  },
  {
    name: 'radius, sort=distance',
    file: pathsFile('distance', [`/api/v1/listings?near=${AKWA}&radius_m=2000&sort=distance&limit=50`]),
    counted: true,
  },
  {
    name: 'bbox around Akwa, page 1, 50 rows',
    file: pathsFile('bbox', ['/api/v1/listings?bbox=9.686,4.030,9.722,4.066&limit=50']),
    counted: true,
  },
  {
    name: 'history, Douala rent, 36 months',
    file: pathsFile('history', ['/api/v1/market/history?city=Douala&purpose=rent&months=36']),
    counted: true,
  },
  {
    name: 'history of 1 km around Akwa, rent',
    file: pathsFile('area', [`/api/v1/market/history?city=Douala&near=${AKWA}&radius_m=1000&purpose=rent`]),
    counted: true,
  },
  { name: 'valuation, 2-bedroom flat to rent in Akwa', file: pathsFile('valuation', [VALUATION]), counted: true },
].filter((c) => !values.cases || values.cases.split(',').some((w) => c.name.startsWith(w)));

const rss = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
};

const mboaPort = Number(values['mboa-port']);
const barePort = Number(values['bare-port']);
const profileFlags = (name: string) => (values.profile ? ['--cpu-prof', '--cpu-prof-dir', join(values.profile, name)] : []);
const mboaEntry = [
  ...profileFlags('mboa'),
  ...(values.runtime === 'tsx' ? ['--import', 'tsx', 'server/start/main.ts'] : ['dist/server/start/main.js']),
];
const mboa = startChild(process.execPath, mboaEntry, {
  ...productionEnv({ databaseUrl, redisUrl, port: mboaPort }),
  LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
});
const bare = startChild(process.execPath, [...profileFlags('bare'), '--import', 'tsx', 'bench/bare-server.ts'], {
  DATABASE_URL: databaseUrl,
  PORT: String(barePort),
});

interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** The server process's CPU time (user and system) per request answered, in µs. */
  cpuUs: number;
  /** The same for PostgreSQL's processes (all of them: the benchmark's machine runs nothing else). */
  pgCpuUs: number;
}

/** CPU time a process has used so far, in µs (utime and stime of /proc/<pid>/stat). */
const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
function cpuTimeUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}

/** The same for every PostgreSQL process of the machine. */
function postgresCpuTimeUs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/stat`, 'utf8').includes(' (postgres) ')) total += cpuTimeUs(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

const toMs = (value: string) => {
  const m = /([\d.]+)(us|ms|s)/.exec(value);
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function wrk(base: string, file: string, seconds: number, server: ChildProcess): Promise<WrkResult> {
  const cpuBefore = cpuTimeUs(server.pid!);
  const pgBefore = postgresCpuTimeUs();
  const { stdout } = await promisify(execFile)(
    'wrk',
    ['-t2', `-c${values.connections}`, `-d${seconds}s`, '--latency', '-s', join(ROOT, 'bench/wrk/paths.lua'), base],
    { env: { ...process.env, WRK_PATHS: file, MBOA_KEY: key } },
  );
  const requests = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? NaN);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p50: toMs(/\s50%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
    p99: toMs(/\s99%\s+(\S+)/.exec(stdout)?.[1] ?? ''),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout)?.[1] ?? 0),
    cpuUs: (cpuTimeUs(server.pid!) - cpuBefore) / requests,
    pgCpuUs: (postgresCpuTimeUs() - pgBefore) / requests,
  };
}

/** Polls a valuation until it answers 200 (the server's model fitted), for up to two minutes. */
async function waitValued(url: string): Promise<void> {
  const until = Date.now() + 120_000;
  for (;;) {
    const status = await fetch(url, { headers: { 'X-API-Key': key } }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > until) throw new Error(`${url} still answers ${status} after two minutes`);
    await new Promise((ok) => setTimeout(ok, 500));
  }
}

try {
  await waitReady(`http://127.0.0.1:${mboaPort}/readyz`);
  await waitReady(`http://127.0.0.1:${barePort}/api/v1/ping`);
  // Both fit their valuation model when they start (Mboa's valuations answer 503 until then).
  if (CASES.some((c) => c.file.endsWith('valuation.txt'))) {
    for (const port of [mboaPort, barePort]) await waitValued(`http://127.0.0.1:${port}${VALUATION}`);
  }
  const idle = rss(mboa.pid!);
  const seconds = Number(values.duration);
  console.log(
    `${count[0].n.toLocaleString('en-US')} active listings; wrk ${values.connections} connections, ${values.rounds} rounds of ${seconds} s per case and server, taken in turn (medians; the ratio of each round in brackets); Mboa ${values.runtime}, Node ${process.version}\n`,
  );
  console.log(
    '| Case | Mboa req/s | Bare req/s | Ratio (rounds) | Mboa p50 | Bare p50 | Mboa p99 | CPU/req: Mboa, bare | PostgreSQL CPU/req: Mboa, bare | Mboa non-2xx |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const rounds = Number(values.rounds);
  for (const c of CASES) {
    // Warm both (JIT, caches, pools) before measuring.
    await wrk(`http://127.0.0.1:${mboaPort}`, c.file, 2, mboa);
    await wrk(`http://127.0.0.1:${barePort}`, c.file, 2, bare);
    // In turn, so that a drift of the machine (another tenant, a cache) falls on both alike.
    const runs: Array<{ m: WrkResult; b: WrkResult }> = [];
    for (let r = 0; r < rounds; r++) {
      const m = await wrk(`http://127.0.0.1:${mboaPort}`, c.file, seconds, mboa);
      const b = await wrk(`http://127.0.0.1:${barePort}`, c.file, seconds, bare);
      runs.push({ m, b });
    }
    const med = (pick: (run: { m: WrkResult; b: WrkResult }) => number) => median(runs.map(pick));
    const f = (n: number) => Math.round(n).toLocaleString('en-US');
    const ratios = runs.map((r) => (r.m.rps / r.b.rps).toFixed(2)).join(', ');
    console.log(
      `| ${c.name}${c.counted ? ' (counted)' : ''} | ${f(med((r) => r.m.rps))} | ${f(med((r) => r.b.rps))} | ${med((r) => r.m.rps / r.b.rps).toFixed(2)} (${ratios}) | ${med((r) => r.m.p50).toFixed(2)} ms | ${med((r) => r.b.p50).toFixed(2)} ms | ${med((r) => r.m.p99).toFixed(2)} ms | ${f(med((r) => r.m.cpuUs))} µs, ${f(med((r) => r.b.cpuUs))} µs | ${f(med((r) => r.m.pgCpuUs))} µs, ${f(med((r) => r.b.pgCpuUs))} µs | ${runs.reduce((n, r) => n + r.m.non2xx, 0)} |`,
    );
  }
  const loaded = rss(mboa.pid!);
  console.log(`\nMboa server memory: idle ${idle.rssMb} MB RSS; after the load ${loaded.rssMb} MB RSS (peak ${loaded.peakMb} MB)`);
} finally {
  mboa.kill('SIGTERM');
  bare.kill('SIGTERM');
}
