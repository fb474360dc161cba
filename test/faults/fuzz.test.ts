/**
 * Property-based fuzz of every route: thousands of generated requests (fast-check, fixed
 * seed, printed; MBOA_FUZZ_SEED replays another) against one real server, 16 at a time,
 * with every kind of key, method, header and query string, and some raw bytes. Whatever
 * is asked: never a 5xx, every refusal problem+json with its code and request id, nothing
 * of our insides (stack, paths, SQL, driver) and no listing's private contact data in any
 * answer.
 */
import { randomBytes } from 'node:crypto';
import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccount } from '../../server/accounts/accounts.js';
import { createKey } from '../../server/accounts/keys.js';
import { randomId } from '../../server/platform/ids.js';
import { checkAnswer } from '../helpers/answer-checks.js';
import { type FuzzRequest, type FuzzWorld, FUZZED_ROUTES, fuzzRequest } from '../helpers/fuzz-requests.js';
import { plantListings, plantSource, removePlanted } from '../helpers/listings.js';
import { contractRouteNames } from '../helpers/routes.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';
import { send, sendRaw, type WireResult } from '../helpers/wire.js';

const DEFAULT_SEED = 20_261_122;
const SEED = process.env.MBOA_FUZZ_SEED ? Number(process.env.MBOA_FUZZ_SEED) : DEFAULT_SEED;
const CONCURRENCY = 16;
const REQUESTS = 5_000;
/** Exports stream from four connections per instance (a fifth waits, then gets 503 by design): never more at once here. */
const EXPORT_SLOTS = 4;

let t: TestServer;
let world: FuzzWorld;
let secrets: string[];
const source = plantSource();

beforeAll(async () => {
  t = await startTestServer();
  const pool = t.db.pool;

  // A listing carrying private contact data that must never be served, in a known place so searches find it.
  const tag = randomBytes(6).toString('hex');
  const [plantedId] = await plantListings(pool, source, [
    { city: 'Kribi', neighborhood: 'Londji', type: 'villa', purpose: 'sale', price: 123_456_789, surface: 250, listedAt: new Date() },
  ]);
  const contact = {
    name: `Hidden Person ${tag}`,
    phone: `+237 6${tag.replace(/\D/g, '').padEnd(8, '7').slice(0, 8)}`,
    email: `owner-${tag}@private.example`,
    street: `${tag} rue des Secrets`,
  };
  await pool.query('UPDATE listings SET contact_name = $1, contact_phone = $2, contact_email = $3, street_address = $4 WHERE id = $5', [
    contact.name,
    contact.phone,
    contact.email,
    contact.street,
    plantedId,
  ]);
  secrets = [contact.name, contact.phone, contact.email, contact.street, tag];

  const keysOf = async (plan: 'starter' | 'pro' | 'enterprise', n: number) =>
    Promise.all(Array.from({ length: n }, async () => (await t.account(plan)).key));
  const testKeys = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const a = await t.account('pro');
      return (await createKey(t.db.prisma, a.id, 'fuzz', new Date(), { kind: 'test' })).key;
    }),
  );
  const exhausted = await t.account('enterprise', { monthlyQuota: 1 });
  const revoked = await t.account('pro');
  await pool.query("UPDATE api_keys SET revoked_at = now() - interval '1 minute' WHERE account_id = $1", [revoked.id]);
  const suspended = await t.account('starter');
  await pool.query("UPDATE accounts SET status = 'suspended' WHERE id = $1", [suspended.id]);
  const unverified = await createAccount(t.db.prisma, { email: `${randomId('t')}@test.mboa.cm`, plan: 'pro', emailVerified: false });

  const listing = await pool.query<{ id: string }>("SELECT id FROM listings WHERE source = 'mboa-seed' ORDER BY id LIMIT 1");
  const page = await get(t.baseUrl, '/api/v1/listings?limit=5&city=Douala', t.keys.enterprise);
  expect(page.status).toBe(200);
  world = {
    keys: {
      valid: {
        starter: [t.keys.starter, ...(await keysOf('starter', 5))],
        pro: [t.keys.pro, ...(await keysOf('pro', 3))],
        enterprise: [t.keys.enterprise, ...(await keysOf('enterprise', 1))],
        test: testKeys,
        exhausted: [exhausted.key],
      },
      refused: [revoked.key, suspended.key, unverified.key],
    },
    plantedId,
    listingId: listing.rows[0].id,
    cursor: page.body.meta.next_cursor,
  };
  // The planted listing is served (so the check below means something), without its private fields.
  const detail = await get(t.baseUrl, `/api/v1/listings/${plantedId}`, t.keys.enterprise);
  expect(detail.status).toBe(200);
  for (const s of secrets) expect(detail.text).not.toContain(s);
}, 60_000);

afterAll(async () => {
  await t?.close();
  if (t) await removePlanted(t.db.pool, source).catch(() => {});
});

/** At most `n` at once. */
function slots(n: number) {
  let free = n;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}

function sentText(r: FuzzRequest): string {
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  const target = r.raw ?? r.path;
  return [target, decode(target), ...Object.values(r.headers).flat(), r.body ?? ''].join('\n');
}

it(`never answers 5xx, always problem+json when refusing, never leaks insides or private data (${REQUESTS} generated requests)`, async () => {
  console.log(`fuzz: seed=${SEED} (replay with MBOA_FUZZ_SEED=${SEED})`);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const exportSlot = slots(EXPORT_SLOTS);
  const statuses: Record<string, number> = {};
  const routes: Record<string, number> = {};
  const okByRoute: Record<string, number> = {};
  const tally = { requests: 0, raw: 0, refusedByClient: 0 };
  const started = performance.now();

  const perform = (r: FuzzRequest): Promise<WireResult> => {
    if (r.via === 'raw') return sendRaw(t.baseUrl, Buffer.from(r.raw!, 'latin1'));
    const go = () => send(t.baseUrl, { method: r.method, path: r.path, headers: r.headers, body: r.body }, agent);
    return r.route === 'exports.listings' ? exportSlot(go) : go();
  };

  const describe = (r: FuzzRequest) =>
    r.via === 'raw'
      ? `raw ${JSON.stringify(r.raw!.slice(0, 300))}`
      : `${r.method} ${r.path.slice(0, 300)} ${JSON.stringify(r.headers).slice(0, 300)}`;

  try {
    const details = await fc.check(
      fc.asyncProperty(fc.array(fuzzRequest(world), { minLength: CONCURRENCY, maxLength: CONCURRENCY }), async (batch) => {
        const results = await Promise.all(batch.map(perform));
        const violations: string[] = [];
        results.forEach((result, i) => {
          const r = batch[i];
          if (!result.ok && result.error.startsWith('client refused')) {
            tally.refusedByClient++;
            return;
          }
          tally.requests++;
          if (r.via === 'raw') tally.raw++;
          routes[r.route] = (routes[r.route] ?? 0) + 1;
          if (!result.ok) {
            violations.push(`${describe(r)}\n  → no answer: ${result.error}`);
            return;
          }
          const { status } = result.answer;
          statuses[status] = (statuses[status] ?? 0) + 1;
          // A valuation refused for too few comparables (422 insufficient_data) went through its whole handler too.
          const valued = status === 422 && r.route === 'valuations.get' && /"insufficient_data"/.test(result.answer.body.toString());
          if ((status >= 200 && status < 300) || valued) okByRoute[r.route] = (okByRoute[r.route] ?? 0) + 1;
          const problems = checkAnswer(result.answer, {
            method: r.method,
            sent: sentText(r),
            secrets,
            enveloped: r.via === 'http' && contractRouteNames().includes(r.route) && r.route !== 'exports.listings',
            conditional: 'if-none-match' in r.headers || 'if-modified-since' in r.headers,
          });
          if (problems.length)
            violations.push(
              `${describe(r)}\n  → ${status}: ${problems.join('; ')}\n  body: ${result.answer.body.toString('utf8').slice(0, 400)}`,
            );
        });
        if (violations.length) throw new Error(`${violations.length} bad answer(s):\n${violations.join('\n')}`);
      }),
      { seed: SEED, numRuns: Math.ceil(REQUESTS / CONCURRENCY), endOnFailure: true },
    );
    // The batch that failed is in the message; fast-check's own report would print all 16 requests in full.
    if (details.failed)
      throw new Error(
        `seed ${details.seed}, path "${details.counterexamplePath}": ${(details.errorInstance as Error)?.message ?? 'failed'}`,
      );
  } finally {
    agent.destroy();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const byStatus = Object.entries(statuses)
      .map(([s, n]) => `${s}:${n}`)
      .join(',');
    console.log(
      `fuzz: seed=${SEED}, requests=${tally.requests} (raw TCP ${tally.raw}, not sendable by node:http ${tally.refusedByClient}), statuses={${byStatus}}, ` +
        `routes={${Object.entries(routes)
          .map(([r, n]) => `${r}:${n}/${okByRoute[r] ?? 0} ok`)
          .join(',')}}, ${seconds} s`,
    );
  }

  expect(tally.requests).toBeGreaterThanOrEqual(REQUESTS * 0.99);
  // Every route was hit, and every API route also answered 2xx often enough for its handler to have been fuzzed.
  for (const route of FUZZED_ROUTES) expect(routes[route] ?? 0, route).toBeGreaterThanOrEqual(40);
  for (const route of contractRouteNames()) {
    expect(FUZZED_ROUTES, `route ${route} missing from the fuzz`).toContain(route);
    expect(okByRoute[route] ?? 0, `2xx answers (or, for a valuation, 422 insufficient_data) of ${route}`).toBeGreaterThanOrEqual(10);
  }
}, 120_000);

it('the checks catch what they look for', () => {
  const answer = (status: number, body: string, type = 'application/problem+json') => ({
    status,
    headers: { 'content-type': type, 'x-request-id': 'req_1' },
    body: Buffer.from(body),
  });
  const o = { method: 'GET', sent: 'GET /api/v1/listings', secrets: ['owner-x@private.example'], enveloped: true };
  const problem = (extra: object = {}) =>
    JSON.stringify({ code: 'validation_error', status: 400, meta: { request_id: 'req_1' }, ...extra });
  expect(checkAnswer(answer(400, problem()), o)).toEqual([]);
  expect(checkAnswer(answer(500, JSON.stringify({ code: 'internal_error', status: 500, meta: { request_id: 'req_1' } })), o)).toContain(
    'status 500',
  );
  expect(checkAnswer(answer(404, '<html>Not found</html>', 'text/html'), o).join()).toMatch(/not application\/problem\+json/);
  expect(checkAnswer(answer(400, JSON.stringify({ status: 400, meta: { request_id: 'req_1' } })), o)).toContain(
    '400 problem without a code',
  );
  expect(checkAnswer(answer(400, JSON.stringify({ code: 'x', status: 400 })), o)).toContain('400 problem without meta.request_id');
  const leaks = [
    'TypeError: Cannot read properties of undefined',
    'Error: boom\n    at search (/work/app/server/listings/search.ts:42:13)',
    'PrismaClientKnownRequestError',
    'SELECT id FROM listings WHERE city = $1',
    'syntax error at or near "FROM"',
    'connect ECONNREFUSED 127.0.0.1:5432',
  ];
  for (const leak of leaks) expect(checkAnswer(answer(400, problem({ detail: leak })), o).join(), leak).toMatch(/in the answer/);
  // What the request itself carried may be echoed (an unknown parameter's name).
  expect(
    checkAnswer(answer(400, problem({ detail: 'prisma: unknown query parameter' })), { ...o, sent: 'GET /api/v1/listings?prisma=1' }),
  ).toEqual([]);
  expect(
    checkAnswer(
      answer(200, JSON.stringify({ data: [{ contact: 'owner-x@private.example' }], meta: { request_id: 'req_1' } }), 'application/json'),
      o,
    ).join(),
  ).toMatch(/private data/);
  expect(checkAnswer(answer(200, JSON.stringify({ data: [], meta: { request_id: 'req_2' } }), 'application/json'), o).join()).toMatch(
    /differs/,
  );
});
