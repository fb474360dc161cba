/** Account: change the password (the current one required), close the account. */
import type { Request, Response, Router } from 'express';
import { closeAccount, INVOICE_RETENTION_YEARS } from '../../accounts/closure.js';
import { changePassword, PasswordRuleError } from '../../accounts/password-changes.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import { contractInForce } from '../../accounts/plan-rules.js';
import { AccountRuleError } from '../../accounts/errors.js';
import { clearCookie, cookiePath } from '../cookies.js';
import type { Dashboard } from '../context.js';
import { requireCsrf, requireSession } from '../guards.js';
import { flash, state } from '../request-state.js';
import { fieldOf, handler, redirect, send, view } from '../respond.js';
import { t } from '../i18n.js';
import { SESSION_COOKIE } from '../session.js';
import { type AccountPageModel, accountPage, closedPage } from '../views/account.js';

export function accountRoutes(router: Router, d: Dashboard): void {
  const render = (req: Request, res: Response, status: number, m: Omit<AccountPageModel, 'underContract'> = {}) => {
    const account = state(res).session!.account;
    res.setHeader('Cache-Control', 'no-store');
    send(res, status, accountPage(view(d, req, res), { underContract: contractInForce(account, d.now()), ...m }));
  };

  router.get(
    '/account',
    requireSession(),
    handler((req, res) => render(req, res, 200)),
  );

  router.post(
    '/account/password',
    requireSession(),
    requireCsrf(d),
    handler(async (req, res) => {
      const s = state(res);
      const session = s.session!;
      try {
        const changed = await changePassword(d.prisma, {
          accountId: session.account.id,
          current: fieldOf(req, 'current'),
          next: fieldOf(req, 'next'),
          keepSessionId: session.id,
        });
        if (!changed) return render(req, res, 422, { passwordErrors: { current: t(s.lang, 'error.password.current') } });
      } catch (err) {
        if (err instanceof PasswordRuleError) {
          return render(req, res, 422, {
            passwordErrors: { next: t(s.lang, `error.password.${err.problem}`, { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH }) },
          });
        }
        throw err;
      }
      d.deps.logger.info({ account_id: session.account.id }, 'dashboard: password changed');
      void d.mail.passwordChanged(session.account, d.now());
      flash(req, res, 'notice.passwordChanged');
      redirect(req, res, '/account');
    }),
  );

  router.post(
    '/account/close',
    requireSession(),
    requireCsrf(d),
    handler(async (req, res) => {
      const s = state(res);
      const account = s.session!.account;
      try {
        await closeAccount(d.prisma, { accountId: account.id, password: fieldOf(req, 'closePassword') }, d.now());
      } catch (err) {
        if (err instanceof AccountRuleError && err.details.reason === 'wrong_password') {
          return render(req, res, err.status, { closeError: t(s.lang, 'error.close.password') });
        }
        if (err instanceof AccountRuleError && err.code === 'contract_in_force') {
          return render(req, res, err.status, { closeError: t(s.lang, 'account.close.contract') });
        }
        throw err;
      }
      d.deps.logger.info({ account_id: account.id }, 'dashboard: account closed');
      void d.mail.accountClosed(account, d.now(), INVOICE_RETENTION_YEARS);
      clearCookie(res, SESSION_COOKIE, s.secure, cookiePath(req));
      s.session = null;
      res.setHeader('Cache-Control', 'no-store');
      send(res, 200, closedPage(view(d, req, res), { email: account.email }));
    }),
  );
}
