/**
 * Every route of saved searches and webhook endpoints, writes included, refuses as the
 * reads do (test/api/security.test.ts): no key or an invalid one is a 401, a suspended
 * account a 403, a Starter key a 403 plan_forbidden naming the plans that include it; and
 * a Pro key is served (or told the resource is unknown, never refused).
 */
import { describe, expect, it } from 'vitest';
import { contract } from '../../contract/router.js';
import type { RouteMetadata } from '../../contract/router.js';
import { serverWithAccount } from '../helpers/server.js';

const t = serverWithAccount('pro');

interface PushRoute {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  metadata: RouteMetadata;
}

const SS = 'ss_aaaaaaaaaaaaaaaa';
const WE = 'we_aaaaaaaaaaaaaaaa';
const ROUTES: PushRoute[] = [
  {
    name: 'savedSearches.create',
    method: 'POST',
    path: '/saved-searches',
    body: { name: 'x', filters: { city: 'Douala' } },
    metadata: contract.savedSearches.create.metadata,
  },
  { name: 'savedSearches.list', method: 'GET', path: '/saved-searches', metadata: contract.savedSearches.list.metadata },
  { name: 'savedSearches.get', method: 'GET', path: `/saved-searches/${SS}`, metadata: contract.savedSearches.get.metadata },
  {
    name: 'savedSearches.update',
    method: 'PATCH',
    path: `/saved-searches/${SS}`,
    body: { name: 'y' },
    metadata: contract.savedSearches.update.metadata,
  },
  { name: 'savedSearches.delete', method: 'DELETE', path: `/saved-searches/${SS}`, metadata: contract.savedSearches.delete.metadata },
  {
    name: 'savedSearches.listings',
    method: 'GET',
    path: `/saved-searches/${SS}/listings`,
    metadata: contract.savedSearches.listings.metadata,
  },
  {
    name: 'webhookEndpoints.create',
    method: 'POST',
    path: '/webhook-endpoints',
    body: { url: 'https://1.1.1.1/hook', events: ['listing.created'] },
    metadata: contract.webhookEndpoints.create.metadata,
  },
  { name: 'webhookEndpoints.list', method: 'GET', path: '/webhook-endpoints', metadata: contract.webhookEndpoints.list.metadata },
  {
    name: 'webhookEndpoints.delete',
    method: 'DELETE',
    path: `/webhook-endpoints/${WE}`,
    metadata: contract.webhookEndpoints.delete.metadata,
  },
  {
    name: 'webhookEndpoints.rotateSecret',
    method: 'POST',
    path: `/webhook-endpoints/${WE}/rotate-secret`,
    metadata: contract.webhookEndpoints.rotateSecret.metadata,
  },
  {
    name: 'webhookEndpoints.deliveries',
    method: 'GET',
    path: `/webhook-endpoints/${WE}/deliveries`,
    metadata: contract.webhookEndpoints.deliveries.metadata,
  },
  {
    name: 'webhookEndpoints.test',
    method: 'POST',
    path: `/webhook-endpoints/${WE}/test`,
    metadata: contract.webhookEndpoints.test.metadata,
  },
  {
    name: 'webhookEndpoints.resend',
    method: 'POST',
    path: `/webhook-endpoints/${WE}/deliveries/whd_aaaaaaaaaaaaaaaa/resend`,
    metadata: contract.webhookEndpoints.resend.metadata,
  },
];

async function call(route: PushRoute, key?: string) {
  const res = await fetch(`${t.baseUrl}/api/v1${route.path}`, {
    method: route.method,
    headers: { ...(key ? { 'X-API-Key': key } : {}), ...(route.body ? { 'Content-Type': 'application/json' } : {}) },
    body: route.body ? JSON.stringify(route.body) : undefined,
  });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

it('covers every route of both groups', () => {
  const names = [
    ...Object.keys(contract.savedSearches).map((k) => `savedSearches.${k}`),
    ...Object.keys(contract.webhookEndpoints).map((k) => `webhookEndpoints.${k}`),
  ];
  expect(ROUTES.map((r) => r.name).sort()).toEqual(names.sort());
});

describe.each(ROUTES)('$name', (route) => {
  it('refuses without a key, with an invalid one, and on Starter; serves Pro and Enterprise', async () => {
    expect(route.metadata.plans).toEqual(['pro', 'enterprise']);
    const none = await call(route);
    expect([none.status, none.body.code]).toEqual([401, 'missing_api_key']);
    const invalid = await call(route, `mboa_live_${'A'.repeat(32)}`);
    expect([invalid.status, invalid.body.code]).toEqual([401, 'invalid_api_key']);
    const starter = await call(route, t.keys.starter);
    expect([starter.status, starter.body.code]).toEqual([403, 'plan_forbidden']);
    expect(starter.body.detail).toContain('Plans that include it: Pro, Enterprise.');
    expect(starter.type).toMatch(/^application\/problem\+json/);
    for (const key of [t.key, t.keys.enterprise]) {
      const served = await call(route, key);
      // An unknown id is a 404 of the resource, never a refusal of the caller.
      expect([200, 201, 404], JSON.stringify(served.body)).toContain(served.status);
      if (served.status === 404) expect(served.body.code).toBe('not_found');
    }
  });
});
