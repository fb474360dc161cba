/**
 * Example problems for the OpenAPI document, per HTTP status: each a body the API sends
 * (the tests parse every one with the contract's ZProblem).
 */
import { ERROR_CODES, ERROR_TYPE_BASE, type ErrorCode, type TProblem } from '../errors.js';
import type { TQuota } from '../schemas.js';
import { QUOTA, REQUEST_ID } from './example-meta.js';

type NamedExample = { summary: string; value: unknown };

function problem(code: ErrorCode, detail: string, extra: Partial<TProblem> = {}, quota: TQuota | null = QUOTA): TProblem {
  return {
    type: `${ERROR_TYPE_BASE}${code}`,
    title: ERROR_CODES[code].title,
    status: ERROR_CODES[code].status,
    detail,
    code,
    ...extra,
    meta: { request_id: REQUEST_ID, ...(quota ? { quota } : {}) },
  };
}

const EXHAUSTED: TQuota = { plan: 'starter', limit: 10000, used: 10000, remaining: 0, resets_at: '2026-12-01T00:00:00.000Z' };

/** Problem examples per HTTP status. */
export const PROBLEM_EXAMPLES: Record<number, Record<string, NamedExample>> = {
  400: {
    validation_error: {
      summary: 'A parameter out of range',
      value: problem('validation_error', 'limit: must be between 1 and 200', {
        errors: [{ path: 'limit', message: 'must be between 1 and 200' }],
      }),
    },
    unknown_city: {
      summary: 'An unknown city, with the closest known names',
      value: problem('validation_error', 'city: unknown city "Doula"; did you mean Douala?', {
        errors: [{ path: 'city', message: 'unknown city "Doula"; did you mean Douala?', suggestions: ['Douala'] }],
      }),
    },
    invalid_date: {
      summary: 'A timestamp with an impossible offset',
      value: problem('validation_error', 'listed_after: +99:99 is not a UTC offset (from -12:00 to +14:00)', {
        errors: [{ path: 'listed_after', message: '+99:99 is not a UTC offset (from -12:00 to +14:00)' }],
      }),
    },
    invalid_cursor: {
      summary: 'A cursor reused with other filters',
      value: problem(
        'invalid_cursor',
        'The cursor was issued for other filters or another sort: send the same ones as on the first page. Start again without `cursor`.',
      ),
    },
  },
  401: {
    missing_api_key: {
      summary: 'No X-API-Key header',
      value: problem('missing_api_key', 'Send your API key in the X-API-Key header.', {}, null),
    },
    invalid_api_key: {
      summary: 'An unknown, malformed or revoked key',
      value: problem('invalid_api_key', 'The API key is not valid: it is unknown, malformed or revoked.', {}, null),
    },
  },
  403: {
    plan_forbidden: {
      summary: 'An endpoint outside the plan',
      value: problem(
        'plan_forbidden',
        '/api/v1/market/trends is not included in the Starter plan. Plans that include it: Pro, Enterprise.',
        {},
        { ...QUOTA, plan: 'starter', limit: 10000, remaining: 8765 },
      ),
    },
    account_suspended: {
      summary: 'A suspended account',
      value: problem('account_suspended', 'This account is suspended. Contact Mboa support to restore access.', {}, null),
    },
    plan_limit_reached: {
      summary: 'A creation past what the plan keeps',
      value: problem('plan_limit_reached', 'The Pro plan keeps at most 25 saved searches: delete one, or upgrade for more.'),
    },
  },
  404: {
    not_found: { summary: 'No such listing', value: problem('not_found', 'No listing with id lst_aaaaaaaaaaaaaaaaaaaa.') },
    saved_search: {
      summary: 'No such saved search for this account and dataset',
      value: problem('not_found', "No saved search ss_aaaaaaaaaaaaaaaa for this key's account and dataset."),
    },
  },
  405: {
    method_not_allowed: {
      summary: 'A method the path does not answer',
      value: problem('method_not_allowed', 'POST is not allowed here. Allowed: GET, HEAD.', {}, null),
    },
  },
  413: {
    payload_too_large: {
      summary: 'A body past the route’s limit',
      value: problem('payload_too_large', 'The request body is larger than 16 kB.'),
    },
  },
  415: {
    unsupported_media_type: {
      summary: 'A body not declared JSON',
      value: problem('unsupported_media_type', 'Send the body as JSON, with `Content-Type: application/json`.'),
    },
  },
  422: {
    insufficient_data: {
      summary: 'Too few comparables for an honest estimate',
      value: problem(
        'insufficient_data',
        'Too few comparables for an honest estimate: 3 warehouse adverts for sale in Kribi over the last 36 months, and at least 5 are needed. Mboa gives no number it cannot stand behind.',
        { errors: [{ path: 'city', message: '3 comparable warehouse adverts for sale in Kribi; at least 5 needed' }] },
      ),
    },
  },
  429: {
    rate_limited: {
      summary: 'Over the per-minute limit',
      value: problem('rate_limited', 'Rate limit of 30 calls per minute reached. Retry in 41 s.'),
    },
    quota_exceeded: {
      summary: 'Monthly quota used up',
      value: problem(
        'quota_exceeded',
        'Monthly quota of 10000 calls used up. It resets at 2026-12-01T00:00:00.000Z; upgrade your plan for more.',
        {},
        EXHAUSTED,
      ),
    },
  },
  500: {
    internal_error: {
      summary: 'Our fault',
      value: problem('internal_error', `Something went wrong on our side. Quote request id ${REQUEST_ID} to support.`),
    },
  },
  503: {
    unavailable: {
      summary: 'Database unreachable',
      value: problem('unavailable', 'The service is temporarily unavailable. Retry in a few seconds.', {}, null),
    },
  },
};
