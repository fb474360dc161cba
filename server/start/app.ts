/**
 * Builds the Express app from parts made by `start/create-server.ts`: operations
 * endpoints, the API reference, the customer dashboard, and the problem+json answers for
 * whatever else is asked. `/api/v1` itself is answered in front of it (api/handler.ts).
 */
import express, { type Express, type RequestHandler, type Router } from 'express';
import { buildOpenApiDocument } from '../../contract/openapi.js';
import { docsRouter, favicon } from '../docs/index.js';
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
  /** Demo mode only: the key /docs fills in (docs/index.ts). */
  docsDemoKey?: string;
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

/** A host the samples may name: a name or address and a port, nothing that could break out of a sample's quotes. */
const SAMPLE_HOST = /^https?:\/\/(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/** Documents kept per origin asked for (without MBOA_PUBLIC_URL): a few in practice; emptied when full. */
const ORIGINS_KEPT = 16;

/**
 * The OpenAPI document, by the origin it is asked from: with MBOA_PUBLIC_URL one document
 * naming it; without, the samples name the address the document was served from (a demo
 * on another port or host), so that they work as copied.
 */
function openApiFor(publicUrl: string | undefined): (origin: string) => ReturnType<typeof buildOpenApiDocument> {
  if (publicUrl) {
    const document = buildOpenApiDocument({ version: VERSION, serverUrl: publicUrl });
    return () => document;
  }
  const fallback = buildOpenApiDocument({ version: VERSION });
  const byOrigin = new Map<string, ReturnType<typeof buildOpenApiDocument>>();
  return (origin) => {
    if (!SAMPLE_HOST.test(origin)) return fallback;
    let document = byOrigin.get(origin);
    if (!document) {
      if (byOrigin.size >= ORIGINS_KEPT) byOrigin.clear();
      document = buildOpenApiDocument({ version: VERSION, sampleOrigin: origin });
      byOrigin.set(origin, document);
    }
    return document;
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
  app.get(['/favicon.ico', '/favicon.svg'], favicon());
  app.use(gate(deps.drain, deps.readiness));
  const openapi = openApiFor(deps.publicUrl);
  app.get('/', (_req, res) => {
    res.json({ name: 'Mboa real estate data API', version: VERSION, docs: '/docs', openapi: '/api/v1/openapi.json' });
  });
  app.get('/api/v1/openapi.json', (req, res) => {
    res.json(openapi(`${req.protocol}://${req.get('host') ?? ''}`));
  });
  app.use('/docs', docsRouter({ publicUrl: deps.publicUrl, demoKey: deps.docsDemoKey }));
  if (deps.dashboard) app.use('/dashboard', deps.dashboard);

  app.use('/api', (req, _res, next) => next(new ApiError('not_found', `No endpoint at ${req.originalUrl.split('?')[0]}. See /docs.`)));
  app.use((req, _res, next) => next(new ApiError('not_found', `Nothing at ${req.path}.`)));
  app.use(errorHandler({ logger: deps.logger, admission: deps.admission, metrics: deps.metrics }));
  return app;
}
