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
import { OPERATIONS, TAGS } from './openapi/operations.js';
import { requestBody } from './openapi/request-body.js';
import { errorResponseComponents, errorResponseRefs, HEADERS, successHeaders } from './openapi/responses.js';
import { codeSamples, samplesMarkdown } from './openapi/samples.js';
import { listParamValues } from './params.js';
import { NEIGHBORHOODS_BY_CITY } from './places.js';
import { PLANS } from './plans.js';
import { contract, type RouteMetadata } from './router.js';
import { ZSavedSearch } from './saved-searches.js';
import * as S from './schemas.js';
import { ZWebhookDelivery, ZWebhookEndpoint } from './webhooks.js';

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
  SavedSearch: ZSavedSearch,
  WebhookEndpoint: ZWebhookEndpoint,
  WebhookDelivery: ZWebhookDelivery,
  FieldError: ZFieldError,
  ProblemMeta: ZProblemMeta,
  Problem: ZProblem,
};

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
 * The error statuses a route declares: the contract's common ones and its own (413 and 415
 * of a body, 422 of a valuation). A 404 only where the path names a resource: an unknown
 * path is no operation's.
 */
function errorStatuses(route: AppRoute): number[] {
  const declared = Object.keys(route.responses).map(Number);
  return declared.filter((s) => s >= 400 && (s !== 404 || route.path.includes(':')));
}

/** The route's 2xx: 200, or 201 for what a call creates. */
function successStatus(route: AppRoute): number {
  const status = Object.keys(route.responses)
    .map(Number)
    .find((s) => s >= 200 && s < 300);
  if (status === undefined) throw new Error(`${route.method} ${route.path} declares no 2xx answer`);
  return status;
}

function successDescription(metadata: RouteMetadata, status: number): string {
  const what = status === 201 ? 'Created' : 'Success';
  if (!metadata.counted) return `${what} (not counted).`;
  // A batch is counted per subject valued, not per call (its description says how).
  const counted =
    metadata.endpoint === 'valuations.batch' ? 'one call of your monthly quota per subject valued' : 'one call of your monthly quota';
  return `${what} (${counted}).`;
}

/** One operation of a path item: a route of the contract, with its body, its answers and its samples. */
function operation(route: AppRoute, registry: SchemaRegistry, origin: string): Record<string, unknown> {
  const metadata = route.metadata as RouteMetadata;
  const op = OPERATIONS[metadata.endpoint];
  const samples = codeSamples(metadata.endpoint, route.path, origin);
  const plans = metadata.plans.map((p) => PLANS[p].label).join(', ');
  const status = successStatus(route);
  const success = successContent(route.responses[status], registry);
  const body = requestBody(route);
  return {
    operationId: op.id,
    summary: route.summary,
    description: `${route.description ?? ''}\n\nPlans: ${plans}.${metadata.counted ? '' : ' Never counted in the quota.'}\n\n${samplesMarkdown(samples)}`,
    tags: [op.tag],
    parameters: parameters(route),
    ...(body ? { requestBody: body } : {}),
    responses: {
      [status]: {
        description: successDescription(metadata, status),
        headers: successHeaders(),
        content: {
          [success.mediaType]: { schema: success.schema, examples: SUCCESS_EXAMPLES[metadata.endpoint] },
          // History answers CSV too, on `Accept: text/csv`.
          ...(metadata.endpoint === 'market.history' ? { 'text/csv': { schema: { type: 'string' }, example: HISTORY_CSV_EXAMPLE } } : {}),
        },
      },
      ...errorResponseRefs(errorStatuses(route)),
    },
    'x-mboa-plans': metadata.plans,
    'x-codeSamples': samples,
  };
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

  // Every route of the contract; the methods of one path share its path item.
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const route of routesOf(contract as unknown as Record<string, unknown>)) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operation(route, registry, origin);
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
    'x-mboa-places': NEIGHBORHOODS_BY_CITY,
  };
}
