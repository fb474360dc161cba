/** "Contact sales": visitors and customers ask for Enterprise; operators list the requests. */
import type { Router } from 'express';
import { createSalesRequest, SalesRequestError } from '../../accounts/sales.js';
import type { Dashboard } from '../context.js';
import { clientIp, formToken, pageFormValid } from '../guards.js';
import { state } from '../request-state.js';
import { fieldOf, handler, send, view } from '../respond.js';
import { t } from '../i18n.js';
import { type SalesErrors, type SalesForm, salesPage, salesSentPage } from '../views/sales.js';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

export function salesRoutes(router: Router, d: Dashboard): void {
  /** The form's CSRF token: the session's when logged in, else a signed form cookie's. */
  const tokenFor = (req: Parameters<typeof formToken>[1], res: Parameters<typeof formToken>[2], fresh = false) =>
    state(res).session?.csrfToken ?? formToken(d, req, res, fresh);

  router.get(
    '/contact-sales',
    handler((req, res) => {
      const account = state(res).session?.account;
      const form: SalesForm = { company: account?.companyName ?? '', contactName: '', email: account?.email ?? '', phone: '', message: '' };
      send(res, 200, salesPage(view(d, req, res), { form, errors: {}, token: tokenFor(req, res) }));
    }),
  );

  router.post(
    '/contact-sales',
    handler(async (req, res) => {
      const s = state(res);
      const lang = s.lang;
      const clean = (name: string, max: number) => fieldOf(req, name).replace(CONTROL, ' ').trim().slice(0, max);
      const form: SalesForm = {
        company: clean('company', 200),
        contactName: clean('contactName', 200),
        email: clean('email', 300),
        phone: clean('phone', 60),
        message: fieldOf(req, 'message').replace(/\r\n?/g, '\n').replace(CONTROL, ' ').trim().slice(0, 4000),
      };
      const refuse = (status: number, errors: SalesErrors, fresh = false) =>
        send(res, status, salesPage(view(d, req, res), { form, errors, token: tokenFor(req, res, fresh) }));

      if (!pageFormValid(d, req, res)) return refuse(403, { form: t(lang, 'error.csrf.refreshed') }, true);
      const wait = await d.salesLimiter.take(clientIp(req));
      if (wait !== null) {
        res.setHeader('Retry-After', String(wait));
        return refuse(429, { form: t(lang, 'error.sales.limited', { minutes: Math.ceil(wait / 60) }) });
      }
      try {
        const request = await createSalesRequest(d.prisma, { ...form, accountId: s.session?.account.id ?? null });
        d.deps.logger.info({ sales_request: request.id, account_id: request.account_id }, 'dashboard: sales request recorded');
        send(res, 201, salesSentPage(view(d, req, res), { email: request.email }));
      } catch (err) {
        if (!(err instanceof SalesRequestError)) throw err;
        const messages: Record<string, string> = {
          company: t(lang, 'error.company'),
          contactName: t(lang, 'error.contactName'),
          email: t(lang, 'error.email.invalid'),
          phone: t(lang, 'error.phone'),
          message: t(lang, 'error.message'),
        };
        refuse(422, Object.fromEntries(err.fields.map((f) => [f, messages[f]])));
      }
    }),
  );
}
