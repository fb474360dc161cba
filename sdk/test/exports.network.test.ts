/**
 * The export over a real socket (a local `node:http` server following the API's rules),
 * for what a mock cannot show: a TCP connection destroyed mid-line, gzip negotiated by
 * the runtime's fetch, and the connection closed when the caller's loop stops early.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type ClientOptions, Mboa } from '../src/index.js';
import type { Listing } from '../src/types.js';
import { KEY } from './helpers.js';
import { exportItems } from './export-helpers.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

interface Seen {
  after: string | null;
  gzipped: boolean;
  closedEarly: boolean;
}

/**
 * Serves `items` after `?after=`, gzipped when asked. `handle` decides, per request
 * number, how to write the lines (whole, cut, slowly).
 */
async function start(
  items: Listing[],
  handle: (n: number, lines: string[], out: NodeJS.WritableStream, res: ServerResponse) => void,
): Promise<{ mboa: (options?: ClientOptions) => Mboa; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const after = url.searchParams.get('after');
    const gzipped = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const record: Seen = { after, gzipped, closedEarly: false };
    seen.push(record);
    res.on('close', () => (record.closedEarly = !res.writableFinished));
    res.writeHead(200, {
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      'X-Request-Id': `req_${seen.length}`,
      'X-Quota-Limit': 'unlimited',
      'X-Quota-Remaining': 'unlimited',
      'X-Quota-Reset': '1796083200',
      ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
    });
    let out: NodeJS.WritableStream = res;
    if (gzipped) {
      const gzip = createGzip();
      gzip.pipe(res);
      out = gzip;
    }
    const lines = items.filter((l) => after === null || l.id > after).map((l) => `${JSON.stringify(l)}\n`);
    handle(seen.length, lines, out, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { mboa: (options = {}) => new Mboa({ apiKey: KEY, baseUrl, ...options }), seen };
}

describe('exports over a real connection', () => {
  it('resumes after the server destroys the socket mid-line, gzip on both requests', async () => {
    const items = exportItems(500);
    // The socket is destroyed once the caller has read the 200 whole lines: a reset
    // discards whatever the runtime had received but not yet handed out, so waiting
    // makes the cut land exactly after line 200, in the middle of line 201.
    let readAll200!: () => void;
    const read200 = new Promise<void>((resolve) => (readAll200 = resolve));
    const { mboa, seen } = await start(items, (n, lines, out, res) => {
      if (n > 1) {
        out.end(lines.join(''));
        return;
      }
      const gzip = out as ReturnType<typeof createGzip>;
      gzip.write(lines.slice(0, 200).join('') + lines[200]!.slice(0, 40));
      gzip.flush(() => void read200.then(() => setTimeout(() => res.socket?.destroy(), 20)));
    });
    const exp = mboa().exports.listings();
    const received: Listing[] = [];
    for await (const listing of exp) {
      received.push(listing);
      if (received.length === 200) readAll200();
    }

    expect(received.map((l) => l.id)).toEqual(items.map((l) => l.id));
    expect(received).toEqual(items);
    expect(seen.map((s) => s.after)).toEqual([null, items[199]!.id]);
    // The runtime's fetch asks for compression and decodes it.
    expect(seen.every((s) => s.gzipped)).toBe(true);
    expect(exp).toMatchObject({ resumes: 1, complete: true });
    expect(exp.response?.requestId).toBe('req_2');
  });

  it('closes the connection when the loop stops early', async () => {
    const items = exportItems(5000);
    const { mboa, seen } = await start(items, (_n, lines, out) => {
      // Slowly, so the export is still being written when the caller stops.
      let i = 0;
      const timer = setInterval(() => {
        if (i >= lines.length) {
          clearInterval(timer);
          out.end();
          return;
        }
        out.write(lines.slice(i, i + 50).join(''));
        i += 50;
      }, 5);
      (out as NodeJS.WritableStream & { on: (e: string, f: () => void) => void }).on('close', () => clearInterval(timer));
    });
    let count = 0;
    for await (const _ of mboa().exports.listings()) {
      if (++count === 120) break;
    }
    const deadline = Date.now() + 5_000;
    while (!seen[0]!.closedEarly && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.closedEarly).toBe(true);
  });
});
