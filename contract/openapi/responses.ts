/**
 * Response headers and error responses of the document: every header the API sends,
 * where it sends it, and one problem+json response per error status.
 */
import { DATASET_HEADER, DATASETS } from '../dataset.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { VALUATION_BATCH_BODY_BYTES } from '../valuations-batch.js';
import { PROBLEM_EXAMPLES } from './problem-examples.js';

type Header = { description: string; required?: boolean; schema: Record<string, unknown>; example?: unknown };

const unixSeconds = { type: 'integer', minimum: 0 };

/** `components.headers`. */
export const HEADERS: Record<string, Header> = {
  'X-Request-Id': {
    description:
      'Identifier of this request (your own `X-Request-Id` of 8 to 64 safe characters is kept); equals `meta.request_id`. Quote it to support.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,64}$' },
    example: 'req_3x9f0a1b2c4d5e6f',
  },
  'RateLimit-Policy': {
    description: 'IETF draft: the per-minute limit of your account. Absent on plans without one.',
    schema: { type: 'string', pattern: '^"minute";q=\\d+;w=60$' },
    example: '"minute";q=30;w=60',
  },
  RateLimit: {
    description: 'IETF draft: calls left in this minute (`r`) and seconds until it resets (`t`). Absent on plans without a limit.',
    schema: { type: 'string', pattern: '^"minute";r=\\d+;t=\\d+$' },
    example: '"minute";r=12;t=41',
  },
  'X-RateLimit-Limit': {
    description: 'Calls allowed per minute. Absent on plans without a limit.',
    schema: { type: 'integer', minimum: 1 },
    example: 30,
  },
  'X-RateLimit-Remaining': { description: 'Calls left in this minute.', schema: { type: 'integer', minimum: 0 }, example: 12 },
  'X-RateLimit-Reset': { description: 'When this minute ends (Unix seconds).', schema: unixSeconds, example: 1795340441 },
  'X-Quota-Limit': {
    description: 'Calls included this month, or `unlimited`.',
    schema: { type: 'string', pattern: '^(\\d+|unlimited)$' },
    example: '10000',
  },
  'X-Quota-Remaining': {
    description: 'Calls left this month (after this one), or `unlimited`.',
    schema: { type: 'string', pattern: '^(\\d+|unlimited)$' },
    example: '8765',
  },
  'X-Quota-Reset': {
    description: 'When the monthly count returns to zero: 00:00 UTC on the 1st (Unix seconds).',
    schema: unixSeconds,
    example: 1796083200,
  },
  [DATASET_HEADER]: {
    description:
      'Which data the answer comes from: `live` (a live key) or `sample` (the fixed public sample that test keys read); equals `meta.dataset`.',
    required: true,
    schema: { type: 'string', enum: [...DATASETS] },
    example: 'live',
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', required: true, schema: { type: 'integer', minimum: 1 }, example: 41 },
  'X-Should-Retry': {
    description: '`false` on `quota_exceeded`: retrying before the reset cannot succeed.',
    schema: { type: 'string', enum: ['false'] },
    example: 'false',
  },
  Allow: {
    description: 'The methods this path answers (`GET, HEAD` on a read; `POST`, `PATCH`, `DELETE` where the path takes them).',
    required: true,
    schema: { type: 'string', pattern: '^(GET, HEAD|POST|PATCH|DELETE)(, (GET, HEAD|POST|PATCH|DELETE))*$' },
    example: 'GET, HEAD',
  },
};

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

const RATE_HEADERS = ['RateLimit-Policy', 'RateLimit', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;
const QUOTA_HEADERS = ['X-Quota-Limit', 'X-Quota-Remaining', 'X-Quota-Reset'] as const;

/** Headers of a 2xx answer: the quota is always reported, the rate limit where the plan has one. */
export function successHeaders(): Record<string, unknown> {
  const quota = Object.fromEntries(
    QUOTA_HEADERS.map((h) => [
      h,
      { description: HEADERS[h].description, required: true, schema: HEADERS[h].schema, example: HEADERS[h].example },
    ]),
  );
  return {
    'X-Request-Id': ref('X-Request-Id'),
    [DATASET_HEADER]: ref(DATASET_HEADER),
    ...quota,
    ...Object.fromEntries(RATE_HEADERS.map((h) => [h, ref(h)])),
  };
}

/** Headers of an error answer: quota and rate limit appear once the caller was identified and metered. */
function errorHeaders(extra: Array<keyof typeof HEADERS>): Record<string, unknown> {
  return {
    'X-Request-Id': ref('X-Request-Id'),
    ...Object.fromEntries([...QUOTA_HEADERS, ...RATE_HEADERS].map((h) => [h, ref(h)])),
    ...Object.fromEntries(extra.map((h) => [h, ref(h)])),
  };
}

interface ErrorResponse {
  name: string;
  status: number;
  description: string;
  extraHeaders?: Array<keyof typeof HEADERS>;
}

const codesOf = (status: number) =>
  (Object.keys(ERROR_CODES) as ErrorCode[])
    .filter((c) => ERROR_CODES[c].status === status)
    .map((c) => `\`${c}\``)
    .join(', ');

export const ERROR_RESPONSES: ErrorResponse[] = [
  {
    name: 'BadRequest',
    status: 400,
    description: `${codesOf(400)}: a parameter or a field of the body is malformed, out of range, unknown (\`errors\` lists each; an unknown place comes with \`suggestions\`), a body is not valid JSON, or a cursor is altered or reused with other filters. Never charged.`,
  },
  {
    name: 'Unauthorized',
    status: 401,
    description: `${codesOf(401)}: no key, or a key unknown, malformed or revoked (one answer for the three).`,
  },
  {
    name: 'Forbidden',
    status: 403,
    description: `${codesOf(403)}: the endpoint is not in your plan (the detail names the plans that include it), the account is suspended or its e-mail address not confirmed, or a creation (or a resend past the monthly deliveries) goes beyond what the plan allows (\`plan_limit_reached\`).`,
  },
  {
    name: 'NotFound',
    status: 404,
    description: `${codesOf(404)}: no listing has this id, or no saved search, webhook endpoint or delivery of your account and your key's dataset has it.`,
  },
  {
    name: 'MethodNotAllowed',
    status: 405,
    description: `${codesOf(405)}: a method this path does not answer; \`Allow\` lists the ones it does.`,
    extraHeaders: ['Allow'],
  },
  {
    name: 'PayloadTooLarge',
    status: 413,
    description: `${codesOf(413)}: the body is larger than the route takes (16 kB; a valuation batch ${(VALUATION_BATCH_BODY_BYTES / 1024).toLocaleString('en-US')} kB). Never charged.`,
  },
  {
    name: 'UnsupportedMediaType',
    status: 415,
    description: `${codesOf(415)}: the body is not declared JSON (\`Content-Type: application/json\`; NDJSON too where the route takes it). Never charged.`,
  },
  {
    name: 'UnprocessableEntity',
    status: 422,
    description: `${codesOf(422)}: too few comparable adverts for an honest estimate; the detail and \`errors\` say what is missing. Never charged.`,
  },
  {
    name: 'TooManyRequests',
    status: 429,
    description: `${codesOf(429)}: over the per-minute limit (retry after \`Retry-After\` seconds) or the monthly quota used up (\`Retry-After\` until the reset, \`X-Should-Retry: false\`).`,
    extraHeaders: ['Retry-After', 'X-Should-Retry'],
  },
  {
    name: 'InternalError',
    status: 500,
    description: `${codesOf(500)}: our fault; quote the request id (no stack trace or SQL is ever sent).`,
  },
  {
    name: 'Unavailable',
    status: 503,
    description: `${codesOf(503)}: the database cannot be reached; retry after \`Retry-After\` seconds.`,
    extraHeaders: ['Retry-After'],
  },
];

/** `components.responses`: problem+json bodies with their headers and examples. */
export function errorResponseComponents(problemRef: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    ERROR_RESPONSES.map((r) => [
      r.name,
      {
        description: r.description,
        headers: errorHeaders(r.extraHeaders ?? []),
        content: { 'application/problem+json': { schema: problemRef, examples: PROBLEM_EXAMPLES[r.status] } },
      },
    ]),
  );
}

/** The error responses an operation can give, by status; a status without a response here is a mistake of the document. */
export function errorResponseRefs(statuses: number[]): Record<string, unknown> {
  const missing = statuses.filter((s) => !ERROR_RESPONSES.some((r) => r.status === s));
  if (missing.length > 0) throw new Error(`no error response for status ${missing.join(', ')} in contract/openapi/responses.ts`);
  return Object.fromEntries(
    ERROR_RESPONSES.filter((r) => statuses.includes(r.status)).map((r) => [String(r.status), { $ref: `#/components/responses/${r.name}` }]),
  );
}
