/**
 * What every answer of the service must be, whatever was asked: never a 5xx, a refusal is
 * RFC 9457 problem+json with its `code` and `meta.request_id`, and no answer carries our
 * insides (stack traces, source paths, SQL, driver or ORM messages) or a listing's private
 * contact data. Returns what is wrong, empty when the answer is fine.
 */
import type { WireAnswer } from './wire.js';

/** Text that only an internal failure puts in an answer. */
export const INTERNAL_TEXT: Array<[string, RegExp]> = [
  ['stack frame', /\n\s*at [^\n]*[(/][^\n]*:\d+:\d+/],
  ['stack frame', /\bat (?:async )?[\w$.<>]+ \([^)]*:\d+:\d+\)/],
  ['source path', /(?:\/|\\)(?:server|node_modules|contract|prisma|dist|src)(?:\/|\\)[\w./\\-]*\.(?:ts|js|mjs|cjs)\b/],
  ['source position', /\.(?:ts|js|mjs|cjs):\d+(?::\d+)?/],
  ['node internals', /node:internal|node_modules/],
  ['error class', /\b(?:Type|Reference|Syntax|Range)?Error: /],
  ['ORM', /prisma/i],
  ['SQL', /\b(?:SELECT|INSERT INTO|UPDATE|DELETE FROM)\b[^"]{0,200}\b(?:FROM|VALUES|SET|WHERE)\b/],
  [
    'SQL error',
    /syntax error at or near|violates [\w ]*constraint|relation "[^"]+"|column "[^"]+"|invalid input syntax|out of range for type|duplicate key value/i,
  ],
  ['driver', /\bpg_\w+|ECONNREFUSED|ECONNRESET|Connection terminated|\bsqlstate\b/i],
  ['internal file', /\/(?:work|home|root|usr|tmp|var)\/[\w.-]+\//],
];

export interface CheckOptions {
  method: string;
  /** Text the request itself carried (decoded): what the answer may echo without it being a leak. */
  sent: string;
  /** Strings that must never leave the server (planted private contact data). */
  secrets: string[];
  /** Paths whose 2xx body is JSON with `meta.request_id` (the API's answers). */
  enveloped: boolean;
  /** The request was conditional (If-None-Match, If-Modified-Since): 304 Not Modified, without a body, is then an answer too. */
  conditional?: boolean;
}

export function checkAnswer(a: WireAnswer, o: CheckOptions): string[] {
  const problems: string[] = [];
  const text = a.body.toString('utf8');
  const headerText = Object.entries(a.headers)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join('\n');
  if (a.status >= 500) problems.push(`status ${a.status}`);
  if (a.status < 100 || a.status > 599) problems.push(`no valid status (${a.status})`);
  const requestId = a.headers['x-request-id'];
  if (typeof requestId !== 'string' || requestId === '') problems.push('no X-Request-Id');
  if (a.status >= 200 && a.status < 300) {
    if (o.method !== 'GET' && o.method !== 'HEAD') problems.push(`${o.method} answered ${a.status}`);
    if (o.enveloped && o.method === 'GET') {
      const body = parseJson(text);
      if (!body || typeof body !== 'object') problems.push('2xx body is not JSON');
      else if ((body as { meta?: { request_id?: unknown } }).meta?.request_id !== requestId)
        problems.push('2xx meta.request_id differs from X-Request-Id');
    }
  } else if (a.status === 304 && o.conditional) {
    if (a.body.length) problems.push('304 with a body');
  } else {
    const type = String(a.headers['content-type'] ?? '');
    if (!/^application\/problem\+json\b/.test(type)) problems.push(`${a.status} with Content-Type "${type}", not application/problem+json`);
    if (o.method !== 'HEAD') {
      const body = parseJson(text) as { code?: unknown; status?: unknown; meta?: { request_id?: unknown } } | null;
      if (!body || typeof body !== 'object') problems.push(`${a.status} body is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
      else {
        if (typeof body.code !== 'string' || body.code === '') problems.push(`${a.status} problem without a code`);
        if (body.status !== a.status) problems.push(`problem status ${String(body.status)} on a ${a.status}`);
        if (typeof body.meta?.request_id !== 'string') problems.push(`${a.status} problem without meta.request_id`);
        else if (body.meta.request_id !== requestId) problems.push('problem meta.request_id differs from X-Request-Id');
      }
    }
  }
  for (const [what, pattern] of INTERNAL_TEXT) {
    const leak = pattern.exec(text) ?? pattern.exec(headerText);
    if (leak && !pattern.test(o.sent)) problems.push(`${what} in the answer: ${JSON.stringify(leak[0].slice(0, 120))}`);
  }
  for (const secret of o.secrets) {
    if (text.includes(secret) || headerText.includes(secret)) problems.push(`private data in the answer: ${secret}`);
  }
  return problems;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
