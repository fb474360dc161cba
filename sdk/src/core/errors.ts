/**
 * Every error the client throws. HTTP answers become an `APIError` subclass picked by
 * the problem `code` of the body (stable, documented), falling back on the status when
 * the body is not the API's (a proxy's HTML page, say). Catch by class:
 *
 * ```ts
 * try { await mboa.market.trends() }
 * catch (err) { if (err instanceof PlanForbiddenError) ... }
 * ```
 */
import type { ErrorCode, FieldError, Problem, ProblemMeta, Quota } from '../types.js';

/** Codes of the errors raised on this side of the wire (no HTTP answer to read one from). */
export type ClientErrorCode =
  'configuration_error' | 'invalid_argument' | 'connection_error' | 'timeout' | 'aborted' | 'invalid_response' | 'no_next_page';

/** Base class of every error thrown by the client. */
export class MboaError extends Error {
  /** HTTP status of the answer, or undefined when there was none (connection, timeout, abort). */
  readonly status: number | undefined;
  /**
   * The API's problem code (`not_found`, `quota_exceeded`...), or one of the client's
   * own for what happens on this side of the wire (`connection_error`, `timeout`,
   * `aborted`, `configuration_error`, `invalid_argument`, `invalid_response`, `no_next_page`).
   */
  readonly code: ErrorCode | ClientErrorCode | (string & {});
  /** The request id (body `meta.request_id` or `X-Request-Id` header): quote it to support. */
  readonly requestId: string | undefined;
  /** `meta` of the error body: request id and, once the caller is known, the quota. */
  readonly meta: ProblemMeta | undefined;

  /** @internal Built by the client; you only catch these. */
  constructor(
    message: string,
    fields: {
      status?: number;
      code: ErrorCode | ClientErrorCode | (string & {});
      requestId?: string;
      meta?: ProblemMeta;
      cause?: unknown;
    },
  ) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    // The subclass's own name, so logs say `NotFoundError`, not `Error`.
    this.name = new.target.name;
    this.status = fields.status;
    this.code = fields.code;
    this.requestId = fields.requestId;
    this.meta = fields.meta;
  }

  /** The quota the API reported with this error, when it did. */
  get quota(): Quota | undefined {
    return this.meta?.quota;
  }
}

/** The request never got an HTTP answer: DNS, refused or reset connection. Retried. */
export class ConnectionError extends MboaError {
  /** @internal */
  constructor(message = 'Connection error.', cause?: unknown, code: ClientErrorCode = 'connection_error') {
    super(message, { code, cause });
  }
}

/** No answer within `timeout` milliseconds (on every attempt). A kind of `ConnectionError`. */
export class TimeoutError extends ConnectionError {
  /** @internal */
  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms.`, undefined, 'timeout');
  }
}

/** The request was cancelled through the `signal` you passed. Never retried. */
export class RequestAbortedError extends MboaError {
  /** @internal */
  constructor(cause?: unknown) {
    super('Request was aborted.', { code: 'aborted', cause });
  }
}

/** Base class of the errors that carry an HTTP answer (4xx, 5xx). */
export class APIError extends MboaError {
  declare readonly status: number;
  /** Lower-cased response headers (`retry-after`, `x-request-id`, `x-quota-remaining`...). */
  readonly headers: Record<string, string>;
  /** The problem details body, when the API sent one. */
  readonly problem: Problem | undefined;
  /** Short summary of the code (`title` of the problem). */
  readonly title: string | undefined;
  /** What happened, for a human (`detail` of the problem). */
  readonly detail: string | undefined;

  /** @internal */
  constructor(status: number, problem: Problem | undefined, headers: Record<string, string>, fallbackText?: string) {
    const code = problem?.code ?? codeForStatus(status);
    const detail = problem?.detail ?? (fallbackText?.trim().slice(0, 500) || undefined);
    super(`${status} ${code}${detail ? `: ${detail}` : ''}`, {
      status,
      code,
      requestId: problem?.meta?.request_id ?? headers['x-request-id'],
      meta: problem?.meta,
    });
    this.headers = headers;
    this.problem = problem;
    this.title = problem?.title;
    this.detail = detail;
  }

  /**
   * The error class for an HTTP answer: by the problem's `code` first, else by status.
   * @internal
   */
  static generate(status: number, body: unknown, headers: Record<string, string>, text?: string): APIError {
    const problem = isProblem(body) ? body : undefined;
    const Class = (problem && CLASS_BY_CODE[problem.code]) ?? classForStatus(status);
    return new Class(status, problem, headers, problem ? undefined : text);
  }
}

/** 400 for a request the API will not serve as sent. */
export class BadRequestError extends APIError {}

/** 400 `malformed_request`: the HTTP request itself could not be read (bad encoding, bad URL). */
export class MalformedRequestError extends BadRequestError {}

/** 400 `validation_error`: a parameter is missing, malformed, out of range or unknown. */
export class ValidationError extends BadRequestError {
  /** Each parameter at fault, e.g. `{ path: 'limit', message: 'must be between 1 and 200' }`. */
  readonly errors: FieldError[];

  /** @internal */
  constructor(status: number, problem: Problem | undefined, headers: Record<string, string>, text?: string) {
    super(status, problem, headers, text);
    this.errors = problem?.errors ?? [];
  }
}

/**
 * 400 `invalid_cursor`: the cursor was tampered with, or reused with other filters or
 * sort than those it was issued for. Resume with exactly the same search parameters.
 */
export class InvalidCursorError extends BadRequestError {}

/** 401 `missing_api_key` or `invalid_api_key` (unknown, malformed or revoked key). */
export class AuthenticationError extends APIError {}

/** 401 `missing_api_key`: no `X-API-Key` header reached the API. */
export class MissingApiKeyError extends AuthenticationError {}

/** 401 `invalid_api_key`: the key is unknown, malformed or revoked. */
export class InvalidApiKeyError extends AuthenticationError {}

/** 403: the key is valid but may not do this. */
export class PermissionDeniedError extends APIError {}

/** 403 `plan_forbidden`: the endpoint is not in your plan (market trends need Pro or Enterprise). */
export class PlanForbiddenError extends PermissionDeniedError {}

/** 403 `account_suspended`: the account is suspended; see your dashboard. */
export class AccountSuspendedError extends PermissionDeniedError {}

/**
 * 403 `email_unverified`: the account's e-mail address is not confirmed yet. Open the
 * link sent at sign-up (or send a new one from the dashboard); the key works at once after.
 */
export class EmailUnverifiedError extends PermissionDeniedError {}

/** 403 `plan_limit_reached`: the account keeps as many saved searches (or endpoints) as its plan allows. */
export class PlanLimitReachedError extends PermissionDeniedError {}

/** 413 `payload_too_large`: the request's JSON body is over the limit. */
export class PayloadTooLargeError extends APIError {}

/** 415 `unsupported_media_type`: a request with a body must send `Content-Type: application/json`. */
export class UnsupportedMediaTypeError extends APIError {}

/** 404 `not_found`: no such listing (removed listings stay readable, so the id is wrong). */
export class NotFoundError extends APIError {}

/**
 * 422 `insufficient_data`: too few comparable adverts for an honest valuation; `detail`
 * and `errors` name what is missing (a quarter, a surface, a wider area).
 */
export class InsufficientDataError extends APIError {}

/** 405 `method_not_allowed`: the route does not take this method (see `Allow`). */
export class MethodNotAllowedError extends APIError {}

/** 408 `request_timeout`: the server did not receive the whole request in time. */
export class RequestTimeoutError extends APIError {}

/** 431 `headers_too_large`: the request's headers are too large. */
export class HeadersTooLargeError extends APIError {}

/** Seconds to wait from a `Retry-After` header (seconds or HTTP date), if any. */
function retryAfterSeconds(headers: Record<string, string>): number | undefined {
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/**
 * 429 `rate_limited`: over your plan's calls per minute. The client already retried
 * after `Retry-After` as many times as `maxRetries` allows.
 */
export class RateLimitError extends APIError {
  /** Seconds to wait before calling again (`Retry-After`), when sent. */
  readonly retryAfter: number | undefined;

  /** @internal */
  constructor(status: number, problem: Problem | undefined, headers: Record<string, string>, text?: string) {
    super(status, problem, headers, text);
    this.retryAfter = retryAfterSeconds(headers);
  }
}

/**
 * 429 `quota_exceeded`: the month's calls are used up. Never retried: calls resume at
 * `resetsAt` (00:00 UTC on the 1st), or at once after an upgrade in the dashboard.
 */
export class QuotaExceededError extends APIError {
  /** Seconds until the quota resets (`Retry-After`), when sent. */
  readonly retryAfter: number | undefined;
  /** When the quota resets (ISO 8601), when the API reported the quota. */
  readonly resetsAt: string | undefined;

  /** @internal */
  constructor(status: number, problem: Problem | undefined, headers: Record<string, string>, text?: string) {
    super(status, problem, headers, text);
    this.retryAfter = retryAfterSeconds(headers);
    this.resetsAt = problem?.meta?.quota?.resets_at;
  }
}

/** 5xx: `internal_error` (500), `unavailable` (503) or a gateway's error. Retried. */
export class ServerError extends APIError {}

/** 500 `internal_error`: a fault on the API's side; quote `requestId` to support. Retried. */
export class InternalServerError extends ServerError {}

/** 503 `unavailable`: the API is starting, shutting down or lost its database for a moment. Retried. */
export class ServiceUnavailableError extends ServerError {}

/**
 * 503 `valuations_warming_up`: the instance has just started and is still fitting its
 * valuation model (seconds to a minute); `retryAfter` says when to ask again. Never charged. Retried.
 */
export class ValuationsWarmingUpError extends ServiceUnavailableError {
  /** Seconds to wait before asking again (`Retry-After`), when sent. */
  readonly retryAfter: number | undefined;

  /** @internal */
  constructor(status: number, problem: Problem | undefined, headers: Record<string, string>, text?: string) {
    super(status, problem, headers, text);
    this.retryAfter = retryAfterSeconds(headers);
  }
}

export type APIErrorClass = new (status: number, problem: Problem | undefined, headers: Record<string, string>, text?: string) => APIError;

/** The class thrown for each problem code of the API: one per code, every code listed. */
export const ERROR_CLASSES: Readonly<Record<ErrorCode, APIErrorClass>> = {
  validation_error: ValidationError,
  malformed_request: MalformedRequestError,
  invalid_cursor: InvalidCursorError,
  missing_api_key: MissingApiKeyError,
  invalid_api_key: InvalidApiKeyError,
  plan_forbidden: PlanForbiddenError,
  account_suspended: AccountSuspendedError,
  email_unverified: EmailUnverifiedError,
  plan_limit_reached: PlanLimitReachedError,
  payload_too_large: PayloadTooLargeError,
  unsupported_media_type: UnsupportedMediaTypeError,
  not_found: NotFoundError,
  method_not_allowed: MethodNotAllowedError,
  request_timeout: RequestTimeoutError,
  insufficient_data: InsufficientDataError,
  rate_limited: RateLimitError,
  quota_exceeded: QuotaExceededError,
  headers_too_large: HeadersTooLargeError,
  internal_error: InternalServerError,
  unavailable: ServiceUnavailableError,
  valuations_warming_up: ValuationsWarmingUpError,
};

const CLASS_BY_CODE: Partial<Record<string, APIErrorClass>> = ERROR_CLASSES;

function classForStatus(status: number): APIErrorClass {
  if (status === 400) return BadRequestError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionDeniedError;
  if (status === 404) return NotFoundError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return APIError;
}

function codeForStatus(status: number): string {
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 500) return 'internal_error';
  return `http_${status}`;
}

function isProblem(body: unknown): body is Problem {
  if (!body || typeof body !== 'object') return false;
  const b = body as Record<string, unknown>;
  return typeof b.code === 'string' && typeof b.status === 'number' && !!b.meta && typeof b.meta === 'object';
}
