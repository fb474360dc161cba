/**
 * Builds the Express app; `main.ts` listens. Tests build it over their own database.
 */
import express, { type Express, type Router } from 'express';
import { createExpressEndpoints } from '@ts-rest/express';
import type pg from 'pg';
import swaggerUi from 'swagger-ui-express';
import { buildOpenApiDocument } from '../contract/openapi.js';
import { contract } from '../contract/router.js';
import { ApiError } from './errors.js';
import { accessLog } from './http/access-log.js';
import { apiPipeline } from './http/pipeline.js';
import { errorHandler, validationProblem } from './http/problem.js';
import type { AccountRateLimiter } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { UsageMeter } from './http/usage-meter.js';
import { CursorCodec } from './listings/cursor.js';
import type { Logger } from './logger.js';
import { apiRouter } from './routes/api.js';
import { VERSION } from './version.js';

export interface AppDeps {
  pool: pg.Pool;
  logger: Logger;
  rateLimiter: AccountRateLimiter;
  cursorSecret: string;
  /** Extra routers mounted at their path, e.g. the customer dashboard. */
  mounts?: Array<{ path: string; router: Router }>;
  now?: () => Date;
}

const API_PATHS = ['/api/v1/listings', '/api/v1/listings/:id', '/api/v1/market/stats', '/api/v1/market/trends', '/api/v1/ping'];

export function buildApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Plain key=value parsing: no nested objects out of `a[b]=c`.
  app.set('query parser', 'simple');
  app.use(requestId);
  app.use(accessLog(deps.logger));

  const meter = new UsageMeter(deps.pool);
  const openapi = buildOpenApiDocument({ version: VERSION });

  app.get('/', (_req, res) => {
    res.json({ name: 'Mboa real estate data API', version: VERSION, docs: '/docs', openapi: '/api/v1/openapi.json' });
  });
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(openapi, { customSiteTitle: 'Mboa API reference' }));
  for (const mount of deps.mounts ?? []) app.use(mount.path, mount.router);

  createExpressEndpoints(contract, apiRouter({ pool: deps.pool, cursors: new CursorCodec(deps.cursorSecret) }), app, {
    globalMiddleware: apiPipeline({ pool: deps.pool, meter, rateLimiter: deps.rateLimiter, logger: deps.logger, now: deps.now }),
    responseValidation: true,
    logInitialization: false,
    jsonQuery: false,
    requestValidationErrorHandler: (err, _req, _res, next) => next(validationProblem(err)),
  });

  for (const path of API_PATHS) {
    app.all(path, (req, res, next) => {
      res.setHeader('Allow', 'GET, HEAD');
      next(new ApiError('method_not_allowed', `${req.method} is not allowed here: the API is read-only (GET).`));
    });
  }
  app.use('/api', (req, _res, next) => next(new ApiError('not_found', `No endpoint at ${req.originalUrl.split('?')[0]}. See /docs.`)));
  app.use((req, _res, next) => next(new ApiError('not_found', `Nothing at ${req.path}.`)));
  app.use(errorHandler({ logger: deps.logger, meter }));
  return app;
}
