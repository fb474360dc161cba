/** The document's introduction (Markdown): the rules every operation shares, and the known places. */
import { XAF_PER_EUR } from '../currency.js';
import { ERROR_CODES } from '../errors.js';
import { INSTANT_MAX_YEAR, INSTANT_MIN_YEAR } from '../instants.js';
import { CITIES } from '../places.js';
import { PLANS, PLAN_NAMES } from '../plans.js';
import { LIMIT_MAX, TREND_MIN_SAMPLE } from '../schemas.js';
import { VALUATION_BATCH_BODY_BYTES } from '../valuations-batch.js';

function plansTable(): string {
  const n = (v: number | null) => (v === null ? 'unlimited' : v.toLocaleString('en-US'));
  const rows = PLAN_NAMES.map((name) => {
    const p = PLANS[name];
    return `| ${p.label} | ${p.priceXafPerMonth.toLocaleString('en-US')} | ${n(p.monthlyQuota)} | ${p.ratePerMinute === null ? 'unlimited' : `${n(p.ratePerMinute)}/min`} | ${n(p.maxKeys)} |`;
  });
  return ['| Plan | FCFA / month | Calls / month | Rate limit | API keys |', '|---|---|---|---|---|', ...rows].join('\n');
}

function errorsTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, { status, title }]) => `| \`${code}\` | ${status} | ${title} |`);
  return ['| code | status | title |', '|---|---|---|', ...rows].join('\n');
}

/** Every catalog city with its neighbourhoods: the places the API knows out of the box. */
export function placesTable(): string {
  const rows = CITIES.map((c) => `| ${c.name} | ${c.neighborhoods.map((n) => n.name).join(', ')} |`);
  return ['| City | Neighbourhoods |', '|---|---|', ...rows].join('\n');
}

export function apiDescription(): string {
  return [
    'Property listings and market statistics for Cameroon, as JSON over HTTPS; every request carries an `X-API-Key` header. Reads, plus saved searches, webhook endpoints and valuation batches, which are written with a body.',
    '',
    `**Bodies.** JSON with \`Content-Type: application/json\` (a valuation batch takes NDJSON too), at most 16 kB (a batch ${(VALUATION_BATCH_BODY_BYTES / 1024).toLocaleString('en-US')} kB): past it a 413, in another media type a 415. Fields are checked like parameters: an unknown one is refused (400), never ignored.`,
    '',
    '**Envelope.** Every body has a `meta` object with `request_id`, your `quota` after this call and `dataset`. Lists add `total`, `returned`, `limit`, `next_cursor`, `has_more`.',
    '',
    '**Test keys** (`mboa_test_…`) read the fixed public sample, not the market, and are never counted: their answers say `meta.dataset: "sample"` and `X-Mboa-Dataset: sample` (a live key\'s say `live`).',
    '',
    `**Parameters.** Unknown parameters are refused (400) with the closest known name (\`min_prize\`: did you mean \`min_price\`?), so a typo never widens a search. Enum values are read in any case (\`type=Villa\`, \`currency=eur\`); \`purpose\` and \`type\` take several values separated by commas (\`purpose=rent,furnished_rent\`), matching any of them. Whole numbers are written in digits only (\`1000\`, not \`1e3\`, \`+1000\` or \`0x3e8\`). Dates are \`2026-11-01\` (midnight UTC) or timestamps with \`Z\` or an offset from -12:00 to +14:00 (\`2026-11-01T08:30:00+01:00\`), years ${INSTANT_MIN_YEAR} to ${INSTANT_MAX_YEAR}; an impossible day, time or offset is a 400 naming the parameter. Page size: 1 to ${LIMIT_MAX}. Paths take no trailing slash.`,
    '',
    `**Money.** Amounts are whole XAF (Central African CFA franc, no minor unit); rents are per month. With \`currency=EUR\` every amount of the answer is in euros at the fixed parity ${XAF_PER_EUR} XAF = 1 EUR, each converted from its XAF value and rounded half up to the cent; \`currency\` in each object says which. \`min_price\` and \`max_price\` are then whole euros, compared with the EUR price shown. A cursor does not depend on \`currency\`.`,
    '',
    `**Market figures** are precomputed after every data load and periodically (\`as_of\`, \`period_start\`), never computed per call. Every row carries its sample size; percentiles are continuous (interpolated). A trend's change in % is null when either 30-day period has fewer than ${TREND_MIN_SAMPLE} listings.`,
    '',
    '**Quota.** Every 2xx answer but `/ping` counts (a valuation batch once per subject valued); errors are never charged. `/ping` is not counted in the per-minute limit either, nor refused by it: it always shows where you stand. The month is the UTC calendar month. Over the per-minute limit: 429 `rate_limited` with `Retry-After`; over the monthly quota: 429 `quota_exceeded` with `Retry-After` until the reset and `X-Should-Retry: false`.',
    '',
    plansTable(),
    '',
    '**Errors** are RFC 9457 problem details (`application/problem+json`), with a stable `code`:',
    '',
    errorsTable(),
    '',
    '**Places.** `city` and `neighborhood` match without regard to case or accents. Known places are the catalog below, plus any place that partner feeds brought listings for (known from the next market refresh, which follows every load). An unknown name is a 400 `validation_error` whose `errors[].suggestions` lists the closest known names. The same list is in `x-mboa-places` (city → neighbourhoods).',
    '',
    placesTable(),
  ].join('\n');
}
