/**
 * How a route answers: the view model every page is rendered from, an HTML page with its
 * status, a redirect inside the dashboard; and the handler wrapper and form-field reader
 * every route uses.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { SafeHtml } from '../platform/html.js';
import type { Dashboard } from './context.js';
import { state } from './request-state.js';
import type { View } from './views/layout.js';

/** The GET page a request belongs to, for the language switch and log-in's `next`. */
export function pagePath(req: Request): string {
  const rest = req.originalUrl.slice(req.baseUrl.length) || '/';
  if (req.method === 'GET') return rest.length <= 200 ? rest : '/';
  const section = /^\/([a-z]+)/.exec(rest)?.[1];
  return section ? `/${section}` : '/';
}

export function view(d: Dashboard, req: Request, res: Response): View {
  const s = state(res);
  const base = req.baseUrl;
  return {
    lang: s.lang,
    base,
    path: pagePath(req),
    account: s.session?.account ?? null,
    csrf: s.session?.csrfToken ?? null,
    notices: s.notices,
    assets: {
      css: `${base}/assets/dashboard.css?v=${d.assets['dashboard.css'].version}`,
      js: `${base}/assets/dashboard.js?v=${d.assets['dashboard.js'].version}`,
    },
    origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
  };
}

export function send(res: Response, status: number, body: SafeHtml): void {
  res.status(status).type('html').send(body.value);
}

export function redirect(req: Request, res: Response, path: string): void {
  res.redirect(303, `${req.baseUrl}${path}`);
}

/** Express 4 does not catch rejected promises: pass them to the error handler. */
export function handler(fn: (req: Request, res: Response) => Promise<void> | void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    try {
      Promise.resolve(fn(req, res)).catch(next);
    } catch (err) {
      next(err);
    }
  };
}

/** A form field as a trimmed string ('' when absent or not a string). */
export function fieldOf(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
