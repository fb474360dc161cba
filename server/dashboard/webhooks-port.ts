/**
 * What the webhooks page needs of the webhook endpoints, handed in by the server
 * (start/push.ts builds it from the API's stores), so the dashboard imports nothing of
 * `api/` or `webhooks/`. Refusals are the API's (`ApiError` with its code and detail).
 */
import type { PlanName } from '../../contract/plans.js';
import type { DeliveryStatus, EventType, SentEventType, TWebhookEndpoint } from '../../contract/webhooks.js';

export type WebhookDataset = 'live' | 'sample';

export interface DeliveryLine {
  id: string;
  event_id: string;
  event_type: SentEventType;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  latency_ms: number | null;
  next_attempt_at: string | null;
  created_at: string;
  resent_at: string | null;
  body: string;
}

export interface DashboardWebhooks {
  /** The account's endpoints, both datasets. */
  list(accountId: string): Promise<TWebhookEndpoint[]>;
  /** The account's saved searches, to follow (both datasets). */
  savedSearches(accountId: string): Promise<Array<{ id: string; name: string; dataset: WebhookDataset }>>;
  /** Why this URL may not receive events (https, public addresses), or null. */
  urlRefusal(url: string): Promise<string | null>;
  create(
    accountId: string,
    plan: PlanName,
    dataset: WebhookDataset,
    e: { url: string; events: EventType[]; savedSearches: string[] },
  ): Promise<TWebhookEndpoint & { secret: string }>;
  delete(accountId: string, dataset: WebhookDataset, id: string): Promise<void>;
  rotate(accountId: string, dataset: WebhookDataset, id: string): Promise<{ secret: string; previousExpiresAt: Date }>;
  deliveries(accountId: string, dataset: WebhookDataset, id: string): Promise<DeliveryLine[]>;
  sendTest(accountId: string, dataset: WebhookDataset, id: string): Promise<DeliveryLine>;
  resend(accountId: string, dataset: WebhookDataset, id: string, deliveryId: string): Promise<DeliveryLine>;
}
