/**
 * Webhook endpoints and the events delivered to them (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`). An endpoint is an https URL on a public
 * address, the event types it wants and, for `saved_search.*`, the saved searches it
 * follows. Its secret (`whsec_…`) is shown once, at creation and at each rotation.
 */
import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { ZDataset } from './dataset.js';
import { ZCollectionMeta, ZSingleMeta } from './meta.js';
import { ZListing } from './schemas.js';

export const EVENT_TYPES = [
  'listing.created',
  'listing.updated',
  'listing.removed',
  'saved_search.matched',
  'saved_search.unmatched',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The event "send a test event" sends (dashboard or `POST …/{id}/test`): never subscribed
 * to, sent to one endpoint once (no retry), with a listing of the public sample
 * (`dataset: sample`) so a receiver can check its parsing and signature end to end.
 */
export const TEST_EVENT_TYPE = 'webhook.test';
/** Every type a delivery may carry: the ones subscribed to and the test event. */
export const SENT_EVENT_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE] as const;
export type SentEventType = (typeof SENT_EVENT_TYPES)[number];

export const WEBHOOK_ENDPOINT_ID = /^we_[a-z2-7]{16}$/;

export const ZWebhookEndpointParams = z.object({
  id: extendApi(z.string().regex(WEBHOOK_ENDPOINT_ID, 'is not a webhook endpoint id (we_ followed by 16 characters)'), {
    description: 'Webhook endpoint identifier.',
    example: 'we_a2b3c4d5e6f7g2h3',
  }),
});

export const ZWebhookDeliveryParams = ZWebhookEndpointParams.extend({
  delivery_id: extendApi(z.string().regex(/^whd_[a-z2-7]{16}$/, 'is not a delivery id (whd_ followed by 16 characters)'), {
    description: 'Delivery identifier, from the delivery log.',
    example: 'whd_a2b3c4d5e6f7g2h3',
  }),
});

export const ZWebhookEndpointCreate = z
  .object({
    url: extendApi(z.string().url('is not a URL').max(2000), {
      description: 'Where events are POSTed: `https`, on a public address (checked at creation and at every delivery).',
      example: 'https://hooks.example.cm/mboa',
    }),
    events: extendApi(z.array(z.enum(EVENT_TYPES)).min(1, 'name at least one event type'), {
      description: 'The event types to receive.',
      example: ['listing.created', 'saved_search.matched'],
    }),
    saved_searches: extendApi(
      z
        .array(z.string().regex(/^ss_[a-z2-7]{16}$/, 'is not a saved search id'))
        .max(100)
        .default([]),
      {
        description:
          "For `listing.*` events: only listings matching one of these saved searches (all listings when empty); for `saved_search.*`: the saved searches followed (all of the account's when empty).",
        example: ['ss_k3m6x2q7a4b2c5d6'],
      },
    ),
  })
  .strict();

export const ZWebhookEndpoint = z.object({
  id: extendApi(z.string(), { description: 'Stable identifier.', example: 'we_a2b3c4d5e6f7g2h3' }),
  url: extendApi(z.string(), { description: 'Where events are sent.', example: 'https://hooks.example.cm/mboa' }),
  events: extendApi(z.array(z.enum(EVENT_TYPES)), { description: 'Event types received.', example: ['listing.created'] }),
  saved_searches: extendApi(z.array(z.string()), { description: 'Saved searches followed.', example: [] }),
  dataset: ZDataset,
  status: extendApi(z.enum(['enabled', 'disabled']), { description: '`disabled` after 3 days of failures or a 410.', example: 'enabled' }),
  disabled_reason: extendApi(z.string().nullable(), { description: 'Why it was disabled.', example: null }),
  created_at: extendApi(z.string().datetime({ offset: true }), { description: 'Creation (UTC).', example: '2026-11-27T10:00:00.000Z' }),
});
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;

const ZSecret = extendApi(z.string(), {
  description: 'The signing secret, shown only here: keep it. After a rotation the previous one stays valid 24 h.',
  example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
});

export const ZWebhookEndpointCreated = z.object({ data: ZWebhookEndpoint.extend({ secret: ZSecret }), meta: ZSingleMeta });
export const ZWebhookEndpointList = z.object({ data: z.array(ZWebhookEndpoint), meta: ZCollectionMeta });
export const ZWebhookEndpointDeleted = z.object({
  data: z.object({ id: z.string(), deleted: z.literal(true) }),
  meta: ZSingleMeta,
});
export const ZWebhookSecretRotated = z.object({
  data: z.object({
    id: z.string(),
    secret: ZSecret,
    previous_secret_expires_at: extendApi(z.string().datetime({ offset: true }), {
      description: 'Until when deliveries are also signed with the previous secret.',
      example: '2026-11-28T10:00:00.000Z',
    }),
  }),
  meta: ZSingleMeta,
});

/** Where a delivery stands; `over_cap` is queued past the plan's monthly cap of deliveries, kept unsent. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'over_cap'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const ZWebhookDelivery = z.object({
  id: extendApi(z.string(), { description: 'The delivery.', example: 'whd_a2b3c4d5e6f7g2h3' }),
  event_id: extendApi(z.string(), { description: 'The `webhook-id` sent: the same on every attempt.', example: 'evt_a2b3c4d5e6f7g2h3' }),
  event_type: z.enum(SENT_EVENT_TYPES),
  status: extendApi(z.enum(DELIVERY_STATUSES), {
    description:
      "`pending` until a 2xx (or the next attempt); `failed` once given up (a test event is tried once); `over_cap` queued past the plan's monthly cap of deliveries: never sent unless resent once the month has room.",
    example: 'delivered',
  }),
  attempts: extendApi(z.number().int(), { description: 'Attempts made.', example: 1 }),
  last_status: extendApi(z.number().int().nullable(), { description: 'HTTP status of the last attempt (null: no answer).', example: 200 }),
  last_error: extendApi(z.string().nullable(), { description: 'Why the last attempt failed.', example: null }),
  latency_ms: extendApi(z.number().int().nullable(), { description: 'Duration of the last attempt.', example: 84 }),
  next_attempt_at: extendApi(z.string().datetime({ offset: true }).nullable(), { description: 'When it is tried next.', example: null }),
  created_at: z.string().datetime({ offset: true }),
  resent_at: extendApi(z.string().datetime({ offset: true }).nullable(), {
    description: 'When it was last sent again on request (its retries count from then); null if never.',
    example: null,
  }),
  body: extendApi(z.string(), { description: 'The JSON body sent.', example: '{"type":"listing.created"}' }),
});

export const ZWebhookDeliveryList = z.object({ data: z.array(ZWebhookDelivery), meta: ZCollectionMeta });
export const ZWebhookDeliveryQueued = z.object({ data: ZWebhookDelivery, meta: ZSingleMeta });

/** What every event carries; `data` depends on the type. */
export const ZWebhookEvent = z.object({
  id: extendApi(z.string(), { description: 'Event id, equal to the `webhook-id` header.', example: 'evt_a2b3c4d5e6f7g2h3' }),
  type: extendApi(z.enum(SENT_EVENT_TYPES), {
    description: 'The event type; `webhook.test` only when a test event was asked for (its listing is from the public sample).',
    example: 'listing.created',
  }),
  sequence: extendApi(z.number().int(), {
    description: 'Increases with each event produced. Deliveries are not promised in order: sort by it.',
    example: 1042,
  }),
  created_at: z.string().datetime({ offset: true }),
  dataset: ZDataset,
  data: z.object({
    listing: ZListing,
    previous: extendApi(ZListing.partial().optional(), {
      description: '`listing.updated`: the old values of the public fields that changed.',
    }),
    saved_search_id: z.string().optional(),
  }),
});
export type TWebhookEvent = z.infer<typeof ZWebhookEvent>;
