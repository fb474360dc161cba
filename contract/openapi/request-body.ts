/**
 * The `requestBody` of an operation: the route's zod body as the API reads it (input side),
 * with examples the tests validate against that schema and parse with the route's own. A
 * route that takes NDJSON too (`ndjsonField`) documents it as a second media type whose
 * schema, like the exports' answers, describes one line.
 */
import type { AppRoute } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import type { EndpointName } from '../plans.js';
import type { RouteMetadata } from '../router.js';
import { type JsonSchema, toJsonSchema } from './json-schema.js';

type Examples = Record<string, { summary: string; value: unknown }>;

const BONAMOUSSADI_FLATS = {
  city: 'Douala',
  neighborhood: 'Bonamoussadi',
  type: 'apartment',
  purpose: 'rent',
  min_bedrooms: 3,
  max_price: 250000,
};

const SUBJECTS = [
  { city: 'Douala', neighborhood: 'Bonapriso', type: 'villa', purpose: 'sale', surface: 440, bedrooms: 5 },
  { city: 'Yaoundé', near: '3.8667,11.5167', type: 'house', purpose: 'sale', bedrooms: 4 },
  { listing_id: 'lst_8g2kq4m7x9c3v5b1n6d0' },
];

/** Example bodies per endpoint that takes one: every such route needs its own (the build fails without). */
const REQUEST_EXAMPLES: Partial<Record<EndpointName, Examples>> = {
  'saved_searches.create': {
    flats: {
      summary: 'Flats to rent in a quarter, under a price',
      value: { name: '3-bedroom flats under 250,000 XAF in Bonamoussadi', filters: BONAMOUSSADI_FLATS },
    },
    lists: {
      summary: 'Several types, as a JSON array',
      value: {
        name: 'Villas and houses for sale in Bastos',
        filters: { city: 'Yaoundé', neighborhood: 'Bastos', type: ['villa', 'house'], purpose: 'sale' },
      },
    },
  },
  'saved_searches.update': {
    rename: { summary: 'A new name; the filters kept', value: { name: 'Flats to rent, Bonamoussadi' } },
    filters: { summary: 'New filters, replacing the saved ones', value: { filters: { ...BONAMOUSSADI_FLATS, max_price: 300000 } } },
  },
  'webhook_endpoints.create': {
    saved_search: {
      summary: 'New matches of one saved search, and every new listing it matches',
      value: {
        url: 'https://hooks.example.cm/mboa',
        events: ['listing.created', 'saved_search.matched'],
        saved_searches: ['ss_k3m6x2q7a4b2c5d6'],
      },
    },
    all: { summary: 'Every listing removed', value: { url: 'https://hooks.example.cm/mboa/removed', events: ['listing.removed'] } },
  },
  'valuations.batch': {
    three: { summary: 'A quarter, a point, a listing', value: { subjects: SUBJECTS } },
  },
};

/** NDJSON examples: one line each (the media type's schema is a line's). */
const NDJSON_EXAMPLES: Partial<Record<EndpointName, Examples>> = {
  'valuations.batch': { line: { summary: 'One line of the body: a subject, as in `subjects`', value: SUBJECTS[0] } },
};

const isZod = (body: unknown): body is ZodTypeAny => typeof (body as { safeParse?: unknown } | null)?.safeParse === 'function';

/** The schema of one NDJSON line: an item of the array field the lines fill. */
function lineSchema(schema: JsonSchema, field: string): JsonSchema {
  const array = (schema.properties as Record<string, JsonSchema>)[field];
  const description = `Each line of the body is one item of \`${field}\`, which holds: ${String(array.description ?? '')}`;
  return { ...(array.items as JsonSchema), description: description.trim() };
}

function examplesOf(table: Partial<Record<EndpointName, Examples>>, endpoint: EndpointName, what: string): Examples {
  const examples = table[endpoint];
  if (!examples) throw new Error(`${endpoint} takes a body: give it ${what} in contract/openapi/request-body.ts`);
  return examples;
}

/** The operation's `requestBody`, or undefined for a route that reads none (`c.noBody()`). */
export function requestBody(route: AppRoute): JsonSchema | undefined {
  const body = 'body' in route ? (route.body as unknown) : undefined;
  if (!isZod(body)) return undefined;
  const { endpoint, ndjsonField } = route.metadata as RouteMetadata;
  const schema = toJsonSchema(body, 'input');
  const content: Record<string, unknown> = {
    'application/json': { schema, examples: examplesOf(REQUEST_EXAMPLES, endpoint, 'an example') },
  };
  if (ndjsonField) {
    content['application/x-ndjson'] = {
      schema: lineSchema(schema, ndjsonField),
      examples: examplesOf(NDJSON_EXAMPLES, endpoint, 'an NDJSON line example'),
    };
  }
  return { required: true, content };
}
