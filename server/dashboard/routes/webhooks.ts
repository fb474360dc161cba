/**
 * Webhooks: list the account's endpoints, add one (its secret shown once), delete, rotate
 * the secret; per endpoint, its delivery log with "resend" per delivery and "send a test
 * event". The work is the API's (DashboardWebhooks, handed in by the server), so a page and
 * a call never disagree; a refusal is said in the customer's language.
 */
import type { Request, Response, Router } from 'express';
import { PLANS } from '../../../contract/plans.js';
import { EVENT_TYPES, type EventType, WEBHOOK_ENDPOINT_ID } from '../../../contract/webhooks.js';
import { ApiError } from '../../platform/errors.js';
import type { Dashboard } from '../context.js';
import { requireActive, requireCsrf, requireSession } from '../guards.js';
import { t } from '../i18n.js';
import { flash, state } from '../request-state.js';
import { fieldOf, handler, redirect, send, view } from '../respond.js';
import { deliveriesPage } from '../views/webhook-deliveries.js';
import { type WebhookForm, type WebhooksPageModel, webhooksPage } from '../views/webhooks.js';
import type { DashboardWebhooks } from '../webhooks-port.js';

const DELIVERY_ID = /^whd_[a-z2-7]{16}$/;
const EMPTY_FORM: WebhookForm = { url: '', events: [], savedSearches: [], dataset: 'live' };

/** A form field sent any number of times (checkboxes), as strings. */
function fieldsOf(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  const list = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return list.filter((x): x is string => typeof x === 'string');
}

export function webhookRoutes(router: Router, d: Dashboard): void {
  const hooks = (): DashboardWebhooks | undefined => d.deps.webhooks;
  const account = (res: Response) => state(res).session!.account;

  const render = async (req: Request, res: Response, status: number, o: Partial<WebhooksPageModel> = {}) => {
    const w = hooks();
    const a = account(res);
    const [endpoints, savedSearches] = w ? await Promise.all([w.list(a.id), w.savedSearches(a.id)]) : [null, []];
    if (o.reveal) res.setHeader('Cache-Control', 'no-store');
    send(res, status, webhooksPage(view(d, req, res), { plan: a.plan, endpoints, savedSearches, form: EMPTY_FORM, ...o }));
  };

  /** The account's endpoint `id` (any dataset), or null. */
  const endpointOf = async (res: Response, id: string) => {
    const w = hooks();
    if (!w || !WEBHOOK_ENDPOINT_ID.test(id)) return null;
    return (await w.list(account(res).id)).find((e) => e.id === id) ?? null;
  };

  /** The customer's words for the API's refusal. */
  const explain = (res: Response, err: ApiError): string => {
    const lang = state(res).lang;
    const plan = PLANS[account(res).plan];
    if (err.code === 'plan_limit_reached') return t(lang, 'webhooks.error.limit', { plan: plan.label, max: plan.maxWebhookEndpoints });
    if (err.code === 'not_found') return t(lang, 'webhooks.error.notFound');
    if (err.code === 'validation_error' && err.options.errors?.[0]?.path === 'id') return t(lang, 'webhooks.error.disabled');
    if (err.code === 'validation_error' && err.options.errors?.[0]?.path === 'saved_searches') return t(lang, 'webhooks.error.searches');
    return err.detail;
  };

  const deliveriesOf = async (req: Request, res: Response, id: string, status = 200, errors?: { form?: string }) => {
    const endpoint = await endpointOf(res, id);
    if (!endpoint) return render(req, res, 404, { errors: { form: t(state(res).lang, 'webhooks.error.notFound') } });
    const deliveries = await hooks()!.deliveries(account(res).id, endpoint.dataset, endpoint.id);
    send(res, status, deliveriesPage(view(d, req, res), { endpoint, deliveries, errors }));
  };

  router.get(
    '/webhooks',
    requireSession(),
    handler((req, res) => render(req, res, 200)),
  );

  router.post(
    '/webhooks',
    requireSession(),
    requireCsrf(d),
    requireActive(d),
    handler(async (req, res) => {
      const lang = state(res).lang;
      const w = hooks();
      if (!w) return render(req, res, 404);
      const form: WebhookForm = {
        url: fieldOf(req, 'url').trim().slice(0, 2000),
        events: fieldsOf(req, 'events').filter((e) => (EVENT_TYPES as readonly string[]).includes(e)),
        savedSearches: fieldsOf(req, 'saved_searches').slice(0, 100),
        dataset: fieldOf(req, 'dataset') === 'sample' ? 'sample' : 'live',
      };
      const errors: WebhooksPageModel['errors'] = {};
      const refused = form.url ? await w.urlRefusal(form.url) : 'is not a URL';
      if (refused) errors.url = t(lang, 'webhooks.error.url', { reason: refused });
      if (form.events.length === 0) errors.events = t(lang, 'webhooks.error.events');
      if (errors.url || errors.events) return render(req, res, 422, { form, errors });
      try {
        const a = account(res);
        const created = await w.create(a.id, a.plan, form.dataset, {
          url: form.url,
          events: form.events as EventType[],
          savedSearches: form.savedSearches,
        });
        d.deps.logger.info({ account_id: a.id, endpoint_id: created.id }, 'dashboard: webhook endpoint added');
        await render(req, res, 201, {
          reveal: { title: t(lang, 'webhooks.secret.created', { url: created.url }), secret: created.secret },
        });
      } catch (err) {
        if (err instanceof ApiError)
          return render(req, res, err.status === 400 ? 422 : err.status, { form, errors: { form: explain(res, err) } });
        throw err;
      }
    }),
  );

  router.get(
    '/webhooks/:id',
    requireSession(),
    handler((req, res) => deliveriesOf(req, res, req.params.id)),
  );

  router.post(
    '/webhooks/:id/delete',
    requireSession(),
    requireCsrf(d),
    handler(async (req, res) => {
      const endpoint = await endpointOf(res, req.params.id);
      if (!endpoint) return render(req, res, 404, { errors: { form: t(state(res).lang, 'webhooks.error.notFound') } });
      await hooks()!.delete(account(res).id, endpoint.dataset, endpoint.id);
      d.deps.logger.info({ account_id: account(res).id, endpoint_id: endpoint.id }, 'dashboard: webhook endpoint deleted');
      flash(req, res, 'webhooks.notice.deleted', { url: endpoint.url });
      redirect(req, res, '/webhooks');
    }),
  );

  router.post(
    '/webhooks/:id/rotate',
    requireSession(),
    requireCsrf(d),
    requireActive(d),
    handler(async (req, res) => {
      const lang = state(res).lang;
      const endpoint = await endpointOf(res, req.params.id);
      if (!endpoint) return render(req, res, 404, { errors: { form: t(lang, 'webhooks.error.notFound') } });
      const r = await hooks()!.rotate(account(res).id, endpoint.dataset, endpoint.id);
      d.deps.logger.info({ account_id: account(res).id, endpoint_id: endpoint.id }, 'dashboard: webhook secret rotated');
      await render(req, res, 200, {
        reveal: { title: t(lang, 'webhooks.secret.rotated', { url: endpoint.url }), secret: r.secret, previousUntil: r.previousExpiresAt },
      });
    }),
  );

  /** A test event or a resend: limited per account, then back to the log with a notice. */
  const sendFrom = (what: 'test' | 'resend') =>
    handler(async (req, res) => {
      const lang = state(res).lang;
      const endpoint = await endpointOf(res, req.params.id);
      if (!endpoint) return render(req, res, 404, { errors: { form: t(lang, 'webhooks.error.notFound') } });
      const deliveryId = req.params.delivery_id;
      if (what === 'resend' && !DELIVERY_ID.test(deliveryId))
        return deliveriesOf(req, res, endpoint.id, 404, { form: t(lang, 'webhooks.error.notFound') });
      const wait = await d.webhookSends.take(account(res).id);
      if (wait !== null) {
        res.setHeader('Retry-After', String(wait));
        return deliveriesOf(req, res, endpoint.id, 429, { form: t(lang, 'webhooks.error.tests') });
      }
      try {
        const a = account(res);
        if (what === 'test') await hooks()!.sendTest(a.id, endpoint.dataset, endpoint.id);
        else await hooks()!.resend(a.id, endpoint.dataset, endpoint.id, deliveryId);
        flash(req, res, what === 'test' ? 'webhooks.notice.test' : 'webhooks.notice.resent');
        redirect(req, res, `/webhooks/${endpoint.id}`);
      } catch (err) {
        if (err instanceof ApiError)
          return deliveriesOf(req, res, endpoint.id, err.status === 400 ? 409 : err.status, { form: explain(res, err) });
        throw err;
      }
    });

  router.post('/webhooks/:id/test', requireSession(), requireCsrf(d), requireActive(d), sendFrom('test'));
  router.post('/webhooks/:id/deliveries/:delivery_id/resend', requireSession(), requireCsrf(d), requireActive(d), sendFrom('resend'));
}
