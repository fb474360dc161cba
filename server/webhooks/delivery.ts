/**
 * One delivery attempt: the event's body POSTed with the Standard Webhooks headers, signed
 * by the `standardwebhooks` package with the endpoint's secret (and, during a rotation, the
 * previous one too: receivers accept any one signature that verifies). The connection's
 * lookup refuses non-public addresses (platform/public-address.ts); redirects are answers
 * like any other (a 3xx is a failure, never followed).
 */
import http from 'node:http';
import https from 'node:https';
import { Webhook } from 'standardwebhooks';
import { isIP } from 'node:net';
import { addressRefusal, publicLookup, urlRefusal } from '../platform/public-address.js';

export interface Attempt {
  /** The HTTP status, or null when there was no answer. */
  status: number | null;
  error: string | null;
  latencyMs: number;
}

/** The `webhook-signature` header: one `v1,<base64>` per secret, space-separated. */
export function signatureHeader(secrets: string[], id: string, at: Date, body: string): string {
  return secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
}

export function deliveryHeaders(secrets: string[], id: string, at: Date, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Mboa-Webhooks/1',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatureHeader(secrets, id, at, body),
  };
}

/** How much of a receiver's answer is read (and nothing is kept of it). */
const ANSWER_BYTES = 4096;

export function attempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: { timeoutMs: number; allowLoopback: boolean },
): Promise<Attempt> {
  const started = performance.now();
  const done = (status: number | null, error: string | null): Attempt => ({
    status,
    error,
    latencyMs: Math.round(performance.now() - started),
  });
  const refused = urlRefusal(url, opts.allowLoopback);
  if (refused) return Promise.resolve(done(null, `url ${refused}`));
  const target = new URL(url);
  // An address written in the URL is never looked up: it is checked here.
  const literal = target.hostname.replace(/^\[|\]$/g, '');
  const literalRefused = isIP(literal) ? addressRefusal(literal, opts.allowLoopback) : null;
  if (literalRefused) return Promise.resolve(done(null, literalRefused));
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: publicLookup(opts.allowLoopback),
        timeout: opts.timeoutMs,
        agent: false,
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > ANSWER_BYTES) res.destroy();
        });
        const finish = () => {
          const status = res.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          resolve(done(status, ok ? null : `answered ${status}`));
        };
        res.on('end', finish);
        res.on('close', finish);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', (err) => resolve(done(null, err.message)));
    req.end(body);
  });
}
