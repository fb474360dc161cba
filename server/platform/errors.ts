/**
 * The one error model: handlers and middleware throw `ApiError` with a code from the
 * contract's closed set; the error handler writes it as problem+json. Anything else is
 * an `internal_error` (or `unavailable` when the database cannot be reached), with no
 * stack trace or SQL in the body.
 */
import { ERROR_CODES, type ErrorCode, type TFieldError } from '../../contract/errors.js';

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly options: { errors?: TFieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.status = ERROR_CODES[code].status;
  }
}

/**
 * The instance cannot serve yet or any more: its database lacks this version's migrations,
 * or it is shutting down. Answered as 503 `unavailable`, like a database that is down.
 */
export class NotReadyError extends Error {
  readonly code = 'MBOA_NOT_READY';
}

/** pg / network failures that mean "the database is not there", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  'MBOA_NOT_READY',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: string; message?: string; cause?: unknown };
  if (e.code && UNAVAILABLE_CODES.has(e.code)) return true;
  if (
    typeof e.message === 'string' &&
    /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED/i.test(e.message)
  ) {
    return true;
  }
  return e.cause !== undefined && e.cause !== err && isDatabaseUnavailable(e.cause);
}
