/**
 * The customer dashboard, served by the API server under /dashboard: sign up, log in,
 * choose and change plan, manage keys, see usage and billing. Server-rendered HTML in
 * French and English, one CSS file, a few lines of script; no front-end build.
 *
 * Mount: `buildApp({ ..., mounts: [{ path: '/dashboard', router: dashboardRouter(deps) }] })`.
 * Accounts, keys and plans go through server/accounts (shared with the operator CLI).
 */
import express, { type ErrorRequestHandler, type Router } from 'express';
import { AccountRuleError } from '../accounts/errors.js';
import { isLang } from '../platform/lang.js';
import { refuseControlCharacters } from './control-characters.js';
import { databaseUnreachable } from './db-unavailable.js';
import { Dashboard, type DashboardDeps } from './context.js';
import { safeNext } from './guards.js';
import { langCookie, loadSession, readState, state } from './request-state.js';
import { handler, send, view } from './respond.js';
import { t } from './i18n.js';
import { accountRoutes } from './routes/account.js';
import { authRoutes } from './routes/auth.js';
import { keyRoutes } from './routes/keys.js';
import { marketRoutes } from './routes/market.js';
import { overviewRoutes } from './routes/overview.js';
import { planRoutes } from './routes/plans.js';
import { passwordRoutes } from './routes/password.js';
import { salesRoutes } from './routes/sales.js';
import { verifyRoutes } from './routes/verify.js';
import { webhookRoutes } from './routes/webhooks.js';
import { badRequestPage, controlCharactersPage, messagePage, notFoundPage, serverErrorPage, unavailablePage } from './views/errors.js';

export type { DashboardDeps } from './context.js';
export { ExplorerAccess } from './explorer-access.js';

const CSP = [
  "default-src 'none'",
  "style-src 'self'",
  "script-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** What a 503 asks browsers and clients to wait, in seconds. */
const RETRY_AFTER_SECONDS = 30;

export function dashboardRouter(deps: DashboardDeps): Router {
  const d = new Dashboard(deps);
  const router = express.Router({ strict: false });

  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'same-origin');
    res.setHeader('Cache-Control', 'private, no-cache');
    next();
  });

  router.get('/assets/:file', (req, res, next) => {
    const asset = Object.hasOwn(d.assets, req.params.file) ? d.assets[req.params.file] : undefined;
    if (!asset) return next();
    res.setHeader('Cache-Control', req.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
    res.type(asset.type).send(asset.body);
  });

  router.use(readState(d));
  // Forms only: small, flat (no `a[b]=c` objects); the webhooks form ticks up to 100 saved searches.
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 120 }));
  router.use(refuseControlCharacters((req, res) => send(res, 400, controlCharactersPage(view(d, req, res)))));
  router.use(loadSession(d));

  router.get(
    '/lang/:lang',
    handler((req, res) => {
      const lang = req.params.lang;
      if (isLang(lang)) {
        langCookie(res, req, lang);
        state(res).lang = lang;
      }
      res.redirect(303, `${req.baseUrl}${safeNext(req.query.next)}`);
    }),
  );

  authRoutes(router, d);
  verifyRoutes(router, d);
  passwordRoutes(router, d);
  accountRoutes(router, d);
  overviewRoutes(router, d);
  marketRoutes(router, d);
  keyRoutes(router, d);
  webhookRoutes(router, d);
  planRoutes(router, d);
  salesRoutes(router, d);

  router.use((req, res) => {
    if (!res.locals.dashboard) return res.status(404).type('text').send('Not found');
    send(res, 404, notFoundPage(view(d, req, res)));
  });

  const onError: ErrorRequestHandler = (err, req, res, next) => {
    if (res.headersSent) return next(err);
    if (!res.locals.dashboard) readState(d)(req, res, () => {});
    const v = view(d, req, res);
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.too.large' || e.type === 'parameters.too.many') return send(res, 413, badRequestPage(v));
    if (e.type === 'entity.parse.failed' || e.type === 'charset.unsupported' || e.status === 400 || e.status === 415) {
      return send(res, 400, badRequestPage(v));
    }
    if (databaseUnreachable(err)) {
      deps.logger.error({ err: (err as Error).message, path: req.path }, 'dashboard: database unavailable');
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
      res.setHeader('Cache-Control', 'no-store');
      return send(res, 503, unavailablePage(v, RETRY_AFTER_SECONDS));
    }
    if (err instanceof AccountRuleError)
      return send(res, err.status, messagePage(v, { title: t(v.lang, 'refused.title'), text: err.message }));
    const requestId = String(res.locals.requestId ?? 'unknown');
    deps.logger.error({ err, path: req.path, request_id: requestId }, 'dashboard: unhandled error');
    send(res, 500, serverErrorPage(v, requestId));
  };
  router.use(onError);
  return router;
}
