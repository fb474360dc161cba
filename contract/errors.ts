/** The closed set of problem codes, their HTTP status and title (RFC 9457 bodies). */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ZDataset } from './dataset.js';
import { ZQuota } from './schemas.js';

export const ERROR_CODES = {
  validation_error: { status: 400, title: 'Invalid request' },
  malformed_request: { status: 400, title: 'Malformed HTTP request' },
  invalid_cursor: { status: 400, title: 'Invalid cursor' },
  missing_api_key: { status: 401, title: 'Missing API key' },
  invalid_api_key: { status: 401, title: 'Invalid API key' },
  plan_forbidden: { status: 403, title: 'Endpoint not included in your plan' },
  account_suspended: { status: 403, title: 'Account suspended' },
  email_unverified: { status: 403, title: 'E-mail address not confirmed' },
  plan_limit_reached: { status: 403, title: "Plan's limit reached" },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  request_timeout: { status: 408, title: 'Request not received in time' },
  insufficient_data: { status: 422, title: 'Too little data for an honest estimate' },
  rate_limited: { status: 429, title: 'Rate limit exceeded' },
  quota_exceeded: { status: 429, title: 'Monthly quota exceeded' },
  payload_too_large: { status: 413, title: 'Request body too large' },
  unsupported_media_type: { status: 415, title: 'Request body not JSON' },
  headers_too_large: { status: 431, title: 'Request headers too large' },
  internal_error: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Service unavailable' },
  valuations_warming_up: { status: 503, title: 'Valuation model not fitted yet' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_NAMES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

export const ERROR_TYPE_BASE = 'https://docs.mboa.cm/errors/';

export const ZFieldError = z.object({
  path: extendApi(z.string(), { description: 'Parameter at fault.', example: 'limit' }),
  message: extendApi(z.string(), { description: 'What is wrong with it.', example: 'must be between 1 and 200' }),
  suggestions: extendApi(z.array(z.string()), {
    description: 'For an unknown city, neighbourhood or parameter name: the closest known names, closest first (empty when none is close).',
    example: ['Douala'],
  }).optional(),
});
export type TFieldError = z.infer<typeof ZFieldError>;

export const ZProblemMeta = z.object({
  request_id: extendApi(z.string(), { description: 'Equals the `X-Request-Id` header.', example: 'req_3x9f0a1b2c4d5e6f' }),
  quota: extendApi(ZQuota.optional(), { description: 'Your quota, once the key is known (errors are never charged).' }),
  dataset: extendApi(ZDataset.optional(), {
    description: 'The dataset your key reads (`live`, or `sample` for a test key), once the key is known.',
  }),
});
export type TProblemMeta = z.infer<typeof ZProblemMeta>;

export const ZProblem = extendApi(
  z.object({
    type: extendApi(z.string(), { description: 'URI of the documentation of this code.', example: `${ERROR_TYPE_BASE}validation_error` }),
    title: extendApi(z.string(), { description: 'Short summary of the code.', example: 'Invalid request' }),
    status: extendApi(z.number().int(), { description: 'HTTP status.', example: 400 }),
    detail: extendApi(z.string(), { description: 'What happened, for a human.', example: 'limit: must be between 1 and 200' }),
    code: extendApi(z.enum(ERROR_CODE_NAMES), { description: 'Stable machine-readable code.', example: 'validation_error' }),
    errors: extendApi(z.array(ZFieldError), { description: 'Field errors (validation_error only).' }).optional(),
    meta: ZProblemMeta,
  }),
  { description: 'RFC 9457 problem details, served as application/problem+json.' },
);
export type TProblem = z.infer<typeof ZProblem>;
