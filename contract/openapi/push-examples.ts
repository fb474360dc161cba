/**
 * The OpenAPI document's example answers of saved searches and webhook endpoints (the
 * tests parse every one with the route's own response schema).
 */
import type { z } from 'zod';
import type { TSavedSearch } from '../saved-searches.js';
import type { TSingleMeta } from '../meta.js';
import type { TWebhookEndpoint, ZWebhookDelivery } from '../webhooks.js';

type Examples = Record<string, Record<string, { summary: string; value: unknown }>>;
type Delivery = z.infer<typeof ZWebhookDelivery>;

const SAVED: TSavedSearch = {
  id: 'ss_k3m6x2q7a4b2c5d6',
  name: '3-bedroom flats under 250,000 XAF in Bonamoussadi',
  filters: { city: 'Douala', neighborhood: 'Bonamoussadi', type: 'apartment', purpose: 'rent', min_bedrooms: '3', max_price: '250000' },
  dataset: 'live',
  created_at: '2026-11-27T10:00:00.000Z',
  updated_at: '2026-11-27T10:00:00.000Z',
};

const ENDPOINT: TWebhookEndpoint = {
  id: 'we_a2b3c4d5e6f7g2h3',
  url: 'https://hooks.example.cm/mboa',
  events: ['listing.created', 'saved_search.matched'],
  saved_searches: ['ss_k3m6x2q7a4b2c5d6'],
  dataset: 'live',
  status: 'enabled',
  disabled_reason: null,
  created_at: '2026-11-27T10:05:00.000Z',
};

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const DELIVERED: Delivery = {
  id: 'whd_a2b3c4d5e6f7g2h3',
  event_id: 'evt_a2b3c4d5e6f7g2h3',
  event_type: 'saved_search.matched',
  status: 'delivered',
  attempts: 1,
  last_status: 200,
  last_error: null,
  latency_ms: 84,
  next_attempt_at: null,
  created_at: '2026-11-27T11:00:02.000Z',
  resent_at: null,
  body: '{"id":"evt_a2b3c4d5e6f7g2h3","type":"saved_search.matched","sequence":1042}',
};

const FAILED: Delivery = {
  ...DELIVERED,
  id: 'whd_b3c4d5e6f7g2h3a2',
  event_id: 'evt_b3c4d5e6f7g2h3a2',
  event_type: 'listing.created',
  status: 'failed',
  attempts: 8,
  last_status: 503,
  last_error: 'HTTP 503',
  latency_ms: 1210,
  created_at: '2026-11-24T08:00:00.000Z',
  body: '{"id":"evt_b3c4d5e6f7g2h3a2","type":"listing.created","sequence":988}',
};

/** A delivery just queued: by a test event, or by a resend of the failed one. */
const queued = (d: Delivery, at: string, resent: boolean): Delivery => ({
  ...d,
  status: 'pending',
  next_attempt_at: at,
  ...(resent ? { resent_at: at } : { attempts: 0, last_status: null, last_error: null, latency_ms: null, created_at: at }),
});

const TEST_DELIVERY = queued(
  {
    ...DELIVERED,
    id: 'whd_c4d5e6f7g2h3a2b3',
    event_id: 'evt_c4d5e6f7g2h3a2b3',
    event_type: 'webhook.test',
    body: '{"id":"evt_c4d5e6f7g2h3a2b3","type":"webhook.test","sequence":0,"dataset":"sample"}',
  },
  '2026-11-27T11:30:00.000Z',
  false,
);

export function pushExamples(meta: TSingleMeta, listingsPage: unknown): Examples {
  const collection = (n: number) => ({ total: n, returned: n, ...meta });
  return {
    'saved_searches.create': { created: { summary: 'The saved search, with its id', value: { data: SAVED, meta } } },
    'saved_searches.list': {
      one: { summary: 'The account’s saved searches, oldest first', value: { data: [SAVED], meta: collection(1) } },
    },
    'saved_searches.get': { one: { summary: 'One saved search', value: { data: SAVED, meta } } },
    'saved_searches.update': {
      renamed: {
        summary: 'Renamed; its filters kept',
        value: { data: { ...SAVED, name: 'Flats to rent, Bonamoussadi', updated_at: '2026-11-28T09:00:00.000Z' }, meta },
      },
    },
    'saved_searches.delete': { deleted: { summary: 'Deleted', value: { data: { id: SAVED.id, deleted: true }, meta } } },
    'saved_searches.listings': { page: { summary: 'A page of the listings it matches now', value: listingsPage } },
    'webhook_endpoints.create': {
      created: { summary: 'The endpoint, with its secret (shown only here)', value: { data: { ...ENDPOINT, secret: SECRET }, meta } },
    },
    'webhook_endpoints.list': {
      one: { summary: 'The account’s endpoints (secrets never listed)', value: { data: [ENDPOINT], meta: collection(1) } },
    },
    'webhook_endpoints.delete': { deleted: { summary: 'Deleted', value: { data: { id: ENDPOINT.id, deleted: true }, meta } } },
    'webhook_endpoints.rotate_secret': {
      rotated: {
        summary: 'The new secret; the previous one still signs for 24 h',
        value: {
          data: {
            id: ENDPOINT.id,
            secret: 'whsec_Q2x7TnVbK9mLp4RsW8yZc3Hd6Fj1Ga5E',
            previous_secret_expires_at: '2026-11-28T12:00:00.000Z',
          },
          meta,
        },
      },
    },
    'webhook_endpoints.deliveries': {
      log: { summary: 'One delivery delivered, an older one given up', value: { data: [DELIVERED, FAILED], meta: collection(2) } },
    },
    'webhook_endpoints.test': { queued: { summary: 'The test event’s delivery, queued', value: { data: TEST_DELIVERY, meta } } },
    'webhook_endpoints.resend': {
      queued: { summary: 'The failed delivery, due again now', value: { data: queued(FAILED, '2026-11-27T11:40:00.000Z', true), meta } },
    },
  };
}
