/** Sign-up, log-in, log-out. */
import type { Request, Response, Router } from 'express';
import { PLAN_NAMES, type PlanName } from '../../../contract/plans.js';
import {
  hashPassword,
  needsRehash,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordProblem,
  verifyPassword,
} from '../../accounts/passwords.js';
import { TOKEN_TTL_MS } from '../../accounts/email-tokens.js';
import { isSelfServe } from '../../accounts/plan-rules.js';
import { startVerification } from '../../accounts/verification.js';
import { createAccount, normalizeEmail } from '../../accounts/accounts.js';
import { createSignupDecoy } from '../../accounts/signup-decoys.js';
import { AccountRuleError } from '../../accounts/errors.js';
import { clearCookie, cookiePath, setCookie } from '../cookies.js';
import type { Dashboard } from '../context.js';
import { clientIp, formToken, formTokenValid, requireCsrf, requireSession, safeNext } from '../guards.js';
import { flash, state } from '../request-state.js';
import { fieldOf, handler, redirect, send, view } from '../respond.js';
import { FORM_COOKIE } from '../form-tokens.js';
import { t } from '../i18n.js';
import { endSession, SESSION_COOKIE, SESSION_TTL_MS, startSession } from '../session.js';
import type { Recipient } from '../../mail/account-mail.js';
import { loginPage, type SignupErrors, type SignupForm, signupPage, welcomePage } from '../views/auth.js';

const isPlan = (v: unknown): v is PlanName => typeof v === 'string' && (PLAN_NAMES as readonly string[]).includes(v);
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;
/** A sign-up's answer leaves at least this long after its password is taken in (hashing takes ~0.1 s). */
const SIGNUP_ANSWER_FLOOR_MS = 400;
const untilTime = async (at: number) => {
  const wait = at - performance.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
};

export function authRoutes(router: Router, d: Dashboard): void {
  const logger = d.deps.logger;

  router.get(
    '/signup',
    handler((req, res) => {
      if (state(res).session) return redirect(req, res, '/');
      const plan = isPlan(req.query.plan) && isSelfServe(req.query.plan) ? req.query.plan : null;
      const v = view(d, req, res);
      send(res, 200, signupPage(v, { form: { company: '', email: '', plan }, errors: {}, formToken: formToken(d, req, res) }));
    }),
  );

  router.post(
    '/signup',
    handler(async (req, res) => {
      const s = state(res);
      // Already signed up and in (e.g. the welcome page reloaded): nothing to create.
      if (s.session) return redirect(req, res, '/');
      const lang = s.lang;
      const form: SignupForm = {
        company: fieldOf(req, 'company').replace(CONTROL, ' ').trim().slice(0, 200),
        email: fieldOf(req, 'email').trim().slice(0, 300),
        plan: isPlan(fieldOf(req, 'plan')) ? (fieldOf(req, 'plan') as PlanName) : null,
      };
      const password = fieldOf(req, 'password');
      const refuse = (status: number, errors: SignupErrors, fresh = false) =>
        send(res, status, signupPage(view(d, req, res), { form, errors, formToken: formToken(d, req, res, fresh) }));

      if (!formTokenValid(d, req, res)) return refuse(403, { form: t(lang, 'error.csrf.refreshed') }, true);

      const errors: SignupErrors = {};
      if (!form.company || form.company.length > 120) errors.company = t(lang, 'error.company');
      let email = '';
      try {
        email = normalizeEmail(form.email);
      } catch {
        errors.email = t(lang, 'error.email.invalid');
      }
      const problem = passwordProblem(password, { email: email || form.email });
      if (problem) errors.password = t(lang, `error.password.${problem}`, { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });
      if (!form.plan) errors.plan = t(lang, 'error.plan');
      else if (!isSelfServe(form.plan)) errors.plan = t(lang, 'error.plan.contract');
      if (Object.keys(errors).length > 0) return refuse(422, errors);

      const wait = await d.signupLimiter.attempt(email, clientIp(req));
      if (wait !== null) {
        logger.warn({ ip: clientIp(req), domain: email.split('@')[1] }, 'dashboard: sign-ups limited');
        res.setHeader('Retry-After', String(wait));
        return refuse(429, { form: t(lang, 'error.signup.limited', { minutes: Math.ceil(wait / 60) }) });
      }

      // Both answers below (a new account, a taken address) leave no sooner than this: the
      // work that differs between them (the account's rows) cannot be timed from outside.
      const answerAt = performance.now() + SIGNUP_ANSWER_FLOOR_MS;
      const plan = form.plan!;
      const passwordHash = await hashPassword(password);
      let created;
      try {
        created = await createAccount(d.prisma, {
          email,
          plan,
          companyName: form.company,
          passwordHash,
          keyName: t(lang, 'signup.firstKeyName'),
          language: lang,
          emailVerified: false,
        });
      } catch (err) {
        if (!(err instanceof AccountRuleError && err.code === 'email_taken')) throw err;
        // The address has an account (open or closed): the answer is a new account's, its
        // owner is told by mail, after the answer. Nothing says which addresses exist, not
        // even the key shown: the API answers it as an unconfirmed account's (signup-decoys.ts).
        d.afterAnswer('sign-up attempt mail', async () => {
          const owner = await d.prisma.account.findUnique({ where: { email } });
          if (!owner) return;
          // An owner who never confirmed (the first mail lost) gets a new link instead.
          if (!owner.emailVerifiedAt && !owner.closedAt) await sendConfirmation(owner, true);
          else await d.mail.signupAttempt(owner);
        });
        logger.info({ domain: email.split('@')[1] }, 'dashboard: sign-up with a taken address');
        const decoy = await createSignupDecoy(d.prisma, plan);
        await untilTime(answerAt);
        return welcome(req, res, { company: form.company, plan, email, key: decoy });
      }
      // The key works once the address is confirmed: the link goes out after the answer.
      const account = { id: created.account.id, email, language: lang, companyName: null };
      d.afterAnswer('confirmation mail', () => sendConfirmation(account, false));
      logger.info({ account_id: created.account.id, plan }, 'dashboard: account created');
      await untilTime(answerAt);
      welcome(req, res, { company: form.company, plan, email, key: created.key });
    }),
  );

  /**
   * A confirmation link to an account's address; `limited`: at most as often as the
   * resend limit allows (a link asked for again by signing up or logging in).
   */
  async function sendConfirmation(account: Recipient, limited: boolean): Promise<void> {
    if (limited && (await d.resendLimiter.take(account.id)) !== null) return;
    const link = await startVerification(d.prisma, account.id, d.now());
    await d.mail.verifyEmail(account, link, TOKEN_TTL_MS.verify_email / 3_600_000);
  }

  /**
   * The welcome page with the first key. No session: the account opens with its
   * confirmation link, so an address that already has an account gets the very same
   * answer (a decoy key that the API answers as a new account's unconfirmed key) and no
   * page after it differs.
   */
  function welcome(req: Request, res: Response, o: { company: string; plan: PlanName; email: string; key: string }): void {
    const s = state(res);
    clearCookie(res, FORM_COOKIE, s.secure, cookiePath(req));
    // The page shows the first key once: nothing of it may be cached.
    res.setHeader('Cache-Control', 'no-store');
    send(res, 201, welcomePage(view(d, req, res), { company: o.company, plan: o.plan, key: o.key, email: o.email }));
  }

  router.get(
    '/login',
    handler((req, res) => {
      const next = safeNext(req.query.next);
      if (state(res).session) return redirect(req, res, next);
      const v = view(d, req, res);
      if (req.query.next !== undefined && next !== '/') v.notices.push({ kind: 'info', text: t(v.lang, 'login.needed') });
      send(res, 200, loginPage(v, { email: '', next, formToken: formToken(d, req, res) }));
    }),
  );

  router.post(
    '/login',
    handler(async (req, res) => {
      const s = state(res);
      const lang = s.lang;
      const given = fieldOf(req, 'email').trim().slice(0, 300);
      const password = fieldOf(req, 'password');
      const next = safeNext(fieldOf(req, 'next'));
      const refuse = (status: number, error: string, fresh = false) =>
        send(res, status, loginPage(view(d, req, res), { email: given, next, error, formToken: formToken(d, req, res, fresh) }));

      if (!formTokenValid(d, req, res)) return refuse(403, t(lang, 'error.csrf.refreshed'), true);
      let email: string;
      try {
        email = normalizeEmail(given);
      } catch {
        return refuse(422, t(lang, 'error.email.invalid'));
      }
      if (!password) return refuse(422, t(lang, 'error.password.missing'));
      if (password.length > PASSWORD_MAX_LENGTH * 4) return refuse(422, t(lang, 'error.login.wrong'));

      // Counted before the password is checked: parallel guesses cannot outrun the limit.
      const ip = clientIp(req);
      const wait = await d.loginLimiter.attempt(email, ip);
      if (wait !== null) {
        logger.warn({ ip }, 'dashboard: log-in attempts limited');
        res.setHeader('Retry-After', String(wait));
        return refuse(429, t(lang, 'error.login.limited', { minutes: Math.ceil(wait / 60) }));
      }

      const found = await d.prisma.account.findUnique({ where: { email } });
      const account = found?.closedAt ? null : found;
      // Always hash, so an unknown address takes as long as a wrong password.
      const ok = await verifyPassword(password, account?.passwordHash);
      if (!account || !ok) {
        logger.info({ account_id: account?.id ?? null }, 'dashboard: log-in refused');
        return refuse(422, t(lang, 'error.login.wrong'));
      }
      if (!account.emailVerifiedAt) {
        // Not confirmed yet: the same refusal as a wrong password (a sign-up with a taken
        // address must not learn it here), and a new link in the mailbox, after the answer.
        logger.info({ account_id: account.id }, 'dashboard: log-in before confirmation');
        d.afterAnswer('confirmation mail', () => sendConfirmation(account, true));
        return refuse(422, t(lang, 'error.login.wrong'));
      }
      await d.loginLimiter.succeeded(email, ip);
      if (needsRehash(account.passwordHash!)) {
        await d.prisma.account.update({ where: { id: account.id }, data: { passwordHash: await hashPassword(password) } });
      }
      const session = await startSession(d.prisma, account.id, d.now());
      setCookie(res, SESSION_COOKIE, session.token, { maxAge: SESSION_TTL_MS / 1000, secure: s.secure, path: cookiePath(req) });
      clearCookie(res, FORM_COOKIE, s.secure, cookiePath(req));
      logger.info({ account_id: account.id }, 'dashboard: logged in');
      redirect(req, res, next);
    }),
  );

  router.post(
    '/logout',
    requireSession(),
    requireCsrf(d),
    handler(async (req, res) => {
      const s = state(res);
      await endSession(d.prisma, s.cookies[SESSION_COOKIE]);
      clearCookie(res, SESSION_COOKIE, s.secure, cookiePath(req));
      flash(req, res, 'notice.loggedOut');
      redirect(req, res, '/login');
    }),
  );
}
