/** The routes of webhook endpoints (`/webhook-endpoints`), declared apart from router.ts to keep it readable. */
import { type AppRoute, ContractNoBody } from '@ts-rest/core';
import { ZProblem } from './errors.js';
import type { EndpointName } from './plans.js';
import {
  ZWebhookDeliveryList,
  ZWebhookDeliveryParams,
  ZWebhookDeliveryQueued,
  ZWebhookEndpointCreate,
  ZWebhookEndpointCreated,
  ZWebhookEndpointDeleted,
  ZWebhookEndpointList,
  ZWebhookEndpointParams,
  ZWebhookSecretRotated,
} from './webhooks.js';

const PLANS_NOTE = 'Pro and Enterprise; the number of endpoints an account may keep is set by its plan (`plan_limit_reached` beyond).';

export function webhookEndpointRoutes<M>(meta: (endpoint: EndpointName) => M) {
  return {
    create: {
      method: 'POST',
      path: '/webhook-endpoints',
      body: ZWebhookEndpointCreate,
      responses: { 201: ZWebhookEndpointCreated, 413: ZProblem, 415: ZProblem },
      summary: 'Add a webhook endpoint',
      description: `Events of the types named are POSTed to \`url\`, signed (Standard Webhooks). The URL must be \`https\` and resolve to public addresses only (no loopback, private, link-local or metadata ranges); redirects are not followed. The answer holds the secret, shown once. ${PLANS_NOTE}`,
      metadata: meta('webhook_endpoints.create'),
    },
    list: {
      method: 'GET',
      path: '/webhook-endpoints',
      responses: { 200: ZWebhookEndpointList },
      summary: 'List webhook endpoints',
      description: `The account's endpoints for the key's dataset. ${PLANS_NOTE}`,
      metadata: meta('webhook_endpoints.list'),
    },
    delete: {
      method: 'DELETE',
      path: '/webhook-endpoints/:id',
      pathParams: ZWebhookEndpointParams,
      responses: { 200: ZWebhookEndpointDeleted },
      summary: 'Delete a webhook endpoint',
      description: `Its pending deliveries are dropped. ${PLANS_NOTE}`,
      metadata: meta('webhook_endpoints.delete'),
    },
    rotateSecret: {
      method: 'POST',
      path: '/webhook-endpoints/:id/rotate-secret',
      pathParams: ZWebhookEndpointParams,
      body: ContractNoBody,
      responses: { 200: ZWebhookSecretRotated },
      summary: 'Rotate the signing secret',
      description: `A new secret, shown once; for 24 h every delivery carries a signature by each secret. ${PLANS_NOTE}`,
      metadata: meta('webhook_endpoints.rotate_secret'),
    },
    deliveries: {
      method: 'GET',
      path: '/webhook-endpoints/:id/deliveries',
      pathParams: ZWebhookEndpointParams,
      responses: { 200: ZWebhookDeliveryList },
      summary: 'Delivery log of an endpoint',
      description: `The last 100 deliveries, newest first: status, attempts, latency, the body sent. ${PLANS_NOTE}`,
      metadata: meta('webhook_endpoints.deliveries'),
    },
    test: {
      method: 'POST',
      path: '/webhook-endpoints/:id/test',
      pathParams: ZWebhookEndpointParams,
      body: ContractNoBody,
      responses: { 201: ZWebhookDeliveryQueued },
      summary: 'Send a test event',
      description: `Queues a signed \`webhook.test\` event to this endpoint only, carrying a listing of the public sample (\`dataset: sample\`): the answer is its delivery, \`pending\` until the worker sends it (within a second or so); read the result in the delivery log. Tried once, never retried; a 410 disables the endpoint as for any event. Not counted in the monthly deliveries. A disabled endpoint is refused (400). ${PLANS_NOTE}`,
      metadata: meta('webhook_endpoints.test'),
    },
    resend: {
      method: 'POST',
      path: '/webhook-endpoints/:id/deliveries/:delivery_id/resend',
      pathParams: ZWebhookDeliveryParams,
      body: ContractNoBody,
      responses: { 200: ZWebhookDeliveryQueued },
      summary: 'Send a delivery again',
      description: `Queues the same event again, with the same \`webhook-id\` and body (receivers that dedupe on it see a duplicate), signed afresh; retries count from now. A delivery being sent at this moment is left to finish. Not counted again in the monthly deliveries. A disabled endpoint is refused (400). ${PLANS_NOTE}`,
      metadata: meta('webhook_endpoints.resend'),
    },
  } as const satisfies Record<string, AppRoute>;
}
