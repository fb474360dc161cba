/**
 * Password reset by e-mail. The request page answers the same whether or not the address
 * has an account, and the address is looked up after the answer, so neither the page nor
 * its timing reveals anything; the
 * link works once, for an hour, and ends every session of the account.
 */
import type { Router } from 'express';
import { TOKEN_TTL_MS } from '../../accounts/email-tokens.js';
import { issueResetLink, PasswordRuleError, resetLinkAccount, resetPassword, resettableAccount } from '../../accounts/password-changes.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import { normalizeEmail } from '../../accounts/accounts.js';
import { hashedKey, takeAll } from '../attempt-limiter.js';
import { cookiePath, setCookie } from '../cookies.js';
import type { Dashboard } from '../context.js';
import { clientIp, formToken, pageFormValid } from '../guards.js';
import { flash, state } from '../request-state.js';
import { fieldOf, handler, redirect, send, view } from '../respond.js';
import { t } from '../i18n.js';
import { SESSION_COOKIE, SESSION_TTL_MS, startSession } from '../session.js';
import { linkPage } from '../views/links.js';
import { forgotPage, resetPage } from '../views/password.js';

export function passwordRoutes(router: Router, d: Dashboard): void {
  const tokenFor = (req: Parameters<typeof formToken>[1], res: Parameters<typeof formToken>[2], fresh = false) =>
    state(res).session?.csrfToken ?? formToken(d, req, res, fresh);

  router.get(
    '/password/forgot',
    handler((req, res) => {
      send(res, 200, forgotPage(view(d, req, res), { email: state(res).session?.account.email ?? '', token: tokenFor(req, res) }));
    }),
  );

  router.post(
    '/password/forgot',
    handler(async (req, res) => {
      const lang = state(res).lang;
      const given = fieldOf(req, 'email').trim().slice(0, 300);
      const refuse = (status: number, error: string, fresh = false) =>
        send(res, status, forgotPage(view(d, req, res), { email: given, token: tokenFor(req, res, fresh), error }));
      if (!pageFormValid(d, req, res)) return refuse(403, t(lang, 'error.csrf.refreshed'), true);
      let email: string;
      try {
        email = normalizeEmail(given);
      } catch {
        return refuse(422, t(lang, 'error.email.invalid'));
      }
      const wait = await takeAll([
        [d.resetByIp, clientIp(req)],
        [d.resetByEmail, hashedKey(email)],
      ]);
      if (wait !== null) {
        res.setHeader('Retry-After', String(wait));
        return refuse(429, t(lang, 'error.forgot.limited', { minutes: Math.ceil(wait / 60) }));
      }
      // The answer neither waits for nor depends on the account: looking the address up,
      // making the link and mailing it all happen after the answer, the same work queued
      // for a known address as for an unknown one.
      d.afterAnswer('password reset link', async () => {
        const account = await resettableAccount(d.prisma, email);
        if (!account) return;
        const token = await issueResetLink(d.prisma, account.id, d.now());
        await d.mail.passwordReset(account, token, TOKEN_TTL_MS.reset_password / 60_000);
        d.deps.logger.info({ account_id: account.id }, 'dashboard: password reset link sent');
      });
      send(res, 200, forgotPage(view(d, req, res), { email: '', token: tokenFor(req, res), sentTo: email }));
    }),
  );

  const invalidLink = (req: Parameters<typeof view>[1], res: Parameters<typeof view>[2], state_: 'expired' | 'invalid') => {
    const v = view(d, req, res);
    send(
      res,
      state_ === 'expired' ? 410 : 404,
      linkPage(v, {
        title: t(v.lang, state_ === 'expired' ? 'verify.expired.title' : 'link.invalid.title'),
        text: t(v.lang, state_ === 'expired' ? 'reset.expired.text' : 'reset.invalid.text'),
        next: 'forgot',
      }),
    );
  };

  router.get(
    '/password/reset',
    handler(async (req, res) => {
      res.setHeader('Cache-Control', 'no-store');
      const link = await resetLinkAccount(d.prisma, req.query.token, d.now());
      if (link.state !== 'valid') return invalidLink(req, res, link.state);
      send(res, 200, resetPage(view(d, req, res), { email: link.account.email, link: String(req.query.token), token: tokenFor(req, res) }));
    }),
  );

  router.post(
    '/password/reset',
    handler(async (req, res) => {
      const s = state(res);
      const lang = s.lang;
      const link = fieldOf(req, 'token');
      const password = fieldOf(req, 'password');
      res.setHeader('Cache-Control', 'no-store');
      const again = async (status: number, error: string, fresh = false) => {
        const current = await resetLinkAccount(d.prisma, link, d.now());
        if (current.state !== 'valid') return invalidLink(req, res, current.state);
        send(res, status, resetPage(view(d, req, res), { email: current.account.email, link, token: tokenFor(req, res, fresh), error }));
      };
      if (!pageFormValid(d, req, res)) return again(403, t(lang, 'error.csrf.refreshed'), true);
      try {
        const result = await resetPassword(d.prisma, link, password, d.now());
        if (result.state !== 'done') return invalidLink(req, res, result.state);
        d.deps.logger.info({ account_id: result.account.id }, 'dashboard: password reset');
        void d.mail.passwordChanged(result.account, d.now());
        // Every session ended with the reset; this browser starts a fresh one.
        const session = await startSession(d.prisma, result.account.id, d.now());
        setCookie(res, SESSION_COOKIE, session.token, { maxAge: SESSION_TTL_MS / 1000, secure: s.secure, path: cookiePath(req) });
        flash(req, res, 'notice.passwordReset');
        redirect(req, res, '/');
      } catch (err) {
        if (err instanceof PasswordRuleError) {
          return again(422, t(lang, `error.password.${err.problem}`, { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }));
        }
        throw err;
      }
    }),
  );
}
