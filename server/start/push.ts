/**
 * Saved searches and webhooks as the server assembles them: the stores the API's handlers
 * use, and the delivery worker every instance runs (server/webhooks/worker.ts).
 */
import type pg from 'pg';
import { SavedSearchStore } from '../api/saved-searches/store.js';
import { WebhookRequeue } from '../api/webhook-endpoints/requeue.js';
import { WebhookEndpointStore } from '../api/webhook-endpoints/store.js';
import type { AccountMail } from '../mail/account-mail.js';
import type { Logger } from '../platform/logger.js';
import { disabledMail } from '../webhooks/disabled-mail.js';
import { WebhookWorker, type WebhookWorkerOptions } from '../webhooks/worker.js';

export interface PushOptions extends WebhookWorkerOptions {
  /** Run the delivery worker on this instance (default: yes). */
  worker?: boolean;
}

export function pushFeatures(options: PushOptions = {}, pool: pg.Pool, mail: AccountMail, logger: Logger) {
  const allowLoopback = options.allowLoopback ?? process.env.MBOA_WEBHOOKS_ALLOW_LOOPBACK === '1';
  const worker = new WebhookWorker({ pool, logger, onDisabled: disabledMail(pool, mail) }, { ...options, allowLoopback });
  return {
    savedSearches: new SavedSearchStore(pool),
    webhooks: { store: new WebhookEndpointStore(pool), requeue: new WebhookRequeue(pool), allowLoopback },
    worker,
    start: () => options.worker !== false && worker.start(),
    stop: () => worker.stop(),
  };
}
