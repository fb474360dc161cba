/** Writes every error as RFC 9457 problem+json, with `meta` (request id, quota when known). */
import type { ErrorRequestHandler, Response } from 'express';
import { RequestValidationError } from '@ts-rest/express';
import type { ZodError } from 'zod';
import { ERROR_CODES, ERROR_TYPE_BASE, type TFieldError, type TProblem } from '../../contract/errors.js';
import { ApiError, isDatabaseUnavailable } from '../errors.js';
import type { Logger } from '../logger.js';
import { context } from './context.js';
import { quotaView, setQuotaHeaders } from './quota-view.js';
import type { UsageMeter } from './usage-meter.js';

function sendProblem(res: Response, err: ApiError): void {
  const ctx = context(res);
  const body: TProblem = {
    type: `${ERROR_TYPE_BASE}${err.code}`,
    title: ERROR_CODES[err.code].title,
    status: err.status,
    detail: err.detail,
    code: err.code,
    ...(err.options.errors ? { errors: err.options.errors } : {}),
    meta: { request_id: ctx.requestId, ...(ctx.quota ? { quota: ctx.quota } : {}) },
  };
  for (const [name, value] of Object.entries(err.options.headers ?? {})) res.setHeader(name, value);
  res.status(err.status).type('application/problem+json').send(JSON.stringify(body));
}

function fieldErrors(where: string, error: ZodError | null): TFieldError[] {
  if (!error) return [];
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return { path: issue.keys.join(', '), message: `unknown ${where} parameter${issue.keys.length > 1 ? 's' : ''}` };
    }
    const path = issue.path.join('.') || where;
    return { path, message: issue.message };
  });
}

export function validationProblem(err: RequestValidationError): ApiError {
  const errors = [...fieldErrors('path', err.pathParams), ...fieldErrors('query', err.query)];
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ') || 'The request is not valid.';
  return new ApiError('validation_error', detail, { errors });
}

export function errorHandler(deps: { logger: Logger; meter: UsageMeter }): ErrorRequestHandler {
  return (rawErr, req, res, _next) => {
    void (async () => {
      let err: ApiError;
      if (rawErr instanceof ApiError) err = rawErr;
      else if (rawErr instanceof RequestValidationError) err = validationProblem(rawErr);
      else if ((rawErr as { type?: string }).type === 'entity.too.large' || (rawErr as { status?: number }).status === 400) {
        err = new ApiError('validation_error', 'The request could not be read.');
      } else if (isDatabaseUnavailable(rawErr)) {
        deps.logger.error({ err: (rawErr as Error).message, path: req.path }, 'database unavailable');
        err = new ApiError('unavailable', 'The service is temporarily unavailable. Retry in a few seconds.', {
          headers: { 'Retry-After': '5' },
        });
      } else {
        deps.logger.error({ err: rawErr, path: req.path, request_id: context(res).requestId }, 'unhandled error');
        err = new ApiError('internal_error', `Something went wrong on our side. Quote request id ${context(res).requestId} to support.`);
      }
      // An error is never charged: give the call back before reporting the quota.
      const ctx = context(res);
      if (ctx.reservation && !ctx.reservation.released && ctx.caller) {
        const used = await deps.meter.release(ctx.reservation).catch(() => null);
        if (used !== null) {
          ctx.quota = quotaView(ctx.caller, used, new Date());
          setQuotaHeaders(res, ctx.quota);
        }
      }
      if (res.headersSent) return res.end();
      sendProblem(res, err);
    })();
  };
}

