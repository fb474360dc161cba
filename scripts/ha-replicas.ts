/**
 * The read replicas of `npm run test:ha`: the third PostgreSQL node (a second streaming
 * replica), HAProxy's replica backend (port 15402, Patroni's /replica check) that every
 * instance reads through (DATABASE_READ_URL), and the read throughput with both replicas
 * against the primary alone: the replicas put out of HAProxy's backend at run time, so the
 * same instances read the primary instead (what a lost pair of replicas costs).
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createAccount } from '../server/accounts/accounts.js';
import { openDatabase } from '../server/platform/db.js';

export const PG3 = { name: 'pg3', rest: 15410, dir: '/tmp/mboa-ha-pg3' };
const REPLICA_NODES = ['pg1', 'pg2', 'pg3'];
const ROUNDS = 4;

type Haproxy = (command: string) => Promise<string>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The nodes HAProxy sends reads to now. */
export async function replicasUp(haproxy: Haproxy): Promise<string[]> {
  return (await haproxy('show stat'))
    .split('\n')
    .filter((l) => l.startsWith('postgres_replicas,pg') && l.split(',')[17] === 'UP')
    .map((l) => l.split(',')[1]);
}

function getJson(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve) => {
    const req = request(url, { timeout: 3000 }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve({ status: 0, body: null }));
    req.end();
  });
}

/** Replicas each instance reads from now, as its /readyz says. */
export async function replicasInUse(instancePorts: number[]): Promise<number[]> {
  return Promise.all(
    instancePorts.map(async (port) => {
      const { body } = await getJson(`http://127.0.0.1:${port}/readyz`);
      return (body as { read_replicas?: { in_use: number } } | null)?.read_replicas?.in_use ?? -1;
    }),
  );
}

type Part = 'mboa' | 'postgres' | 'haproxy' | 'machine';

/** CPU seconds used so far: the Mboa instances, the rig's PostgreSQL processes, HAProxy, and the whole machine. */
function cpuSeconds(): Record<Part, number> {
  const tick = 100;
  const used = { mboa: 0, postgres: 0, haproxy: 0, machine: 0 };
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1, 9).map(Number); // user … steal (guest time is already in user)
  used.machine = (cpu.reduce((a, b) => a + b, 0) - cpu[3] - (cpu[4] ?? 0)) / tick;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      let who: Part | null = null;
      if (cmd.includes('dist/server/start/main.js')) who = 'mboa';
      else if (/mboa-ha-pg\d|^postgres: mboa: /.test(cmd)) who = 'postgres';
      else if (cmd.startsWith('haproxy') && cmd.includes('haproxy.cfg')) who = 'haproxy';
      if (!who) continue;
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used[who] += (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      /* gone meanwhile */
    }
  }
  return used;
}

export interface Throughput {
  label: string;
  seconds: number;
  sent: number;
  ok: number;
  perSecond: number;
  p50Ms: number;
  byStatus: Record<string, number>;
  /** Share of the machine's two cores each part used meanwhile (%, of 200). */
  cpu: Record<Part, number>;
}

/** `connections` callers each sending the next read as soon as the last is answered, for `seconds`. */
async function closedLoop(api: string, key: string, label: string, connections: number, seconds: number): Promise<Throughput> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const paths = ['/api/v1/listings?limit=20&city=Douala', '/api/v1/listings?limit=50&sort=price', '/api/v1/market/stats?city=Douala'];
  const byStatus: Record<string, number> = {};
  const took: number[] = [];
  const cpu0 = cpuSeconds();
  const end = performance.now() + seconds * 1000;
  const one = (path: string) =>
    new Promise<number>((resolve) => {
      const req = request(`${api}${path}`, { agent, headers: { 'x-api-key': key }, timeout: 30_000 }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('aborted', () => resolve(-1));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve(-1));
      req.end();
    });
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      for (let i = c; performance.now() < end; i++) {
        const t0 = performance.now();
        const status = await one(paths[i % paths.length]);
        took.push(performance.now() - t0);
        byStatus[String(status)] = (byStatus[String(status)] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  const cpu1 = cpuSeconds();
  const cpu = Object.fromEntries(
    (['mboa', 'postgres', 'haproxy', 'machine'] as const).map((k) => [k, Math.round(((cpu1[k] - cpu0[k]) / seconds) * 100)]),
  ) as Throughput['cpu'];
  took.sort((a, b) => a - b);
  const ok = byStatus['200'] ?? 0;
  return {
    label,
    seconds,
    sent: took.length,
    ok,
    perSecond: Math.round(ok / seconds),
    p50Ms: Math.round(took[took.length >> 1] * 10) / 10,
    byStatus,
    cpu,
  };
}

/**
 * Reads per second through HAProxy with the replicas in use, then with them out of HAProxy's
 * backend (every instance reading the primary), then with them back. Its own account, so
 * the events' quota checks stay exact.
 */
export async function measureReadThroughput(o: {
  api: string;
  databaseUrl: string;
  instancePorts: number[];
  haproxy: Haproxy;
  log: (s: string) => void;
  connections?: number;
  seconds?: number;
}): Promise<Throughput[]> {
  const db = openDatabase(o.databaseUrl, { max: 1 });
  const { key } = await createAccount(db.prisma, {
    email: `ha-throughput-${randomBytes(3).toString('hex')}@test.mboa.cm`,
    plan: 'enterprise',
    monthlyQuotaOverride: 10_000_000,
    rateLimitOverride: 1_000_000,
  }).finally(() => db.close());
  const connections = o.connections ?? 16;
  const seconds = o.seconds ?? 5;
  const waitInUse = async (want: (n: number) => boolean, what: string) => {
    for (let until = Date.now() + 30_000; Date.now() < until; await sleep(250))
      if ((await replicasInUse(o.instancePorts)).every(want)) return;
    throw new Error(`timed out waiting for ${what}`);
  };
  const up = await replicasUp(o.haproxy);
  const label = `${up.length} replicas (${up.join(', ')})`;
  await waitInUse((n) => n >= 1, 'every instance reading a replica');
  await closedLoop(o.api, key, 'warm-up', connections, 2);
  const results: Throughput[] = [];
  const replicasOut = async () => {
    for (const node of REPLICA_NODES) {
      await o.haproxy(`set server postgres_replicas/${node} state maint`);
      await o.haproxy(`shutdown sessions server postgres_replicas/${node}`);
    }
    await waitInUse((n) => n === 0, 'every instance reading the primary');
  };
  const replicasBack = async () => {
    for (const node of REPLICA_NODES) await o.haproxy(`set server postgres_replicas/${node} state ready`);
    await waitInUse((n) => n >= 1, 'the replicas back in use');
  };
  // Rounds in the order ABBA ABBA…: the machine is shared, so other work rising or falling
  // during the measure weighs on both sides alike.
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? ['replicas', 'primary'] : ['primary', 'replicas'];
    for (const side of order) {
      if (side === 'primary') await replicasOut();
      results.push(
        await closedLoop(
          o.api,
          key,
          side === 'primary' ? `primary alone, round ${round}` : `${label}, round ${round}`,
          connections,
          seconds,
        ),
      );
      if (side === 'primary') await replicasBack();
    }
  }
  for (const r of results)
    o.log(
      `read throughput, ${r.label}: ${r.perSecond} reads/s (${connections} connections, ${r.seconds} s, p50 ${r.p50Ms} ms), answers ${JSON.stringify(r.byStatus)}; ` +
        `CPU % of 200: Mboa ${r.cpu.mboa}, PostgreSQL ${r.cpu.postgres}, HAProxy ${r.cpu.haproxy}, whole machine ${r.cpu.machine}`,
    );
  const total = (prefix: string) => results.filter((r) => r.label.startsWith(prefix)).reduce((a, r) => a + r.ok, 0) / (ROUNDS * seconds);
  o.log(
    `read throughput over ${ROUNDS} rounds: ${label} ${Math.round(total(label))} reads/s, primary alone ${Math.round(total('primary'))} reads/s`,
  );
  return results;
}
