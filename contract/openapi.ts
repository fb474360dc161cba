/** The OpenAPI 3 document, generated from the contract (never written by hand). */
import { generateOpenApi } from '@ts-rest/open-api';
import { ERROR_CODES, ERROR_TYPE_BASE } from './errors.js';
import { PLANS, PLAN_NAMES } from './plans.js';
import { contract, type RouteMetadata } from './router.js';

export function buildOpenApiDocument(options: { version: string; serverUrl?: string }) {
  const plansTable = PLAN_NAMES.map((name) => {
    const p = PLANS[name];
    const n = (v: number | null) => (v === null ? 'unlimited' : v.toLocaleString('en-US'));
    return `| ${p.label} | ${p.priceXafPerMonth.toLocaleString('en-US')} | ${n(p.monthlyQuota)} | ${p.ratePerMinute === null ? 'unlimited' : `${n(p.ratePerMinute)}/min`} | ${n(p.maxKeys)} |`;
  }).join('\n');
  const codes = Object.entries(ERROR_CODES)
    .map(([code, { status, title }]) => `| \`${code}\` | ${status} | ${title} |`)
    .join('\n');

  const document = generateOpenApi(
    contract,
    {
      openapi: '3.0.3',
      info: {
        title: 'Mboa real estate data API',
        version: options.version,
        description: [
          'Property listings and market statistics for Cameroon. Read-only JSON over HTTPS; every request carries an `X-API-Key` header.',
          '',
          '**Envelope.** Every body has a `meta` object with `request_id` and your `quota` after this call. Lists add `total`, `returned`, `limit`, `next_cursor`, `has_more`.',
          '',
          '**Quota.** Every 2xx answer but `/ping` counts; errors are never charged. The month is the UTC calendar month. Over the per-minute limit: 429 `rate_limited` with `Retry-After`; over the monthly quota: 429 `quota_exceeded` with `Retry-After` until the reset and `X-Should-Retry: false`.',
          '',
          '| Plan | FCFA / month | Calls / month | Rate limit | API keys |',
          '|---|---|---|---|---|',
          plansTable,
          '',
          '**Errors** are RFC 9457 problem details (`application/problem+json`), with a stable `code`:',
          '',
          '| code | status | title |',
          '|---|---|---|',
          codes,
        ].join('\n'),
      },
      servers: options.serverUrl ? [{ url: options.serverUrl }] : [],
    },
    {
      setOperationId: true,
      operationMapper: (operation, route) => {
        const metadata = route.metadata as RouteMetadata;
        return {
          ...operation,
          security: [{ ApiKeyAuth: [] }],
          'x-mboa-plans': metadata.plans,
          description: `${operation.description ?? ''}\n\nPlans: ${metadata.plans.map((p) => PLANS[p].label).join(', ')}.`,
        };
      },
    },
  );

  return {
    ...document,
    components: {
      ...document.components,
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'mboa_live_ followed by 32 characters.' },
      },
    },
    externalDocs: { description: 'Error codes', url: ERROR_TYPE_BASE },
  };
}
