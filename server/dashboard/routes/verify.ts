/** E-mail confirmation: the link from the mail, and a new link on request (limited). */
import type { Router } from 'express';
import { TOKEN_TTL_MS } from '../../accounts/email-tokens.js';
import { confirmEmail, startVerification } from '../../accounts/verification.js';
import type { Dashboard } from '../context.js';
import { requireCsrf, requireSession } from '../guards.js';
import { flash, state } from '../request-state.js';
import { handler, redirect, send, view } from '../respond.js';
import { t } from '../i18n.js';
import { linkPage } from '../views/links.js';
import { cookiePath, setCookie } from '../cookies.js';
import { SESSION_COOKIE, SESSION_TTL_MS, startSession } from '../session.js';

export function verifyRoutes(router: Router, d: Dashboard): void {
  router.get(
    '/verify',
    handler(async (req, res) => {
      const result = await confirmEmail(d.prisma, req.query.token, d.now());
      const v = view(d, req, res);
      res.setHeader('Cache-Control', 'no-store');
      if (result.state === 'confirmed' || result.state === 'already') {
        if (result.state === 'confirmed') {
          d.deps.logger.info({ account_id: result.accountId }, 'dashboard: e-mail confirmed');
          if (v.account?.id === result.accountId) {
            // A session opened before the link was used still says "not confirmed".
            v.account = { ...v.account, emailVerifiedAt: d.now() };
          } else {
            // A new account opens here: sign-up gives no session until its address is confirmed.
            const s = state(res);
            const session = await startSession(d.prisma, result.accountId, d.now());
            setCookie(res, SESSION_COOKIE, session.token, { maxAge: SESSION_TTL_MS / 1000, secure: s.secure, path: cookiePath(req) });
            v.account = session.account;
            v.csrf = session.csrfToken;
          }
        }
        const text = t(v.lang, result.state === 'confirmed' ? 'verify.done.text' : 'verify.already.text');
        return send(
          res,
          200,
          linkPage(v, { title: t(v.lang, 'verify.done.title'), text, next: v.account ? 'home' : 'login', testid: 'verified' }),
        );
      }
      const expired = result.state === 'expired';
      send(
        res,
        expired ? 410 : 404,
        linkPage(v, {
          title: t(v.lang, expired ? 'verify.expired.title' : 'link.invalid.title'),
          text: t(v.lang, expired ? 'verify.expired.text' : 'verify.invalid.text'),
          next: v.account ? 'home' : 'login',
        }),
      );
    }),
  );

  router.post(
    '/verify/resend',
    requireSession(),
    requireCsrf(d),
    handler(async (req, res) => {
      const account = state(res).session!.account;
      if (account.emailVerifiedAt) {
        flash(req, res, 'notice.alreadyVerified');
        return redirect(req, res, '/');
      }
      const wait = await d.resendLimiter.take(account.id);
      if (wait !== null) {
        res.setHeader('Retry-After', String(wait));
        const v = view(d, req, res);
        v.notices.push({ kind: 'error', text: t(v.lang, 'error.verify.limited', { minutes: Math.ceil(wait / 60) }) });
        return send(res, 429, linkPage(v, { title: t(v.lang, 'verify.resend'), text: '', next: 'home' }));
      }
      const token = await startVerification(d.prisma, account.id, d.now());
      await d.mail.verifyEmail(account, token, TOKEN_TTL_MS.verify_email / 3_600_000);
      flash(req, res, 'notice.verificationSent', { email: account.email });
      redirect(req, res, '/');
    }),
  );
}
