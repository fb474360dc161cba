/**
 * The OpenAPI 3 document, generated from the contract (never written by hand): every
 * route's parameters from its zod query, named component schemas, problem+json errors,
 * every response header, examples on every response, a curl and an SDK sample per
 * operation. `npm run lint:openapi` holds it to Redocly's recommended rules.
 */
import type { AppRoute } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { ERROR_TYPE_BASE, ZFieldError, ZProblem, ZProblemMeta } from './errors.js';
import { ZHistoryPoint, ZHistoryResponse } from './history.js';
import { apiDescription } from './openapi/description.js';
import { SUCCESS_EXAMPLES } from './openapi/examples.js';
import { HISTORY_CSV_EXAMPLE } from './openapi/history-example.js';
import { type JsonSchema, SchemaRegistry, toJsonSchema } from './openapi/json-schema.js';
import { errorResponseComponents, errorResponseRefs, HEADERS, successHeaders } from './openapi/responses.js';
import { codeSamples, samplesMarkdown } from './openapi/samples.js';
import { listParamValues } from './params.js';
import { NEIGHBOURHOODS_BY_CITY } from './places.js';
import { type EndpointName, PLANS } from './plans.js';
import { contract, type RouteMetadata } from './router.js';
import * as S from './schemas.js';

/** Every schema the document names, as `#/components/schemas/<name>`. */
const NAMED_SCHEMAS: Record<string, ZodTypeAny> = {
  PropertyType: S.ZPropertyType,
  Purpose: S.ZPurpose,
  ListingStatus: S.ZListingStatus,
  Currency: S.ZCurrency,
  Listing: S.ZListing,
  PriceChange: S.ZPriceChange,
  ListingDetail: S.ZListingDetail,
  Quota: S.ZQuota,
  SingleMeta: S.ZSingleMeta,
  PageMeta: S.ZPageMeta,
  CollectionMeta: S.ZCollectionMeta,
  MarketStat: S.ZMarketStat,
  MarketTrend: S.ZMarketTrend,
  MarketHistoryPoint: ZHistoryPoint,
  Ping: S.ZPing,
  ListingsPage: S.ZListingsPage,
  ListingResponse: S.ZListingResponse,
  MarketStatsResponse: S.ZStatsResponse,
  MarketTrendsResponse: S.ZTrendsResponse,
  MarketHistoryResponse: ZHistoryResponse,
  PingResponse: S.ZPingResponse,
  FieldError: ZFieldError,
  ProblemMeta: ZProblemMeta,
  Problem: ZProblem,
};

/** Operation ids and tags per endpoint; an endpoint missing here gets a derived id. */
const OPERATIONS: Partial<Record<EndpointName, { id: string; tag: string }>> = {
  'listings.search': { id: 'searchListings', tag: 'Listings' },
  'listings.get': { id: 'getListing', tag: 'Listings' },
  'market.stats': { id: 'getMarketStats', tag: 'Market' },
  'market.trends': { id: 'getMarketTrends', tag: 'Market' },
  'market.history': { id: 'getMarketHistory', tag: 'Market' },
  'exports.listings': { id: 'exportListings', tag: 'Exports' },
  'valuations.get': { id: 'getValuation', tag: 'Valuations' },
  ping: { id: 'ping', tag: 'Status' },
};

const TAGS = [
  {
    name: 'Listings',
    description: 'Search property listings with filters and cursor pagination; read one listing with its price history.',
  },
  { name: 'Market', description: 'Precomputed market figures: statistics per city or neighbourhood, and 30-day trends.' },
  { name: 'Exports', description: 'Bulk copies of the listings as NDJSON, resumable (Enterprise).' },
  {
    name: 'Valuations',
    description:
      'Estimates of a property’s asking price or rent from comparable adverts, with a calibrated range (Enterprise). Basis: asking prices; Mboa sees adverts, not deeds. Accuracy measured on held-out adverts: docs/valuations.md.',
  },
  { name: 'Status', description: 'Health of the API and your remaining quota, never counted.' },
];

/** Where curl samples point when the document's server is relative and no origin is given. */
const LOCAL_ORIGIN = 'http://localhost:3000';

/**
 * The optional parameters "Try it out" fills in with their example: together a first call
 * that answers something. The others show their example in their description instead, so
 * that the form as first shown is a valid, useful request (no placeholder cursor, no
 * euros for amounts written in francs, no filters that together match nothing).
 */
const FIRST_CALL = new Set(['city', 'purpose', 'type', 'limit']);

function routesOf(router: Record<string, unknown>): AppRoute[] {
  return Object.values(router).flatMap((node) =>
    node && typeof node === 'object' && 'method' in node && 'path' in node ? [node as AppRoute] : routesOf(node as Record<string, unknown>),
  );
}

/** The object schema under refinements (`.superRefine()` wraps it in effects). */
function objectShape(schema: unknown): Record<string, ZodTypeAny> {
  let s = schema as { _def: { typeName: string; schema?: unknown }; shape?: Record<string, ZodTypeAny> } | undefined;
  while (s && s._def.typeName === 'ZodEffects') s = s._def.schema as typeof s;
  return s?.shape ?? {};
}

function parameters(route: AppRoute): JsonSchema[] {
  const list: JsonSchema[] = [];
  const add = (where: 'path' | 'query', shape: Record<string, ZodTypeAny>) => {
    for (const [name, field] of Object.entries(shape)) {
      const { description: text, example: given, ...generated } = toJsonSchema(field, 'input');
      const shown = where === 'path' || !field.isOptional() || FIRST_CALL.has(name);
      const example = shown ? given : undefined;
      const description = shown || given === undefined ? text : `${String(text ?? '')} Example: \`${String(given)}\`.`.trim();
      // A list (`purpose=sale,rent`): an array written as one parameter with commas.
      const values = listParamValues(field);
      const schema = values ? { type: 'array', items: { type: 'string', enum: [...values] }, minItems: 1 } : generated;
      list.push({
        name,
        in: where,
        ...(where === 'path' || !field.isOptional() ? { required: true } : {}),
        ...(description ? { description } : {}),
        ...(values ? { style: 'form', explode: false } : {}),
        schema,
        ...(example !== undefined ? { example: values ? String(example).split(',') : example } : {}),
      });
    }
  };
  if ('pathParams' in route) add('path', objectShape(route.pathParams));
  if ('query' in route) add('query', objectShape(route.query));
  return list;
}

/** A 2xx body: JSON from its zod schema, or another media type (`c.otherResponse`, e.g. an NDJSON export). */
function successContent(response: unknown, registry: SchemaRegistry): { mediaType: string; schema: JsonSchema } {
  if (response && typeof response === 'object' && 'contentType' in response) {
    const other = response as { contentType: string; body: unknown };
    const schema =
      other.body && typeof other.body === 'object' && '_def' in other.body ? toJsonSchema(other.body as ZodTypeAny) : { type: 'string' };
    return { mediaType: other.contentType, schema: registry.reference(schema) };
  }
  return { mediaType: 'application/json', schema: registry.reference(toJsonSchema(response as ZodTypeAny)) };
}

/**
 * `serverUrl`: the public address (MBOA_PUBLIC_URL), the document's server. Without it the
 * server is relative (`/`), and `sampleOrigin`, the address the document is served from,
 * is where its samples call.
 */
export function buildOpenApiDocument(options: { version: string; serverUrl?: string; sampleOrigin?: string }) {
  const registry = new SchemaRegistry(NAMED_SCHEMAS);
  const absolute = options.serverUrl !== undefined && /^https?:\/\//.test(options.serverUrl);
  const origin = absolute ? options.serverUrl!.replace(/\/+$/, '') : (options.sampleOrigin ?? LOCAL_ORIGIN);

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routesOf(contract as unknown as Record<string, unknown>)) {
    const metadata = route.metadata as RouteMetadata;
    // The document describes the GET reads; saved searches, webhook endpoints and the valuation
    // batch (POST bodies) are described in docs/api.md for now.
    if (route.method !== 'GET') continue;
    if (route.path.startsWith('/api/v1/saved-searches') || route.path.startsWith('/api/v1/webhook-endpoints')) continue;
    const op = OPERATIONS[metadata.endpoint] ?? {
      id: metadata.endpoint.replace(/\.(\w)/g, (_, c: string) => c.toUpperCase()),
      tag: 'Listings',
    };
    const samples = codeSamples(metadata.endpoint, route.path, origin);
    const plans = metadata.plans.map((p) => PLANS[p].label).join(', ');
    const success = successContent(route.responses[200], registry);
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    paths[path] = {
      get: {
        operationId: op.id,
        summary: route.summary,
        description: `${route.description ?? ''}\n\nPlans: ${plans}.${metadata.counted ? '' : ' Never counted in the quota.'}\n\n${samplesMarkdown(samples)}`,
        tags: [op.tag],
        parameters: parameters(route),
        responses: {
          200: {
            description: metadata.counted ? 'Success (one call of your monthly quota).' : 'Success (not counted).',
            headers: successHeaders(),
            content: {
              [success.mediaType]: { schema: success.schema, examples: SUCCESS_EXAMPLES[metadata.endpoint] },
              // History answers CSV too, on `Accept: text/csv`.
              ...(metadata.endpoint === 'market.history'
                ? { 'text/csv': { schema: { type: 'string' }, example: HISTORY_CSV_EXAMPLE } }
                : {}),
            },
          },
          ...errorResponseRefs([400, 401, 403, ...(path.includes('{id}') ? [404] : []), 405, 429, 500, 503]),
        },
        'x-mboa-plans': metadata.plans,
        'x-codeSamples': samples,
      },
    };
  }

  return {
    openapi: '3.0.3',
    info: {
      title: 'Mboa real estate data API',
      version: options.version,
      description: apiDescription(),
      contact: { name: 'Mboa support', url: 'https://docs.mboa.cm/support', email: 'support@mboa.cm' },
      license: { name: 'Proprietary: use under the Mboa terms of service', url: 'https://docs.mboa.cm/terms' },
    },
    servers: [
      absolute
        ? { url: origin, description: 'Mboa API' }
        : { url: '/', description: 'This server (set MBOA_PUBLIC_URL to publish its public address)' },
    ],
    security: [{ ApiKeyAuth: [] }],
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        ApiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: '`mboa_live_` followed by 32 characters, from the dashboard.',
        },
      },
      schemas: registry.components(),
      responses: errorResponseComponents(registry.ref('Problem')),
      headers: HEADERS,
    },
    externalDocs: { description: 'Error codes', url: ERROR_TYPE_BASE },
    'x-mboa-places': NEIGHBOURHOODS_BY_CITY,
  };
}
