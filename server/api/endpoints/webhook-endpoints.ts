/**
 * `/webhook-endpoints`: add (the URL checked: https, public addresses only), list, delete,
 * rotate the secret, read the delivery log, send a test event, send a delivery again. Events and their delivery are
 * `server/webhooks/`'s.
 */
import type { contract } from '../../../contract/router.js';
import { ApiError } from '../../platform/errors.js';
import { resolvedRefusal } from '../../platform/public-address.js';
import { callMeta, type RequestContext } from '../context.js';
import type { RouteHandler } from '../handler.js';
import type { WebhookRequeue } from '../webhook-endpoints/requeue.js';
import type { WebhookEndpointStore } from '../webhook-endpoints/store.js';

type Routes = typeof contract.webhookEndpoints;

const owner = (ctx: RequestContext) => ({ accountId: ctx.caller!.accountId, dataset: ctx.dataset! });

export interface WebhookEndpointDeps {
  store: WebhookEndpointStore;
  /** Test events and deliveries sent again. */
  requeue: WebhookRequeue;
  /** Operator setting (tests, demo): loopback receivers allowed, over http too. */
  allowLoopback: boolean;
}

export function webhookEndpointHandlers(deps: WebhookEndpointDeps): {
  create: RouteHandler<Routes['create']>;
  list: RouteHandler<Routes['list']>;
  delete: RouteHandler<Routes['delete']>;
  rotateSecret: RouteHandler<Routes['rotateSecret']>;
  deliveries: RouteHandler<Routes['deliveries']>;
  test: RouteHandler<Routes['test']>;
  resend: RouteHandler<Routes['resend']>;
} {
  const { store } = deps;
  return {
    create: async ({ body, ctx }) => {
      const refused = await resolvedRefusal(body.url, deps.allowLoopback);
      if (refused) throw new ApiError('validation_error', `url: ${refused}`, { errors: [{ path: 'url', message: refused }] });
      const { accountId, dataset } = owner(ctx);
      const created = await store.create(accountId, ctx.caller!.plan, dataset, {
        url: body.url,
        events: body.events,
        savedSearches: body.saved_searches,
      });
      return { status: 201 as const, body: { data: created, meta: callMeta(ctx) } };
    },
    list: async ({ ctx }) => {
      const { accountId, dataset } = owner(ctx);
      const data = await store.list(accountId, dataset);
      return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...callMeta(ctx) } } };
    },
    delete: async ({ params, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      await store.delete(accountId, dataset, params.id);
      return { status: 200 as const, body: { data: { id: params.id, deleted: true as const }, meta: callMeta(ctx) } };
    },
    rotateSecret: async ({ params, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      const r = await store.rotate(accountId, dataset, params.id);
      return {
        status: 200 as const,
        body: {
          data: { id: params.id, secret: r.secret, previous_secret_expires_at: r.previousExpiresAt.toISOString() },
          meta: callMeta(ctx),
        },
      };
    },
    deliveries: async ({ params, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      const data = await store.deliveries(accountId, dataset, params.id);
      return { status: 200 as const, body: { data, meta: { total: data.length, returned: data.length, ...callMeta(ctx) } } };
    },
    test: async ({ params, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      const data = await deps.requeue.sendTest(accountId, dataset, params.id);
      return { status: 201 as const, body: { data, meta: callMeta(ctx) } };
    },
    resend: async ({ params, ctx }) => {
      const { accountId, dataset } = owner(ctx);
      const data = await deps.requeue.resend(accountId, dataset, params.id, params.delivery_id);
      return { status: 200 as const, body: { data, meta: callMeta(ctx) } };
    },
  };
}
