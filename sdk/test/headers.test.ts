import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { MboaError, VERSION } from '../src/index.js';
import { API, KEY, client, ping, server, useMockServer } from './helpers.js';

useMockServer();

/** Records the headers of every ping. */
function recordHeaders() {
  const seen: Headers[] = [];
  server.use(
    http.get(`${API}/ping`, ({ request }) => {
      seen.push(request.headers);
      return ping();
    }),
  );
  return seen;
}

describe('request headers', () => {
  it('sends the key, Accept and the SDK in User-Agent', async () => {
    const seen = recordHeaders();
    await client().ping();
    expect(seen[0]!.get('x-api-key')).toBe(KEY);
    expect(seen[0]!.get('accept')).toBe('application/json');
    expect(seen[0]!.get('user-agent')).toBe(`mboa-sdk-js/${VERSION}`);
  });

  it('appInfo adds the application to the User-Agent', async () => {
    const seen = recordHeaders();
    await client({ appInfo: { name: 'loan-valuer', version: '1.2.0' } }).ping();
    await client({ appInfo: { name: 'nightly_sync' } }).ping();
    expect(seen.map((h) => h.get('user-agent'))).toEqual([
      `mboa-sdk-js/${VERSION} loan-valuer/1.2.0`,
      `mboa-sdk-js/${VERSION} nightly_sync`,
    ]);
  });

  it('refuses an appInfo that would break the User-Agent', () => {
    expect(() => client({ appInfo: { name: 'loan valuer' } })).toThrow(/appInfo.name/);
    expect(() => client({ appInfo: { name: 'app/1' } })).toThrow(/appInfo.name/);
    expect(() => client({ appInfo: { name: 'app', version: '1.0 beta' } })).toThrow(/appInfo.version/);
    expect(() => client({ appInfo: {} as never })).toThrow(MboaError);
  });

  it('sends defaultHeaders with every call; a call’s headers go over them, null removes one', async () => {
    const seen = recordHeaders();
    const mboa = client({ defaultHeaders: { 'X-Team': 'valuation', 'X-Env': 'prod' } });
    await mboa.ping();
    await mboa.ping({ headers: { 'x-team': 'risk', 'X-Env': null, 'X-Request-Id': 'batch-2026-11-22-0001' } });
    expect(seen[0]!.get('x-team')).toBe('valuation');
    expect(seen[0]!.get('x-env')).toBe('prod');
    expect(seen[1]!.get('x-team')).toBe('risk');
    expect(seen[1]!.has('x-env')).toBe(false);
    expect(seen[1]!.get('x-request-id')).toBe('batch-2026-11-22-0001');
    expect(seen[1]!.get('x-api-key')).toBe(KEY);
  });

  it('lets defaultHeaders replace the User-Agent', async () => {
    const seen = recordHeaders();
    await client({ defaultHeaders: { 'User-Agent': 'bank-gateway/3' } }).ping();
    expect(seen[0]!.get('user-agent')).toBe('bank-gateway/3');
  });

  it('never lets a header replace the API key', async () => {
    expect(() => client({ defaultHeaders: { 'X-API-Key': 'mboa_live_other' } })).toThrow(/apiKey/);
    expect(() => client({ defaultHeaders: { 'x-api-key': null } })).toThrow(expect.objectContaining({ code: 'configuration_error' }));
    const seen = recordHeaders();
    await expect(client().ping({ headers: { 'X-Api-Key': 'mboa_live_other' } })).rejects.toMatchObject({ code: 'invalid_argument' });
    expect(seen).toHaveLength(0);
  });

  it('refuses header names and values HTTP cannot carry', () => {
    expect(() => client({ defaultHeaders: { 'X Team': 'a' } })).toThrow(/not a valid header name/);
    expect(() => client({ defaultHeaders: { 'X-Team': 'a\r\nX-Evil: 1' } })).toThrow(/printable ASCII/);
    expect(() => client({ defaultHeaders: { 'X-Count': 3 as never } })).toThrow(/printable ASCII/);
    expect(() => client({ defaultHeaders: ['X-Team'] as never })).toThrow(/an object/);
  });
});
