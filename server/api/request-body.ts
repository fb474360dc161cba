/**
 * What a route that changes something (POST, PATCH, DELETE) needs beyond a read: the route
 * picked by method among those sharing a path (405 with `Allow` otherwise), and its JSON
 * body read under a size limit, its media type checked, then validated by the route's zod
 * schema like a query (one error per field, problem+json). The front handler (handler.ts)
 * calls these; admission and the quota rule are the reads' own (only a 2xx is counted).
 */
import type { IncomingMessage } from 'node:http';
import type { AppRoute } from '@ts-rest/core';
import type { ZodError, ZodTypeAny } from 'zod';
import { ApiError } from '../platform/errors.js';
import type { AnswerHeaders } from '../http/answer-headers.js';

/** The largest JSON body taken (a saved search's filters fit in a few hundred bytes). */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** The route of `candidates` (one path) that takes `method`; HEAD is a GET's. */
export function routeForMethod<T extends { route: AppRoute }>(candidates: T[], method: string, headers: AnswerHeaders): T {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const hit = candidates.find((c) => c.route.method === wanted);
  if (hit) return hit;
  const allowed = candidates.flatMap((c) => (c.route.method === 'GET' ? ['GET', 'HEAD'] : [c.route.method]));
  headers.setHeader('Allow', allowed.join(', '));
  throw new ApiError('method_not_allowed', `${method} is not allowed here. Allowed: ${allowed.join(', ')}.`);
}

export type BodyResult = { success: true; data: unknown } | { success: false; error: ZodError };

const NO_BODY: BodyResult = { success: true, data: undefined };

const mediaType = (contentType: string | undefined) => (contentType ?? '').split(';')[0].trim().toLowerCase();

function isJson(contentType: string | undefined): boolean {
  const type = mediaType(contentType);
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

const NDJSON_TYPES = new Set(['application/x-ndjson', 'application/ndjson', 'application/jsonl']);

/** NDJSON lines as `{ [field]: [line, ...] }` (blank lines skipped); a line that is not JSON is a 400 naming it. */
function ndjsonBody(text: string, field: string): unknown {
  const items: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    try {
      items.push(JSON.parse(line));
    } catch {
      throw new ApiError('validation_error', `Line ${i + 1} of the body is not valid JSON.`, {
        errors: [{ path: `body line ${i + 1}`, message: 'is not valid JSON' }],
      });
    }
  }
  return { [field]: items };
}

/** The raw bytes of the body, refused past `limit` (the rest is read and dropped, so the connection stays usable). */
function readBytes(raw: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    raw.resume();
    return Promise.reject(tooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) over = true;
      else chunks.push(chunk);
    });
    raw.on('end', () => (over ? reject(tooLarge(limit)) : resolve(Buffer.concat(chunks))));
    raw.on('error', reject);
  });
}

const tooLarge = (limit: number) =>
  new ApiError('payload_too_large', `The request body is larger than ${(limit / 1024).toLocaleString('en-US')} kB.`);

/** What a route takes beyond the writes' defaults (its metadata: `bodyLimitBytes`, `ndjsonField`). */
export interface BodyOptions {
  limit?: number;
  /** NDJSON (`application/x-ndjson`) is taken too, each line an item of this array field. */
  ndjsonField?: string;
}

/**
 * The route's body, parsed by its schema. A route without a body schema reads none. Throws
 * 415 for a body that is not declared JSON, 413 past the limit, 400 for text that is not JSON.
 */
export async function readRouteBody(raw: IncomingMessage, route: AppRoute, options: BodyOptions = {}): Promise<BodyResult> {
  const schema = 'body' in route ? (route.body as ZodTypeAny | null | undefined) : undefined;
  if (!schema || typeof (schema as { safeParse?: unknown }).safeParse !== 'function') return NO_BODY;
  const limit = options.limit ?? BODY_LIMIT_BYTES;
  const ndjson = options.ndjsonField !== undefined && NDJSON_TYPES.has(mediaType(raw.headers['content-type']));
  if (!ndjson && !isJson(raw.headers['content-type'])) {
    raw.resume();
    const or = options.ndjsonField ? ' (or NDJSON, with `Content-Type: application/x-ndjson`)' : '';
    throw new ApiError('unsupported_media_type', `Send the body as JSON, with \`Content-Type: application/json\`${or}.`);
  }
  const bytes = await readBytes(raw, limit);
  if (ndjson) return schema.safeParse(ndjsonBody(bytes.toString('utf8'), options.ndjsonField!)) as BodyResult;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ApiError('validation_error', 'The body is not valid JSON.', { errors: [{ path: 'body', message: 'is not valid JSON' }] });
  }
  return schema.safeParse(value) as BodyResult;
}
