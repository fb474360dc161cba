/**
 * What the dashboard's routes share: dependencies, the per-request state (language,
 * session, notices) and the helpers to answer with a page, a redirect or a refusal.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { Prisma } from '../db.js';
import type { Logger } from '../logger.js';
import { clearCookie, readCookies, setCookie } from './cookies.js';
import { FormTokens, FORM_COOKIE } from './form-tokens.js';
import type { SafeHtml } from './html.js';
import { isLang, type Lang, LANG_COOKIE, type MessageKey, type Params, pickLang, t } from './i18n.js';
import { DEFAULT_LOGIN_LIMITS, LoginLimiter, type LoginLimits } from './login-limiter.js';
import { findSession, SESSION_COOKIE, type Session, sameToken } from './session.js';
import { csrfPage } from './views/errors.js';
import type { Notice, View } from './views/layout.js';

export interface DashboardDeps {
  prisma: Prisma;
  pool: pg.Pool;
  logger: Logger;
  /** Shares the log-in attempt counts between server instances. */
  redis?: Redis;
  /** Always mark cookies Secure (behind a TLS-terminating proxy); otherwise only on https requests. */
  secureCookies?: boolean;
  /**
   * Signs the sign-up and log-in forms' CSRF cookie. Instances behind one load balancer
   * should share it; a random per-process secret is used when absent.
   */
  formSecret?: string;
  loginLimits?: LoginLimits;
  now?: () => Date;
}

export interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

function asset(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  return { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 10) };
}

export class Dashboard {
  readonly formTokens: FormTokens;
  readonly loginLimiter: LoginLimiter;
  readonly assets: Record<string, Asset>;
  readonly now: () => Date;

  constructor(readonly deps: DashboardDeps) {
    this.formTokens = new FormTokens(deps.formSecret ? Buffer.from(deps.formSecret) : randomBytes(32));
    this.loginLimiter = new LoginLimiter(deps.redis, deps.loginLimits ?? DEFAULT_LOGIN_LIMITS);
    this.assets = {
      'dashboard.css': asset('dashboard.css', 'text/css; charset=utf-8'),
      'dashboard.js': asset('dashboard.js', 'text/javascript; charset=utf-8'),
    };
    this.now = deps.now ?? (() => new Date());
  }

  get prisma(): Prisma {
    return this.deps.prisma;
  }
}

/** Per-request state, on res.locals. */
export interface RequestState {
  lang: Lang;
  cookies: Record<string, string>;
  session: Session | null;
  notices: Notice[];
  secure: boolean;
}

export function state(res: Response): RequestState {
  return res.locals.dashboard as RequestState;
}

const FLASH_COOKIE = 'mboa_flash';
const FLASH_KEYS = new Set<MessageKey>(['notice.revoked', 'notice.planChanged', 'notice.planSame', 'notice.loggedOut']);

/** Reads the language and a pending notice; runs before anything else, body parsing included. */
export function readState(d: Dashboard): RequestHandler {
  return (req, res, next) => {
    const cookies = readCookies(req);
    const secure = d.deps.secureCookies === true || req.secure;
    const s: RequestState = { lang: pickLang(req, cookies[LANG_COOKIE]), cookies, session: null, notices: [], secure };
    res.locals.dashboard = s;
    const flash = cookies[FLASH_COOKIE];
    if (flash && req.method === 'GET') {
      clearCookie(res, FLASH_COOKIE, secure, cookiePath(req));
      const notice = readFlash(flash);
      if (notice) s.notices.push({ kind: 'success', text: t(s.lang, notice.key, notice.params) });
    }
    next();
  };
}

/** Finds the session of the request's cookie, if any. */
export function loadSession(d: Dashboard): RequestHandler {
  return (_req, res, next) => {
    const s = state(res);
    findSession(d.prisma, s.cookies[SESSION_COOKIE], d.now())
      .then((session) => {
        s.session = session;
        next();
      })
      .catch(next);
  };
}

function readFlash(value: string): { key: MessageKey; params: Params } | null {
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as { k?: unknown; p?: unknown };
    if (typeof parsed.k !== 'string' || !FLASH_KEYS.has(parsed.k as MessageKey)) return null;
    const params: Params = {};
    for (const [k, v] of Object.entries((parsed.p ?? {}) as Record<string, unknown>)) {
      if ((typeof v === 'string' && v.length <= 120) || typeof v === 'number') params[k] = v;
    }
    return { key: parsed.k as MessageKey, params };
  } catch {
    return null;
  }
}

/** A notice shown once, on the page a redirect leads to. */
export function flash(req: Request, res: Response, key: MessageKey, params: Params = {}): void {
  const value = Buffer.from(JSON.stringify({ k: key, p: params })).toString('base64url');
  setCookie(res, FLASH_COOKIE, value, { maxAge: 60, secure: state(res).secure, path: cookiePath(req) });
}

export function cookiePath(req: Request): string {
  return req.baseUrl || '/';
}

/** The GET page a request belongs to, for the language switch and log-in's `next`. */
function pagePath(req: Request): string {
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

export function langCookie(res: Response, req: Request, lang: Lang): void {
  if (isLang(lang)) setCookie(res, LANG_COOKIE, lang, { maxAge: 365 * 24 * 60 * 60, secure: state(res).secure, path: cookiePath(req) });
}
