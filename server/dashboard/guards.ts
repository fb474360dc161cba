/**
 * What a request must show before a route acts on it: a session, an account that is not
 * suspended, the session's CSRF token or the sign-up and log-in forms' token; and the
 * checked inputs those decisions rest on (the client's IP, a safe `next` path).
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Dashboard } from './context.js';
import { cookiePath, setCookie } from './cookies.js';
import { FORM_COOKIE } from './form-tokens.js';
import { t } from './i18n.js';
import { suspendedText } from './labels.js';
import { state } from './request-state.js';
import { pagePath, send, view } from './respond.js';
import { sameToken } from './session.js';
import { csrfPage, messagePage } from './views/errors.js';

/** `next` after log-in or a language switch: a path inside the dashboard, nothing else. */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || value.length > 200) return '/';
  return /^\/(?![/\\])[A-Za-z0-9/_.\-?=&%]*$/.test(value) && !value.includes('//') ? value : '/';
}

/** Pages behind a session: anyone else is sent to log in, and back here after. */
export function requireSession(): RequestHandler {
  return (req, res, next) => {
    if (state(res).session) return next();
    const next_ = req.method === 'GET' ? safeNext(pagePath(req)) : '/';
    res.redirect(303, `${req.baseUrl}/login${next_ === '/' ? '' : `?next=${encodeURIComponent(next_)}`}`);
  };
}

/**
 * Actions a suspended account may not take (change plan, create or rotate keys): refused
 * with a page that says why. Reading pages, paying and revoking keys stay open.
 */
export function requireActive(d: Dashboard): RequestHandler {
  return (req, res, next) => {
    const account = state(res).session?.account;
    if (!account || account.status !== 'suspended') return next();
    d.deps.logger.info({ account_id: account.id, path: req.path }, 'dashboard: suspended account refused');
    const v = view(d, req, res);
    send(res, 403, messagePage(v, { title: t(v.lang, 'suspended.title'), text: suspendedText(v.lang, account) }));
  };
}

/** Every POST inside a session carries the session's CSRF token. */
export function requireCsrf(d: Dashboard): RequestHandler {
  return (req, res, next) => {
    const session = state(res).session;
    const given = (req.body as Record<string, unknown> | undefined)?._csrf;
    if (session && sameToken(given, session.csrfToken)) return next();
    d.deps.logger.warn({ path: req.path }, 'dashboard: CSRF token missing or wrong');
    send(res, 403, csrfPage(view(d, req, res)));
  };
}

/** The sign-up and log-in forms' token: the cookie's, or a new pair (cookie set now). */
export function formToken(d: Dashboard, req: Request, res: Response, fresh = false): string {
  const existing = fresh ? null : d.formTokens.tokenOf(state(res).cookies[FORM_COOKIE]);
  if (existing) return existing;
  const pair = d.formTokens.issue();
  setCookie(res, FORM_COOKIE, pair.cookie, { secure: state(res).secure, path: cookiePath(req), maxAge: 2 * 60 * 60 });
  return pair.token;
}

export function formTokenValid(d: Dashboard, req: Request, res: Response): boolean {
  return d.formTokens.verify(state(res).cookies[FORM_COOKIE], (req.body as Record<string, unknown> | undefined)?._csrf);
}

/** The client's IP as Express sees it (behind a proxy: with TRUST_PROXY set). */
export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

/** A form that may be sent with or without a session: the session's token, else the form cookie's. */
export function pageFormValid(d: Dashboard, req: Request, res: Response): boolean {
  const session = state(res).session;
  if (session) return sameToken((req.body as Record<string, unknown> | undefined)?._csrf, session.csrfToken);
  return formTokenValid(d, req, res);
}
