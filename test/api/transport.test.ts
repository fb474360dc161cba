/**
 * What happens on the wire: compression, caching rules, HSTS behind https, answers to
 * requests Node's parser refuses, and cursor secrets that rotate without breaking cursors.
 */
import { createHmac } from 'node:crypto';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, startTestServer, TEST_SECRETS, type TestServer } from '../helpers/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ server: { trustProxy: 'loopback' } });
});
afterAll(() => t.close());

/** Raw bytes to the server; resolves with the whole answer once the server closes. */
function raw(base: string, request: Buffer | string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
  });
}

describe('compression', () => {
  it('gzips and brotli-compresses a 200-listing page when asked, and only then', async () => {
    const path = '/api/v1/listings?limit=200&status=any';
    const plain = await fetch(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': t.keys.enterprise, 'Accept-Encoding': 'identity' } });
    const plainBytes = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get('content-encoding')).toBeNull();
    const ids = (JSON.parse(plainBytes.toString()) as { data: Array<{ id: string }> }).data.map((l) => l.id);
    expect(ids).toHaveLength(200);

    for (const [encoding, decode] of [
      ['gzip', gunzipSync],
      ['br', brotliDecompressSync],
    ] as const) {
      // node:http directly: fetch would decompress on its own and hide the bytes.
      const res = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        import('node:http').then(({ request }) => {
          const req = request(`${t.baseUrl}${path}`, { headers: { 'X-API-Key': t.keys.enterprise, 'Accept-Encoding': encoding } }, (r) => {
            const parts: Buffer[] = [];
            r.on('data', (d: Buffer) => parts.push(d));
            r.on('end', () => resolve({ headers: r.headers, body: Buffer.concat(parts) }));
          });
          req.on('error', reject);
          req.end();
        }, reject);
      });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(String(res.headers.vary)).toMatch(/Accept-Encoding/i);
      expect(res.body.length).toBeLessThan(plainBytes.length / 3);
      const decoded = JSON.parse(decode(res.body).toString()) as { data: Array<{ id: string }> };
      expect(decoded.data.map((l) => l.id)).toEqual(ids);
    }
  });

  it('compresses the OpenAPI document and the reference page', async () => {
    for (const path of ['/api/v1/openapi.json', '/docs/', '/docs/assets/swagger-ui-bundle.js']) {
      const res = await raw(t.baseUrl, `GET ${path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br, gzip\r\nConnection: close\r\n\r\n`);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-encoding'], path).toBe('br');
    }
  });
});

describe('caching and transport security', () => {
  it('marks every API answer no-store, errors included', async () => {
    expect((await get(t.baseUrl, '/api/v1/ping', t.keys.starter)).headers.get('cache-control')).toBe('no-store');
    expect((await get(t.baseUrl, '/api/v1/listings?limit=0', t.keys.starter)).headers.get('cache-control')).toBe('no-store');
    expect((await get(t.baseUrl, '/api/v1/ping')).headers.get('cache-control')).toBe('no-store');
  });

  it('sends HSTS and Secure cookies when the request came over https through a trusted proxy, not over plain http', async () => {
    const https = await fetch(`${t.baseUrl}/dashboard/login`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(https.headers.get('set-cookie')).toMatch(/; Secure/);
    const api = await get(t.baseUrl, '/api/v1/ping', t.keys.starter, { 'X-Forwarded-Proto': 'https' });
    expect(api.headers.get('strict-transport-security')).toMatch(/^max-age=/);

    const plain = await fetch(`${t.baseUrl}/dashboard/login`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    expect(plain.headers.get('set-cookie')).not.toMatch(/Secure/);
  });
});

describe('requests the HTTP parser refuses', () => {
  const expectProblem = (res: Awaited<ReturnType<typeof raw>>, status: number, code: string) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const body = JSON.parse(res.body) as { code: string; status: number; detail: string; meta: { request_id: string } };
    expect(body).toMatchObject({ code, status, type: `https://docs.mboa.cm/errors/${code}` });
    expect(body.meta.request_id).toMatch(/^req_/);
    expect(res.headers['x-request-id']).toBe(body.meta.request_id);
    expect(res.headers.connection).toBe('close');
    return body;
  };

  it('answers raw UTF-8 in the URL (a pasted `city=Yaoundé`) with a problem+json 400 and how to encode it', async () => {
    const request = Buffer.from(
      `GET /api/v1/market/stats?city=Yaoundé&purpose=rent HTTP/1.1\r\nHost: x\r\nX-API-Key: ${t.keys.starter}\r\n\r\n`,
      'utf8',
    );
    const body = expectProblem(await raw(t.baseUrl, request), 400, 'malformed_request');
    expect(body.detail).toMatch(/percent-encoded/);
    expect(body.detail).toContain('Yaound%C3%A9');
    expect(body.detail).toContain('--data-urlencode');
  });

  it('answers oversized headers with 431 and a malformed request line with 400', async () => {
    expectProblem(
      await raw(t.baseUrl, `GET /api/v1/ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
      431,
      'headers_too_large',
    );
    expectProblem(await raw(t.baseUrl, 'HELLO\r\n\r\n'), 400, 'malformed_request');
    expectProblem(await raw(t.baseUrl, 'GET / HTTP/1.1\r\nBad Header: x\r\n\r\n'), 400, 'malformed_request');
  });

  it('the encoded request the hint suggests works', async () => {
    const res = await get(t.baseUrl, '/api/v1/market/stats?city=Yaound%C3%A9&purpose=rent', t.keys.starter);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data[0].city).toBe('Yaoundé');
  });
});

describe('cursor secrets', () => {
  const sign = (secret: string, body: string) => createHmac('sha256', secret).update(`cursor:${body}`).digest('base64url').slice(0, 22);
  const fingerprint = (secret: string, bound: Record<string, unknown>) =>
    createHmac('sha256', secret)
      .update(
        JSON.stringify(
          Object.keys(bound)
            .sort()
            .map((k) => [k, bound[k] ?? null]),
        ),
      )
      .digest('base64url')
      .slice(0, 16);

  it('a cursor signed with the secret before a rotation keeps working while that value is listed as previous', async () => {
    const path = '/api/v1/listings?limit=2&sort=price';
    const first = await get(t.baseUrl, path, t.keys.starter);
    const cursor = encodeURIComponent(first.body.meta.next_cursor);
    const rotated = await startTestServer({
      server: { secrets: { ...TEST_SECRETS, cursor: ['a-new-cursor-secret-0123456789-abcdef', ...TEST_SECRETS.cursor] } },
    });
    const forgotten = await startTestServer({
      server: { secrets: { ...TEST_SECRETS, cursor: ['a-new-cursor-secret-0123456789-abcdef'] } },
    });
    try {
      const next = await get(rotated.baseUrl, `${path}&cursor=${cursor}`, rotated.keys.starter);
      expect(next.status).toBe(200);
      expect(next.body.data[0].price).toBeGreaterThanOrEqual(first.body.data[1].price);
      // Its own cursors are signed with the new value.
      const again = await get(rotated.baseUrl, `${path}&cursor=${encodeURIComponent(next.body.meta.next_cursor)}`, rotated.keys.starter);
      expect(again.status).toBe(200);
      const refused = await get(forgotten.baseUrl, `${path}&cursor=${cursor}`, forgotten.keys.starter);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe('invalid_cursor');
    } finally {
      await rotated.close();
      await forgotten.close();
    }
  });

  it('a correctly signed cursor with an impossible payload is a 400, never a 500 or a negative total', async () => {
    const secret = TEST_SECRETS.cursor[0];
    const bound = { sort: 'price', status: 'active' };
    const forge = (payload: unknown) => {
      const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return encodeURIComponent(`${body}.${sign(secret, body)}`);
    };
    const f = fingerprint(secret, bound);
    const forged = [
      { v: 1, f, k: [100, 'lst_aaaaaaaaaaaaaaaaaaaa'], t: -5 },
      { v: 1, f, k: ['not-a-price', 'lst_aaaaaaaaaaaaaaaaaaaa'], t: 10 },
      { v: 1, f, k: [100, "'; DROP TABLE listings; --"], t: 10 },
      { v: 1, f, k: [100], t: 10 },
      { v: 2, f, k: [100, 'lst_aaaaaaaaaaaaaaaaaaaa'], t: 10 },
      [1, 2, 3],
      null,
    ];
    for (const payload of forged) {
      const res = await get(t.baseUrl, `/api/v1/listings?sort=price&cursor=${forge(payload)}`, t.keys.starter);
      expect(res.status, JSON.stringify(payload)).toBe(400);
      expect(res.body.code).toBe('invalid_cursor');
    }
    // The same forgery with a valid payload is accepted: the checks above are the ones refusing.
    const ok = await get(
      t.baseUrl,
      `/api/v1/listings?sort=price&cursor=${forge({ v: 1, f, k: [100, 'lst_aaaaaaaaaaaaaaaaaaaa'], t: 10 })}`,
      t.keys.starter,
    );
    expect(ok.status).toBe(200);
    expect(ok.body.meta.total).toBe(10);
  });
});
