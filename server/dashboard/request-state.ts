/**
 * What the dashboard knows about the request being answered (language, session, notices
 * to show, whether cookies must be Secure), kept on res.locals, and the cookies that carry
 * some of it from one request to the next: the language choice and a one-time notice.
 */
import type { Request, RequestHandler, Response } from 'express';
import { isLang, type Lang, pickLang } from '../platform/lang.js';
import type { Dashboard } from './context.js';
import { clearCookie, cookiePath, readCookies, setCookie } from './cookies.js';
import { type MessageKey, type Params, t } from './i18n.js';
import { findSession, SESSION_COOKIE, type Session } from './session.js';
import type { Notice } from './views/layout.js';

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

/** The language picked with the switch in the top bar. */
const LANG_COOKIE = 'mboa_lang';
const FLASH_COOKIE = 'mboa_flash';
const FLASH_KEYS = new Set<MessageKey>([
  'notice.revoked',
  'notice.planChanged',
  'notice.planSame',
  'notice.loggedOut',
  'notice.verificationSent',
  'notice.alreadyVerified',
  'notice.passwordReset',
  'notice.passwordChanged',
  'webhooks.notice.deleted',
  'webhooks.notice.test',
  'webhooks.notice.resent',
]);

/** Reads the language and a pending notice; runs before anything else, body parsing included. */
export function readState(d: Dashboard): RequestHandler {
  return (req, res, next) => {
    const cookies = readCookies(req);
    const secure = d.deps.secureCookies === true || req.secure;
    const lang = pickLang(cookies[LANG_COOKIE], req.get('accept-language'));
    const s: RequestState = { lang, cookies, session: null, notices: [], secure };
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

/** Remembers the language picked, for a year. */
export function langCookie(res: Response, req: Request, lang: Lang): void {
  if (isLang(lang)) setCookie(res, LANG_COOKIE, lang, { maxAge: 365 * 24 * 60 * 60, secure: state(res).secure, path: cookiePath(req) });
}
