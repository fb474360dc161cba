/**
 * Saved searches and webhooks as the server assembles them: the stores the API's handlers
 * use, the same stores as the dashboard's webhooks page sees them, and the delivery worker
 * every instance runs (server/webhooks/worker.ts).
 */
import type pg from 'pg';
import { WebhookRequeue } from '../api/webhook-endpoints/requeue.js';
import { SavedSearchStore } from '../api/saved-searches/store.js';
import { WebhookEndpointStore } from '../api/webhook-endpoints/store.js';
import type { DashboardWebhooks } from '../dashboard/webhooks-port.js';
import type { AccountMail } from '../mail/account-mail.js';
import type { Logger } from '../platform/logger.js';
import { resolvedRefusal } from '../platform/public-address.js';
import { disabledMail } from '../webhooks/disabled-mail.js';
import { WebhookWorker, type WebhookWorkerOptions } from '../webhooks/worker.js';

export interface PushOptions extends WebhookWorkerOptions {
  /** Run the delivery worker on this instance (default: yes). */
  worker?: boolean;
}

function dashboardWebhooks(
  store: WebhookEndpointStore,
  requeue: WebhookRequeue,
  savedSearches: SavedSearchStore,
  allowLoopback: boolean,
): DashboardWebhooks {
  return {
    list: async (accountId) => [...(await store.list(accountId, 'live')), ...(await store.list(accountId, 'sample'))],
    savedSearches: async (accountId) => {
      const [live, sample] = await Promise.all([savedSearches.list(accountId, 'live'), savedSearches.list(accountId, 'sample')]);
      return [...live, ...sample].map((s) => ({ id: s.id, name: s.name, dataset: s.dataset }));
    },
    urlRefusal: (url) => resolvedRefusal(url, allowLoopback),
    create: (accountId, plan, dataset, e) => store.create(accountId, plan, dataset, e),
    delete: (accountId, dataset, id) => store.delete(accountId, dataset, id),
    rotate: (accountId, dataset, id) => store.rotate(accountId, dataset, id),
    deliveries: (accountId, dataset, id) => store.deliveries(accountId, dataset, id),
    sendTest: (accountId, dataset, id) => requeue.sendTest(accountId, dataset, id),
    resend: (accountId, dataset, id, deliveryId) => requeue.resend(accountId, dataset, id, deliveryId),
  };
}

export function pushFeatures(options: PushOptions = {}, pool: pg.Pool, mail: AccountMail, logger: Logger) {
  const allowLoopback = options.allowLoopback ?? false;
  const worker = new WebhookWorker({ pool, logger, onDisabled: disabledMail(pool, mail) }, { ...options, allowLoopback });
  const store = new WebhookEndpointStore(pool);
  const requeue = new WebhookRequeue(pool);
  const savedSearches = new SavedSearchStore(pool);
  return {
    savedSearches,
    webhooks: { store, requeue, allowLoopback },
    dashboard: dashboardWebhooks(store, requeue, savedSearches, allowLoopback),
    worker,
    start: () => options.worker !== false && worker.start(),
    stop: () => worker.stop(),
  };
}
