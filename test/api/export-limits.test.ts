/**
 * Exports hold a connection of the instance's few for as long as they stream, so they hold
 * it only while they may (README, "Bulk export"): an export in flight is cut within seconds
 * of its key's revocation, its account's suspension or closure (the SDK then resumes and
 * gets the refusal); a client that reads nothing is cut after the idle timeout; and one
 * account streams at most half the instance's exports at once, so another customer's
 * export still runs. Over real HTTP against real servers, with clients that pause.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { AccountSuspendedError, AuthenticationError, Mboa } from '@mboa/sdk';
import { keptLog } from '../helpers/kept-log.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../server/accounts/accounts.js';
import { closeAccount } from '../../server/accounts/closure.js';
import { hashPassword } from '../../server/accounts/passwords.js';
import { randomId } from '../../server/platform/ids.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';
import type { ExportLimits } from '../../server/api/endpoints/export.js';

const EXPORT = '/api/v1/exports/listings?status=any';
/** A small export, of another customer. */
const SMALL_EXPORT = '/api/v1/exports/listings?city=kribi&status=any';
const IDLE_MS = 1_500;
/**
 * The seeded listings fit in what the loopback's buffers hold (about 4 MB), so an export
 * of them ends before a paused client could hold it: this file adds copies of them (about
 * 25 MB of export in all), removed after it.
 */
const COPIES = 12;
const SOURCE = 'export-limits-test';
const COLUMNS =
  'title, price, currency, city, city_key, neighborhood, neighborhood_key, surface, bedrooms, bathrooms, type, purpose, price_per_m2, status, listed_at, updated_at, removed_at, contact_name, contact_phone, contact_email, street_address';

/** A test server whose log lines are kept, with these export limits. */
async function serverWithLog(exports: Partial<ExportLimits>) {
  const { logger, lines } = keptLog();
  const server = await startTestServer({ server: { logger, exports } });
  return { server, lines };
}

interface HeldExport {
  status: number;
  /** Complete lines received so far. */
  received(): number;
  lastId(): string | undefined;
  /** How the answer ended: its whole body, or cut. */
  finished: Promise<'complete' | 'cut'>;
  /** Reads on, as fast as it comes. */
  read(): void;
  destroy(): void;
}

/** An export whose client reads its first bytes, then nothing until `read()`. */
function holdExport(baseUrl: string, key: string, path = EXPORT): Promise<HeldExport> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { headers: { 'X-API-Key': key, 'Accept-Encoding': 'identity' } }, (res) => {
      let tail = '';
      let received = 0;
      let lastId: string | undefined;
      const finished = new Promise<'complete' | 'cut'>((done) => {
        res.on('error', () => done('cut'));
        res.on('close', () => done(res.complete ? 'complete' : 'cut'));
      });
      res.on('data', (chunk: Buffer) => {
        const parts = (tail + chunk.toString()).split('\n');
        tail = parts.pop()!;
        if (res.statusCode !== 200) return;
        for (const line of parts) {
          lastId = (JSON.parse(line) as { id: string }).id;
          received++;
        }
      });
      res.once('data', () => res.pause());
      resolve({
        status: res.statusCode!,
        received: () => received,
        lastId: () => lastId,
        finished,
        read: () => res.resume(),
        destroy: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let total = 0;
let s: Awaited<ReturnType<typeof serverWithLog>>;
beforeAll(async () => {
  s = await serverWithLog({ idleMs: 60_000 });
  const pool = s.server.db.pool;
  await pool.query(
    `INSERT INTO listings (id, source, source_ref, ${COLUMNS})
     SELECT 'lst_' || substr(md5(l.id || ':' || n), 1, 20), $1, l.source || ':' || l.source_ref || ':' || n, ${COLUMNS}
     FROM listings l, generate_series(1, ${COPIES}) n WHERE l.source <> $1`,
    [SOURCE],
  );
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM listings');
  total = rows[0].n;
});
afterAll(async () => {
  await s?.server.db.pool.query('DELETE FROM listings WHERE source = $1', [SOURCE]);
  await s?.server.close();
});

const cutLogged = (accountId: string, why: string) => s.lines.some((l) => l.includes(`export cut: ${why}`) && l.includes(accountId));

/** An Enterprise account that its holder may close (its contract has ended), and its password. */
async function closableAccount(server: TestServer) {
  const password = 'a long enough password 42';
  const created = await createAccount(server.db.prisma, {
    email: `${randomId('t')}@test.mboa.cm`,
    plan: 'enterprise',
    contractEnd: new Date(Date.now() - 10 * 86_400_000),
    passwordHash: await hashPassword(password),
  });
  return { id: created.account.id, key: created.key, password };
}

const CHANGES = [
  {
    what: 'its key is revoked',
    refused: 401,
    change: (server: TestServer, id: string) => server.db.pool.query('UPDATE api_keys SET revoked_at = now() WHERE account_id = $1', [id]),
  },
  {
    what: 'its account is suspended',
    refused: 403,
    change: (server: TestServer, id: string) =>
      server.db.pool.query(`UPDATE accounts SET status = 'suspended', suspension_reason = 'operator' WHERE id = $1`, [id]),
  },
  {
    what: 'its account is closed',
    refused: 401,
    change: (server: TestServer, id: string, password: string) => closeAccount(server.db.prisma, { accountId: id, password }),
  },
];

describe('an export in flight', () => {
  it.each(CHANGES)('is cut within seconds when $what; resumed, it is refused', async ({ refused, change }) => {
    const { id, key, password } = await closableAccount(s.server);
    const held = await holdExport(s.server.baseUrl, key);
    expect(held.status).toBe(200);
    await change(s.server, id, password);
    const since = Date.now();
    await expect.poll(() => cutLogged(id, 'its key or account may no longer export'), { timeout: 10_000, interval: 50 }).toBe(true);
    expect(Date.now() - since).toBeLessThan(3_000);
    held.read();
    expect(await held.finished).toBe('cut');
    expect(held.received()).toBeLessThan(total);
    const resumed = await get(s.server.baseUrl, `${EXPORT}&after=${held.lastId()}`, key);
    expect(resumed.status).toBe(refused);
  });

  it('read by the SDK: the cut is resumed, and the refusal thrown', async () => {
    for (const [i, Refusal] of [AuthenticationError, AccountSuspendedError].entries()) {
      const { id, key, password } = await closableAccount(s.server);
      const mboa = new Mboa({ apiKey: key, baseUrl: s.server.baseUrl, maxRetries: 2, logLevel: 'off' });
      // Uncompressed: compressed, the whole export would fit in the loopback's buffers.
      const listings = mboa.exports.listings({ status: 'any' }, { headers: { 'Accept-Encoding': 'identity' } });
      let seen = 0;
      let thrown: unknown;
      try {
        for await (const listing of listings) {
          expect(listing.id).toBeTruthy();
          if (++seen > 1) continue;
          await CHANGES[i].change(s.server, id, password);
          // A consumer busy with its first listing: the export is still streaming when the change lands.
          await expect.poll(() => cutLogged(id, 'its key or account may no longer export'), { timeout: 10_000, interval: 50 }).toBe(true);
        }
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(Refusal);
      expect(listings.resumes).toBeGreaterThanOrEqual(1);
      expect(seen).toBeLessThan(total);
    }
  });
});

describe('an export whose client reads nothing', () => {
  let idle: Awaited<ReturnType<typeof serverWithLog>>;
  beforeAll(async () => {
    idle = await serverWithLog({ idleMs: IDLE_MS });
  });
  afterAll(() => idle?.server.close());

  it('is cut after the idle timeout; resumed, it goes on where it stopped', async () => {
    const { id, key } = await idle.server.account('enterprise');
    const held = await holdExport(idle.server.baseUrl, key);
    expect(held.status).toBe(200);
    const since = Date.now();
    await expect
      .poll(() => idle.lines.some((l) => l.includes('export cut: client idle') && l.includes(id)), { timeout: 15_000, interval: 50 })
      .toBe(true);
    expect(Date.now() - since).toBeGreaterThanOrEqual(IDLE_MS - 100);
    held.read();
    expect(await held.finished).toBe('cut');
    const rest = await fetch(`${idle.server.baseUrl}${EXPORT}&after=${held.lastId()}`, {
      headers: { 'X-API-Key': key, 'Accept-Encoding': 'identity' },
    });
    expect(rest.status).toBe(200);
    const more = (await rest.text()).split('\n').filter(Boolean).length;
    expect(held.received() + more).toBe(total);
  });
});

describe('export slots', () => {
  it('one account streams at most half of them at once: the next is a 429, and another customer’s export runs', async () => {
    const greedy = await s.server.account('enterprise');
    const other = await s.server.account('enterprise');
    const held = [await holdExport(s.server.baseUrl, greedy.key), await holdExport(s.server.baseUrl, greedy.key)];
    try {
      expect(held.map((h) => h.status)).toEqual([200, 200]);
      const third = await get(s.server.baseUrl, EXPORT, greedy.key);
      expect(third.status).toBe(429);
      expect(third.body.code).toBe('rate_limited');
      expect(third.body.detail).toMatch(/At most 2 exports of one account/);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

      const theirs = await fetch(`${s.server.baseUrl}${SMALL_EXPORT}`, {
        headers: { 'X-API-Key': other.key, 'Accept-Encoding': 'identity' },
      });
      expect(theirs.status).toBe(200);
      const { rows } = await s.server.db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM listings WHERE city = 'Kribi'`);
      expect((await theirs.text()).split('\n').filter(Boolean).length).toBe(rows[0].n);
      // It took one of the instance's free slots: no slot was released before `finally`, so an
      // export that had waited for one would have been a 503 after the 5 s wait, not this 200.
    } finally {
      for (const h of held) h.destroy();
    }
    // Its exports over, the account has its slots again.
    let again: HeldExport | undefined;
    await expect
      .poll(async () => {
        again?.destroy();
        again = await holdExport(s.server.baseUrl, greedy.key);
        return again.status;
      })
      .toBe(200);
    again!.destroy();
  });
});

/**
 * A client over a bare socket that takes `bytes` of the answer every `everyMs` and nothing
 * more: the server's writes then wait on it once the loopback's buffers are full.
 */
function trickle(baseUrl: string, key: string, bytes: number, everyMs: number) {
  const { port } = new URL(baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  socket.write(`GET ${EXPORT} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nAccept-Encoding: identity\r\nConnection: close\r\n\r\n`);
  socket.pause();
  let taken = 0;
  let head = '';
  const timer = setInterval(() => {
    const chunk = socket.read(bytes) ?? socket.read();
    if (chunk) {
      if (taken < 200) head += chunk.toString('latin1').slice(0, 200);
      taken += chunk.length;
    }
  }, everyMs);
  return {
    status: () => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    taken: () => taken,
    destroy: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

describe('an export whose client keeps too slow a pace', () => {
  let paced: Awaited<ReturnType<typeof serverWithLog>>;
  const PACE = { windowMs: 2_000, minBytes: 64 * 1024 };
  beforeAll(async () => {
    paced = await serverWithLog({ idleMs: 60_000, pace: PACE });
  });
  afterAll(() => paced?.server.close());

  it('is cut once a window of waiting on it ends with less than the minimum taken, though it never stops reading', async () => {
    const { id, key } = await paced.server.account('enterprise');
    // 2 kB every 250 ms: 16 kB in a 2 s window, a quarter of the minimum.
    const slow = trickle(paced.server.baseUrl, key, 2048, 250);
    try {
      await expect
        .poll(() => paced.lines.some((l) => l.includes('export cut: client too slow') && l.includes(id)), {
          timeout: 30_000,
          interval: 100,
        })
        .toBe(true);
      expect(slow.status()).toBe(200);
      expect(slow.taken()).toBeGreaterThan(0);
    } finally {
      slow.destroy();
    }
  });

  it('keeps a reader that takes its lines at a steady pace', async () => {
    const { id, key } = await paced.server.account('enterprise');
    const held = await holdExport(paced.server.baseUrl, key);
    expect(held.status).toBe(200);
    // Paused 1 s (half a window), then read to the end.
    await new Promise((ok) => setTimeout(ok, 1_000));
    held.read();
    expect(await held.finished).toBe('complete');
    expect(held.received()).toBe(total);
    expect(paced.lines.some((l) => l.includes('export cut') && l.includes(id))).toBe(false);
  });
});

describe('every export slot of a server streaming', () => {
  it('answers a further customer 429 rate_limited with Retry-After at once, uncharged, never a 503', async () => {
    const holders = [await s.server.account('enterprise'), await s.server.account('enterprise')];
    // Made before the slots are held: on the embedded database, whose one session the held
    // exports' pages queue on, creating an account meanwhile can wait past Prisma's 2 s.
    const third = await s.server.account('enterprise');
    const held: HeldExport[] = [];
    try {
      for (const h of holders) for (let i = 0; i < 2; i++) held.push(await holdExport(s.server.baseUrl, h.key));
      expect(held.map((h) => h.status)).toEqual([200, 200, 200, 200]);
      // "At once": the four slots stay held until `finally`, so an answer that waited for
      // one would never come (the test's timeout); no wall-clock bound is needed.
      const answer = await get(s.server.baseUrl, EXPORT, third.key);
      expect(answer.status).toBe(429);
      expect(answer.body.code).toBe('rate_limited');
      expect(answer.body.detail).toMatch(/^Every export slot of this server \(4\) is streaming other customers' exports/);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answer.body.meta.quota.used).toBe(0);
    } finally {
      for (const h of held) h.destroy();
    }
  });
});
