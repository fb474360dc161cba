/**
 * The one error model's writer: every error becomes RFC 9457 problem+json with `meta`
 * (request id, quota when known). Works on plain Node responses, so the API's front
 * handler and the Express app (pages, docs, operations) answer errors the same way.
 */
import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler } from 'express';
import type { ZodError } from 'zod';
import { ERROR_CODES, ERROR_TYPE_BASE, type TFieldError, type TProblem } from '../../contract/errors.js';
import { ApiError, isDatabaseUnavailable, NotReadyError } from '../platform/errors.js';
import { closestNames, editDistance, hasControlCharacter, matchKey } from '../platform/text.js';
import type { Logger } from '../platform/logger.js';
import type { Metrics } from '../platform/metrics.js';
import type { Admission } from '../quota/admission.js';
import { context, type RequestContext } from './context.js';
import { setQuotaHeaders } from './quota-headers.js';
import { AnswerHeaders } from '../http/answer-headers.js';

/** An unknown parameter, with the closest names the route knows (`min_prize` → `min_price`). */
function unknownParameter(where: string, name: string, known: readonly string[]): TFieldError {
  // The closest only: `min_prize` is min_price, not max_price one edit further.
  const close = closestNames(name, known);
  const best = close.length ? editDistance(matchKey(name), matchKey(close[0])) : 0;
  const suggestions = close.filter((n) => editDistance(matchKey(name), matchKey(n)) === best);
  const hint = suggestions.length ? `; did you mean ${suggestions.join(', ')}?` : `; known parameters: ${known.join(', ') || 'none'}`;
  return { path: name, message: `unknown ${where} parameter${hint}`, suggestions };
}

/**
 * One error per parameter at fault, the first the schema found: a value refused for its
 * form is not checked further, so the schema library's own follow-up message (`Expected
 * number, received object`) never reaches the caller.
 */
function fieldErrors(where: string, error: ZodError | null, known: readonly string[]): TFieldError[] {
  if (!error) return [];
  const byPath = new Map<string, TFieldError>();
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      // In a body, the name is given with the object it is in (`filters.citty`).
      for (const key of issue.keys) {
        const name = [...issue.path, key].join('.');
        if (!byPath.has(name)) byPath.set(name, { ...unknownParameter(where, key, known), path: name });
      }
      continue;
    }
    const path = issue.path.join('.') || where;
    if (!byPath.has(path)) byPath.set(path, { path, message: issue.message });
  }
  return [...byPath.values()];
}

/** `known`: the route's query parameter names, for the suggestions of an unknown one. */
export function validationProblemOf(
  errors: { path: ZodError | null; query: ZodError | null; body?: ZodError | null; control?: TFieldError[]; places?: TFieldError[] },
  known: readonly string[] = [],
): ApiError {
  const fields = [
    ...(errors.control ?? []),
    ...fieldErrors('path', errors.path, []),
    ...fieldErrors('query', errors.query, known),
    ...fieldErrors('body', errors.body ?? null, []),
    ...(errors.places ?? []),
  ];
  const detail = fields.map((e) => `${e.path}: ${e.message}`).join('; ') || 'The request is not valid.';
  return new ApiError('validation_error', detail, { errors: fields });
}

/**
 * The parameters (path or query, names included) holding a control character: NUL and the
 * other C0 bytes and DEL are never part of a valid value, and PostgreSQL refuses NUL.
 */
export function controlCharacterErrors(params: Record<string, unknown>): TFieldError[] {
  const errors: TFieldError[] = [];
  for (const [name, value] of Object.entries(params)) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    if (hasControlCharacter(name) || values.some((v) => hasControlCharacter(v))) {
      errors.push({ path: name, message: 'contains a control character (such as %00): remove it' });
    }
  }
  return errors;
}

const UNAVAILABLE = 'The service is temporarily unavailable. Retry in a few seconds.';

/** PostgreSQL's `query_canceled`: here, a statement past its pool's statement timeout (api/costs.ts). */
const STATEMENT_TIMEOUT = '57014';

/**
 * A read stopped by its statement timeout: 503 `unavailable` with `Retry-After`, as for any
 * moment the service cannot answer (clients and the SDK already retry it), never charged.
 * A heavy read's says what would answer; it is not Mboa's failure (accounts/availability.ts).
 */
function timedOut(ctx: RequestContext, logger: Logger, path: string): ApiError {
  const seconds = (ctx.timedOutAfterMs ?? 0) / 1000;
  logger.warn({ path, request_id: ctx.requestId, heavy: ctx.heavy?.what }, 'statement timeout');
  const detail = ctx.heavy
    ? `This read (${ctx.heavy.what}) was stopped at its time limit of ${seconds} s and not charged. A smaller radius or box, status=active or narrower filters answer sooner; or retry later.`
    : `This read was stopped at its time limit of ${seconds} s and not charged: the service is overloaded. Retry in a few seconds.`;
  return new ApiError('unavailable', detail, { headers: { 'Retry-After': ctx.heavy ? '30' : '5' } });
}

/** Any error as an ApiError: its own, or `unavailable`, or `internal_error` (logged, never shown). */
export function toApiError(raw: unknown, ctx: RequestContext, logger: Logger, path: string, timeoutMs?: number): ApiError {
  if (raw instanceof ApiError) return raw;
  const e = raw as { type?: string; status?: number; message?: string; code?: string };
  if (e.code === STATEMENT_TIMEOUT && timeoutMs !== undefined) {
    ctx.timedOutAfterMs = timeoutMs;
    return timedOut(ctx, logger, path);
  }
  if (e.type === 'entity.too.large' || e.status === 400) return new ApiError('validation_error', 'The request could not be read.');
  if (raw instanceof NotReadyError) return new ApiError('unavailable', UNAVAILABLE, { headers: { 'Retry-After': '5' } });
  if (isDatabaseUnavailable(raw)) {
    logger.error({ err: e.message, path }, 'database unavailable');
    return new ApiError('unavailable', UNAVAILABLE, { headers: { 'Retry-After': '5' } });
  }
  logger.error({ err: raw, path, request_id: ctx.requestId }, 'unhandled error');
  return new ApiError('internal_error', `Something went wrong on our side. Quote request id ${ctx.requestId} to support.`);
}

/** An error is never charged: free the call's quota slot, and report the quota without it. */
export async function releaseOnError(res: ServerResponse, ctx: RequestContext, admission: Admission): Promise<void> {
  if (!ctx.ticket || ctx.ticket.settled || !ctx.quota) return;
  await admission.settle(ctx.ticket, false);
  const used = Math.max(0, ctx.quota.used - 1);
  ctx.quota = { ...ctx.quota, used, remaining: ctx.quota.limit === null ? null : Math.max(0, ctx.quota.limit - used) };
  if (!res.headersSent && ctx.headers) setQuotaHeaders(ctx.headers, ctx.quota);
}

export function writeProblem(res: ServerResponse, ctx: RequestContext, err: ApiError, metrics?: Metrics): void {
  metrics?.problem(err.code);
  if (res.headersSent) {
    // Mid-answer (a stream): nothing valid can follow; cut the connection so the client sees it.
    res.destroy();
    return;
  }
  const body: TProblem = {
    type: `${ERROR_TYPE_BASE}${err.code}`,
    title: ERROR_CODES[err.code].title,
    status: err.status,
    detail: err.detail,
    code: err.code,
    ...(err.options.errors ? { errors: err.options.errors } : {}),
    meta: { request_id: ctx.requestId, ...(ctx.quota ? { quota: ctx.quota } : {}), ...(ctx.dataset ? { dataset: ctx.dataset } : {}) },
  };
  // The API's answers gathered their headers so far; the Express app's are on the response already.
  const headers = ctx.headers ?? new AnswerHeaders();
  for (const [name, value] of Object.entries(err.options.headers ?? {})) headers.setHeader(name, value);
  const json = JSON.stringify(body);
  headers.writeHead(
    res,
    err.status,
    'Content-Type',
    'application/problem+json; charset=utf-8',
    'Content-Length',
    String(Buffer.byteLength(json)),
  );
  res.end(json);
}

/** The Express app's last handler: pages, docs and operations answer errors as problem+json too. */
export function errorHandler(deps: { logger: Logger; admission: Admission; metrics?: Metrics }): ErrorRequestHandler {
  return (raw, req, res, _next) => {
    const ctx = context(res);
    const err = toApiError(raw, ctx, deps.logger, req.path);
    void releaseOnError(res, ctx, deps.admission).finally(() => writeProblem(res, ctx, err, deps.metrics));
  };
}
