/**
 * Authentication and plans, the same on every route: no key, malformed key, unknown key,
 * revoked key, wrong plan, suspended account. Every refusal is problem+json with meta.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_NAMES, PLANS } from '../../contract/plans.js';
import { revokeKey } from '../../server/accounts/keys.js';
import { contractRouteNames, ROUTE_CASES } from '../helpers/routes.js';
import { get, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
let listingId: string;
let revokedKey: string;
let suspendedKey: string;

beforeAll(async () => {
  t = await startTestServer();
  const { rows } = await t.db.pool.query<{ id: string }>("SELECT id FROM listings WHERE status = 'active' ORDER BY id LIMIT 1");
  listingId = rows[0].id;

  const revoked = await t.account('pro');
  revokedKey = revoked.key;
  await revokeKey(t.db.prisma, revoked.id, revoked.key.slice(0, 16));

  const suspended = await t.account('enterprise');
  suspendedKey = suspended.key;
  await t.db.prisma.account.update({ where: { id: suspended.id }, data: { status: 'suspended' } });
});
afterAll(() => t.close());

function expectProblem(res: Awaited<ReturnType<typeof get>>, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({ status, code, type: `https://docs.mboa.cm/errors/${code}` });
  expect(typeof res.body.title).toBe('string');
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+/); // no stack trace
}

it('every contract route is covered by the shared suites', () => {
  expect(ROUTE_CASES.map((r) => r.name).sort()).toEqual(contractRouteNames());
});

describe.each(ROUTE_CASES)('$name', (route) => {
  it('refuses a request without a key: 401 missing_api_key', async () => {
    expectProblem(await get(t.baseUrl, route.path(listingId)), 401, 'missing_api_key');
  });

  it('refuses an empty key: 401 missing_api_key', async () => {
    expectProblem(await get(t.baseUrl, route.path(listingId), '  '), 401, 'missing_api_key');
  });

  it('gives the same 401 invalid_api_key for malformed, unknown and revoked keys', async () => {
    const malformed = await get(t.baseUrl, route.path(listingId), 'not-a-key');
    const unknown = await get(t.baseUrl, route.path(listingId), `mboa_live_${'A'.repeat(32)}`);
    const revoked = await get(t.baseUrl, route.path(listingId), revokedKey);
    for (const res of [malformed, unknown, revoked]) expectProblem(res, 401, 'invalid_api_key');
    expect(new Set([malformed, unknown, revoked].map((r) => r.body.detail)).size).toBe(1);
  });

  it('refuses a suspended account: 403 account_suspended', async () => {
    expectProblem(await get(t.baseUrl, route.path(listingId), suspendedKey), 403, 'account_suspended');
  });

  for (const plan of PLAN_NAMES) {
    const included = route.metadata.plans.includes(plan);
    it(`${included ? 'serves' : 'refuses (403 plan_forbidden)'} the ${plan} plan`, async () => {
      const res = await get(t.baseUrl, route.path(listingId), t.keys[plan]);
      if (included) {
        expect(res.status).toBe(200);
        if (route.ndjson) {
          // A stream has no `meta`: its quota and request id are in the headers.
          expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
          expect(res.headers.get('x-request-id')).toMatch(/^req_/);
          expect(res.headers.get('x-quota-reset')).toMatch(/^\d+$/);
        } else {
          expect(res.headers.get('content-type')).toMatch(/^application\/json/);
          expect(res.body.meta.request_id).toBe(res.headers.get('x-request-id'));
          expect(res.body.meta.quota.plan).toBe(plan);
        }
      } else {
        expectProblem(res, 403, 'plan_forbidden');
        const including = route.metadata.plans.map((p) => PLANS[p].label).join(', ');
        expect(res.body.detail).toContain(`Plans that include it: ${including}.`);
        expect(res.body.meta.quota.plan).toBe(plan);
      }
    });
  }
});

it('the plan table matches the specification: Starter has no trends nor history, only Enterprise exports and values', () => {
  const only = (name: string) => ROUTE_CASES.find((r) => r.name === name)!.metadata.plans;
  expect(only('market.trends')).toEqual(['pro', 'enterprise']);
  expect(only('market.history')).toEqual(['pro', 'enterprise']);
  expect(only('exports.listings')).toEqual(['enterprise']);
  expect(only('valuations.get')).toEqual(['enterprise']);
  const apart = ['market.trends', 'market.history', 'exports.listings', 'valuations.get'];
  for (const r of ROUTE_CASES.filter((r) => !apart.includes(r.name))) expect(r.metadata.plans).toEqual([...PLAN_NAMES]);
});
