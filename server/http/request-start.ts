/**
 * What every request gets first (the API's front handler and the Express app alike): a
 * request id (the caller's own X-Request-Id when safe to echo), HSTS when it came over
 * https, and, once the answer is written or the connection closed, its metrics and one
 * structured log line (no key, query values or bodies).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { randomId } from '../platform/ids.js';
import { type Logger, logRequest } from '../platform/logger.js';
import type { AnswerHeaders } from './answer-headers.js';
import type { Metrics } from '../platform/metrics.js';
import { wasCut } from './drain.js';

const SAFE_ID = /^[A-Za-z0-9._:-]{8,64}$/;
const HSTS = 'max-age=31536000; includeSubDomains';

/** What a request carries from its start: its id, and its caller once the API knows it. */
export interface StartedRequest {
  requestId: string;
  caller?: { accountId: string };
  /**
   * Called once when the answer ends: `finished` when it was all handed to the network,
   * false when the connection closed first (one pair of listeners per request serves all).
   */
  onEnd?: (finished: boolean) => void;
  /** Where an API answer's headers gather until it is written (answer-headers.ts); absent for the Express app's. */
  headers?: AnswerHeaders;
}

export interface RequestStartDeps {
  logger: Logger;
  metrics: Metrics;
}

/**
 * Starts a request; `routeOf` names it for the metrics (a route pattern, never the raw
 * path) once the answer is known. The context is `res.locals`, as Express keeps it.
 */
export function startRequest<C extends StartedRequest>(
  req: IncomingMessage,
  res: ServerResponse & { locals?: object },
  deps: RequestStartDeps,
  o: { path: string; secure: boolean; routeOf: () => string; headers?: AnswerHeaders },
): C {
  const started = process.hrtime.bigint();
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && SAFE_ID.test(given) ? given : randomId('req');
  const ctx = (res.locals ??= {}) as C;
  ctx.requestId = id;
  ctx.headers = o.headers;
  const headers = o.headers ?? res;
  headers.setHeader('X-Request-Id', id);
  if (o.secure) headers.setHeader('Strict-Transport-Security', HSTS);
  let done = false;
  const end = (finished: boolean) => {
    if (done) return;
    done = true;
    ctx.onEnd?.(finished);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    deps.metrics.record(o.routeOf(), req.method ?? 'GET', res.statusCode, seconds);
    logRequest(deps.logger, {
      requestId: id,
      method: req.method ?? 'GET',
      path: o.path,
      status: res.statusCode,
      ms: seconds * 1000,
      account: ctx.caller?.accountId,
    });
  };
  res.on('finish', () => end(!wasCut(res)));
  res.on('close', () => end(res.writableFinished && !wasCut(res)));
  return ctx;
}

/** The same, as the Express app's first middleware. */
export function requestStart(deps: RequestStartDeps): RequestHandler {
  return (req, res, next) => {
    startRequest(req, res, deps, {
      path: req.path,
      secure: req.secure,
      routeOf: () => {
        const route = (req as { route?: { path?: unknown } }).route;
        if (route && typeof route.path === 'string') return `${req.baseUrl}${route.path}`;
        return res.statusCode === 404 ? 'unmatched' : 'other';
      },
    });
    next();
  };
}
