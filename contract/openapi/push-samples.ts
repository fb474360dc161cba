/**
 * The calls the samples of saved searches, webhook endpoints and valuation batches show:
 * the request (method, path, body) for curl and the `@mboa/sdk` code, compiled by the
 * reference's test against the SDK as it is.
 */
import type { EndpointName } from '../plans.js';

const SS = 'ss_k3m6x2q7a4b2c5d6';
const WE = 'we_a2b3c4d5e6f7g2h3';

export const PUSH_CALLS: Partial<
  Record<EndpointName, { query: string; sdk: string; method?: 'POST' | 'PATCH' | 'DELETE'; body?: unknown; more?: string }>
> = {
  'saved_searches.create': {
    method: 'POST',
    query: '/api/v1/saved-searches',
    body: {
      name: '3-bedroom flats under 250,000 XAF in Bonamoussadi',
      filters: { city: 'Douala', neighborhood: 'Bonamoussadi', type: 'apartment', purpose: 'rent', min_bedrooms: 3, max_price: 250000 },
    },
    sdk: `const { data } = await mboa.savedSearches.create({
  name: '3-bedroom flats under 250,000 XAF in Bonamoussadi',
  filters: { city: 'Douala', neighborhood: 'Bonamoussadi', type: 'apartment', purpose: 'rent', min_bedrooms: 3, max_price: 250_000 },
});
console.log(data.id, data.filters);`,
  },
  'saved_searches.list': {
    query: '/api/v1/saved-searches',
    sdk: `const { data } = await mboa.savedSearches.list();
for (const search of data) console.log(search.id, search.name, search.filters);`,
  },
  'saved_searches.get': {
    query: `/api/v1/saved-searches/${SS}`,
    sdk: `const { data } = await mboa.savedSearches.get('${SS}');
console.log(data.name, data.filters);`,
  },
  'saved_searches.update': {
    method: 'PATCH',
    query: `/api/v1/saved-searches/${SS}`,
    body: { name: 'Flats to rent, Bonamoussadi' },
    sdk: `const { data } = await mboa.savedSearches.update('${SS}', { name: 'Flats to rent, Bonamoussadi' });
console.log(data.name, data.updated_at);`,
  },
  'saved_searches.delete': {
    method: 'DELETE',
    query: `/api/v1/saved-searches/${SS}`,
    sdk: `const { data } = await mboa.savedSearches.delete('${SS}');
console.log(data.deleted);`,
  },
  'saved_searches.listings': {
    query: `/api/v1/saved-searches/${SS}/listings?limit=50`,
    sdk: `const page = await mboa.savedSearches.listings('${SS}', { limit: 50 });
console.log(page.meta.total, page.data.map((l) => l.price));`,
  },
  'webhook_endpoints.create': {
    method: 'POST',
    query: '/api/v1/webhook-endpoints',
    body: { url: 'https://hooks.example.cm/mboa', events: ['listing.created', 'saved_search.matched'], saved_searches: [SS] },
    sdk: `const { data } = await mboa.webhookEndpoints.create({
  url: 'https://hooks.example.cm/mboa',
  events: ['listing.created', 'saved_search.matched'],
  saved_searches: ['${SS}'],
});
console.log(data.id, data.secret); // keep the secret: it is shown only here`,
  },
  'webhook_endpoints.list': {
    query: '/api/v1/webhook-endpoints',
    sdk: `const { data } = await mboa.webhookEndpoints.list();
for (const endpoint of data) console.log(endpoint.id, endpoint.url, endpoint.status, endpoint.events);`,
  },
  'webhook_endpoints.delete': {
    method: 'DELETE',
    query: `/api/v1/webhook-endpoints/${WE}`,
    sdk: `const { data } = await mboa.webhookEndpoints.delete('${WE}');
console.log(data.deleted);`,
  },
  'webhook_endpoints.rotate_secret': {
    method: 'POST',
    query: `/api/v1/webhook-endpoints/${WE}/rotate-secret`,
    sdk: `const { data } = await mboa.webhookEndpoints.rotateSecret('${WE}');
console.log(data.secret, data.previous_secret_expires_at); // both secrets sign until then`,
  },
  'webhook_endpoints.deliveries': {
    query: `/api/v1/webhook-endpoints/${WE}/deliveries`,
    sdk: `const { data } = await mboa.webhookEndpoints.deliveries('${WE}');
for (const d of data) console.log(d.created_at, d.event_type, d.status, d.attempts, d.last_status);`,
  },
  'webhook_endpoints.test': {
    method: 'POST',
    query: `/api/v1/webhook-endpoints/${WE}/test`,
    sdk: `const { data } = await mboa.webhookEndpoints.test('${WE}');
console.log(data.id, data.status); // pending: the delivery log shows its result a moment later`,
  },
  'webhook_endpoints.resend': {
    method: 'POST',
    query: `/api/v1/webhook-endpoints/${WE}/deliveries/whd_b3c4d5e6f7g2h3a2/resend`,
    sdk: `// Every delivery given up, sent again
const { data: log } = await mboa.webhookEndpoints.deliveries('${WE}');
for (const d of log.filter((d) => d.status === 'failed')) await mboa.webhookEndpoints.resend('${WE}', d.id);`,
  },
  'valuations.batch': {
    method: 'POST',
    query: '/api/v1/valuations/batch',
    body: {
      subjects: [
        { city: 'Douala', neighborhood: 'Bonapriso', type: 'villa', purpose: 'sale', surface: 440, bedrooms: 5 },
        { listing_id: 'lst_8g2kq4m7x9c3v5b1n6d0' },
      ],
    },
    more: '# or NDJSON, one subject per line\ncurl -H "X-API-Key: $MBOA_API_KEY" -X POST -H "Content-Type: application/x-ndjson" --data-binary @subjects.ndjson "{url}"',
    sdk: `// Any number of subjects: the SDK sends them 1,000 at a time
const { data, valued } = await mboa.valuations.batch([
  { city: 'Douala', neighborhood: 'Bonapriso', type: 'villa', purpose: 'sale', surface: 440, bedrooms: 5 },
  { listing_id: 'lst_8g2kq4m7x9c3v5b1n6d0' },
]);
for (const item of data) console.log(item.index, 'data' in item ? item.data.estimate.price : item.error.code);
console.log(valued); // the calls counted`,
  },
};
