/**
 * Builds the Express app from parts made by `start/create-server.ts`: operations
 * endpoints, the API reference, the customer dashboard, and the problem+json answers for
 * whatever else is asked. `/api/v1` itself is answered in front of it (api/handler.ts).
 */
import express, { type Express, type RequestHandler, type Router } from 'express';
import { buildOpenApiDocument } from '../../contract/openapi.js';
import { docsRouter } from '../docs/index.js';
import { ApiError, NotReadyError } from '../platform/errors.js';
import type { Admission } from '../quota/admission.js';
import { errorHandler } from '../api/problem.js';
import { requestStart } from '../http/request-start.js';
import type { Logger } from '../platform/logger.js';
import type { Metrics } from '../platform/metrics.js';
import type { Readiness } from '../platform/readiness.js';
import { opsRoutes } from '../ops/routes.js';
import type { Drain } from '../http/drain.js';
import { VERSION } from '../platform/version.js';

export interface AppDeps {
  logger: Logger;
  admission: Admission;
  metrics: Metrics;
  readiness: Readiness;
  drain: Drain;
  /** Opens GET /metrics on this app with `Authorization: Bearer <token>`; absent: no /metrics here. */
  metricsToken?: string;
  /** Public origin, for the OpenAPI document's `servers`. */
  publicUrl?: string;
  /** Express `trust proxy`. */
  trustProxy?: string;
  /** The customer dashboard, mounted at /dashboard. */
  dashboard?: Router;
  /** gzip or brotli, shared with the API's front handler. */
  compress: RequestHandler;
}

const UNAVAILABLE_PAGE =
  '<!doctype html><meta charset="utf-8"><title>Mboa</title><p>Service briefly unavailable. Retry in a few seconds.</p><p lang="fr">Service momentanément indisponible. Réessayez dans quelques secondes.</p>';

/**
 * Whether this instance serves the request at all: not while it drains, nor before its
 * database holds its migrations (then the API answers 503 problem+json, pages a short
 * bilingual notice). API answers are marked no-store on the way.
 */
function gate(drain: Drain, readiness: Readiness): RequestHandler {
  return (req, res, next) => {
    const api = req.path.startsWith('/api/');
    if (api) res.setHeader('Cache-Control', 'no-store');
    if (!drain.enter(res)) return next(new NotReadyError('shutting down'));
    if (readiness.schemaReady) return next();
    if (api) return next(new NotReadyError('database schema not migrated'));
    res.setHeader('Retry-After', '5');
    res.status(503).type('html').send(UNAVAILABLE_PAGE);
  };
}

export function buildApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Plain key=value parsing: no nested objects out of `a[b]=c`.
  app.set('query parser', 'simple');
  if (deps.trustProxy !== undefined) {
    app.set('trust proxy', /^\d+$/.test(deps.trustProxy) ? Number(deps.trustProxy) : deps.trustProxy);
  }
  app.use(requestStart({ logger: deps.logger, metrics: deps.metrics }));
  // gzip or brotli when the client accepts it: JSON pages, the OpenAPI document, /docs.
  // Requests that accept neither skip the middleware (it wraps every response it sees).
  app.use((req, res, next) => (req.headers['accept-encoding'] ? deps.compress(req, res, next) : next()));
  app.use(
    opsRoutes({ readiness: deps.readiness, metrics: deps.metrics, metricsToken: deps.metricsToken, draining: () => deps.drain.isDraining }),
  );
  app.use(gate(deps.drain, deps.readiness));
  const openapi = buildOpenApiDocument({ version: VERSION, serverUrl: deps.publicUrl });
  app.get('/', (_req, res) => {
    res.json({ name: 'Mboa real estate data API', version: VERSION, docs: '/docs', openapi: '/api/v1/openapi.json' });
  });
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use('/docs', docsRouter({ publicUrl: deps.publicUrl }));
  if (deps.dashboard) app.use('/dashboard', deps.dashboard);

  app.use('/api', (req, _res, next) => next(new ApiError('not_found', `No endpoint at ${req.originalUrl.split('?')[0]}. See /docs.`)));
  app.use((req, _res, next) => next(new ApiError('not_found', `Nothing at ${req.path}.`)));
  app.use(errorHandler({ logger: deps.logger, admission: deps.admission, metrics: deps.metrics }));
  return app;
}
