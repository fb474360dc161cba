/**
 * Operations endpoints, outside /api/v1 and never counted: `/healthz` (the process
 * answers), `/readyz` (it can serve: see readiness.ts) and `/metrics` (Prometheus text),
 * which is never public: it needs the bearer token, or is served on its own port instead.
 */
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { RequestHandler } from 'express';
import { ERROR_CODES, ERROR_TYPE_BASE } from '../../contract/errors.js';
import { context } from '../api/context.js';
import type { Metrics } from '../platform/metrics.js';
import type { CheckResult, Readiness } from '../platform/readiness.js';

const PROBLEMS: Record<CheckResult, (name: string) => string> = {
  ok: (name) => `${name} ok`,
  not_configured: (name) => `${name} not configured`,
  unreachable: (name) => `${name} unreachable`,
  pending_migrations: () => 'database migrations pending (run `npm run db:migrate`)',
  deaf: (name) => `${name} deaf (caches bypassed until it is back)`,
};

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function opsRoutes(deps: {
  readiness: Readiness;
  metrics: Metrics;
  metricsToken?: string;
  draining: () => boolean;
}): RequestHandler {
  const healthz: RequestHandler = (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  };

  const readyz: RequestHandler = async (_req, res, next) => {
    try {
      const report = await deps.readiness.report();
      res.setHeader('Cache-Control', 'no-store');
      const draining = deps.draining();
      if (report.ready && !draining) {
        res.json({
          status: 'ready',
          ...report.checks,
          ...(report.valuation_model ? { valuation_model: report.valuation_model } : {}),
          ...(report.read_replicas ? { read_replicas: report.read_replicas } : {}),
        });
        return;
      }
      const detail = draining
        ? 'This instance is shutting down.'
        : `Not ready: ${Object.entries(report.checks)
            .filter(([, v]) => v !== 'ok' && v !== 'not_configured' && v !== 'deaf')
            .map(([name, result]) => PROBLEMS[result as CheckResult](name))
            .join('; ')}.`;
      res.setHeader('Retry-After', '5');
      res
        .status(503)
        .type('application/problem+json')
        .send(
          JSON.stringify({
            type: `${ERROR_TYPE_BASE}unavailable`,
            title: ERROR_CODES.unavailable.title,
            status: 503,
            detail,
            code: 'unavailable',
            checks: report.checks,
            ...(report.pending_migrations ? { pending_migrations: report.pending_migrations } : {}),
            ...(report.valuation_model ? { valuation_model: report.valuation_model } : {}),
            ...(report.read_replicas ? { read_replicas: report.read_replicas } : {}),
            meta: { request_id: context(res).requestId },
          }),
        );
    } catch (err) {
      next(err);
    }
  };

  let metrics: RequestHandler | undefined;
  if (deps.metricsToken !== undefined) {
    const expected = `Bearer ${deps.metricsToken}`;
    metrics = async (req, res, next) => {
      if (!sameSecret(req.get('authorization') ?? '', expected)) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
        res.status(401).type('text/plain').send('metrics need Authorization: Bearer <MBOA_METRICS_TOKEN>\n');
        return;
      }
      try {
        res.setHeader('Cache-Control', 'no-store');
        res.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics());
      } catch (err) {
        next(err);
      }
    };
  }

  // A plain switch rather than a Router: API calls pass here and pay for every layer.
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/healthz') return healthz(req, res, next);
    if (req.path === '/readyz') return readyz(req, res, next);
    if (req.path === '/metrics' && metrics) return metrics(req, res, next);
    next();
  };
}

/** `/metrics` alone, without a token, on a port of its own (meant for a private network). */
export function metricsServer(metrics: Metrics): Server {
  return createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
}
