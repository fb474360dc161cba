/**
 * Control characters in the API's parameters: a NUL byte (`%00`), another C0 byte or DEL
 * in any query parameter (its name included) or path segment is a 400 `validation_error`
 * naming the parameter and saying why, never a 500, and never charged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startTestServer, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t?.close());

const SAYS = 'contains a control character (such as %00): remove it';

describe('control characters in API parameters', () => {
  const cases: Array<[string, string]> = [
    ['/api/v1/listings?city=%00', 'city'],
    ['/api/v1/listings?city=Douala&neighborhood=Akwa%00', 'neighborhood'],
    ['/api/v1/listings?city=Dou%01ala', 'city'],
    ['/api/v1/listings?city=Douala&cursor=abc%1B', 'cursor'],
    ['/api/v1/listings?city=Douala&purpose=sale%7F', 'purpose'],
    ['/api/v1/listings?city=Douala&sort=price%0A', 'sort'],
    ['/api/v1/listings?%00=1', '\u0000'],
    ['/api/v1/listings/lst_%00', 'id'],
    ['/api/v1/market/stats?city=%00', 'city'],
    ['/api/v1/market/trends?city=Douala%09', 'city'],
    ['/api/v1/exports/listings?city=%00', 'city'],
  ];
  it.each(cases)('%s is a 400 naming %j, not charged', async (path, param) => {
    const before = await get(t.baseUrl, '/api/v1/ping', t.keys.enterprise);
    const res = await get(t.baseUrl, path, t.keys.enterprise);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.code).toBe('validation_error');
    expect(res.body.errors).toContainEqual({ path: param, message: SAYS });
    expect(res.body.detail).toContain(SAYS);
    // The refusal is free: the remaining quota is what the ping left.
    expect(res.headers.get('x-quota-remaining')).toBe(before.headers.get('x-quota-remaining'));
  });
});
