/**
 * HTTP as a hostile or unlucky client sends it: any method, repeated headers, bodies on a
 * GET, compressed answers read back as bytes (node:http, which neither fixes nor hides
 * anything), and raw bytes over TCP for what no HTTP client would send. Every answer is
 * read to its end, or reported as cut.
 */
import { type Agent, type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export interface WireAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as sent, decompressed when the server compressed it. */
  body: Buffer;
}

export type WireResult = { ok: true; answer: WireAnswer; ms: number } | { ok: false; error: string; ms: number };

export interface WireRequest {
  method: string;
  /** Path and query, as they go on the request line. */
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  timeoutMs?: number;
}

export function decodeBody(encoding: string | undefined, bytes: Buffer): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
      return gunzipSync(bytes);
    case 'br':
      return brotliDecompressSync(bytes);
    case 'deflate':
      return inflateSync(bytes);
    default:
      return bytes;
  }
}

/** One request through node:http; resolves with the whole answer, or with why there is none. */
export function send(base: string, r: WireRequest, agent?: Agent): Promise<WireResult> {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let done = false;
    const finish = (result: WireResult) => {
      if (done) return;
      done = true;
      resolve(result);
    };
    let req: ReturnType<typeof request>;
    try {
      req = request(
        { host: hostname, port: Number(port), method: r.method, path: r.path, headers: r.headers, agent, timeout: r.timeoutMs ?? 15_000 },
        (res) => {
          const parts: Buffer[] = [];
          res.on('data', (d: Buffer) => parts.push(d));
          res.on('error', (err) => finish({ ok: false, error: `body: ${err.message}`, ms: ms() }));
          res.on('aborted', () => finish({ ok: false, error: 'body cut', ms: ms() }));
          res.on('end', () => {
            if (!res.complete) return finish({ ok: false, error: 'body cut', ms: ms() });
            try {
              finish({
                ok: true,
                answer: {
                  status: res.statusCode ?? 0,
                  headers: res.headers,
                  body: decodeBody(res.headers['content-encoding'] as string, Buffer.concat(parts)),
                },
                ms: ms(),
              });
            } catch (err) {
              finish({
                ok: false,
                error: `undecodable ${String(res.headers['content-encoding'])} body: ${(err as Error).message}`,
                ms: ms(),
              });
            }
          });
        },
      );
    } catch (err) {
      // node:http refused to send it (a character it never puts on the wire): not the server's business.
      finish({ ok: false, error: `client refused: ${(err as Error).message}`, ms: ms() });
      return;
    }
    req.on('timeout', () => {
      req.destroy(new Error('no answer in time'));
    });
    req.on('error', (err) => finish({ ok: false, error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`.trim(), ms: ms() }));
    if (r.body !== undefined) req.write(r.body);
    req.end();
  });
}

/** Parses one HTTP/1.1 answer from raw bytes (Content-Length or chunked, else up to the close). */
export function parseRawAnswer(bytes: Buffer, head = false): WireAnswer | null {
  // Interim answers (100 Continue) come first; the answer is what follows.
  while (/^HTTP\/1\.[01] 1\d\d/.test(bytes.toString('latin1', 0, 12)) && bytes.indexOf('\r\n\r\n') >= 0)
    bytes = bytes.subarray(bytes.indexOf('\r\n\r\n') + 4);
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m) return null;
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = bytes.subarray(headEnd + 4);
  // An answer to HEAD has no body, whatever its Content-Length says.
  if (head) body = Buffer.alloc(0);
  else if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (body.length < length) return null;
    body = body.subarray(0, length);
  } else if (/chunked/i.test(String(headers['transfer-encoding'] ?? ''))) {
    const out: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      if (eol < 0) return null;
      const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (Number.isNaN(size)) return null;
      if (size === 0) break;
      if (body.length < eol + 2 + size) return null;
      out.push(body.subarray(eol + 2, eol + 2 + size));
      at = eol + 2 + size + 2;
    }
    body = Buffer.concat(out);
  }
  return { status: Number(m[1]), headers, body: decodeBody(headers['content-encoding'] as string, body) };
}

/** Raw bytes over TCP; resolves with the first answer once the server closes (or the time is up). */
export function sendRaw(base: string, bytes: Buffer, timeoutMs = 10_000): Promise<WireResult> {
  const head = /^HEAD /.test(bytes.toString('latin1'));
  const { hostname, port } = new URL(base);
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const timer = setTimeout(() => socket.destroy(new Error('no answer in time')), timeoutMs);
    let error: string | null = null;
    let early: WireAnswer | null = null;
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      // A framed answer (length or chunks) is whole once parsed: no need to wait for the close.
      const all = Buffer.concat(chunks);
      const top = all.subarray(0, Math.max(0, all.indexOf('\r\n\r\n'))).toString('latin1');
      if (!/\r\n(content-length|transfer-encoding: *chunked)/i.test(top)) return;
      try {
        early = parseRawAnswer(all, head);
      } catch {
        early = null;
      }
      if (early) socket.destroy();
    });
    socket.on('error', (err) => {
      error = `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`.trim();
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      let answer: WireAnswer | null = early;
      try {
        answer ??= parseRawAnswer(all, head);
      } catch (err) {
        error = `undecodable answer: ${(err as Error).message}`;
      }
      if (answer) resolve({ ok: true, answer, ms: ms() });
      else
        resolve({
          ok: false,
          error:
            error ??
            (all.length ? `unparsable answer: ${JSON.stringify(all.subarray(0, 200).toString('latin1'))}` : 'closed without an answer'),
          ms: ms(),
        });
    });
  });
}

/** Every whole answer in raw bytes of one connection, in order (pipelined requests; Content-Length framing). */
export function parseRawAnswers(bytes: Buffer): WireAnswer[] {
  const answers: WireAnswer[] = [];
  let rest = bytes;
  for (;;) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) return answers;
    const length = /\r\ncontent-length: *(\d+)/i.exec(rest.subarray(0, headEnd).toString('latin1'));
    if (!length) return answers;
    const end = headEnd + 4 + Number(length[1]);
    if (rest.length < end) return answers;
    const answer = parseRawAnswer(rest.subarray(0, end));
    if (!answer) return answers;
    answers.push(answer);
    rest = rest.subarray(end);
  }
}
