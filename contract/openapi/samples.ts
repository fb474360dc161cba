/**
 * A curl and an `@mboa/sdk` sample per operation, shown in the reference (in the
 * operation's description, and as `x-codeSamples` for renderers that read them).
 */
import type { EndpointName } from '../plans.js';
import { PUSH_CALLS } from './push-samples.js';

export interface CodeSample {
  lang: 'Shell' | 'TypeScript';
  label: string;
  source: string;
}

/** The production API, the SDK's default `baseUrl`. */
const PRODUCTION_ORIGIN = 'https://api.mboa.cm';

/** The SDK's setup, naming the server when it is not the production API the SDK calls by default. */
const sdkSetup = (origin: string) =>
  origin === PRODUCTION_ORIGIN
    ? `import { Mboa } from '@mboa/sdk';\n\nconst mboa = new Mboa(); // MBOA_API_KEY from the environment`
    : `import { Mboa } from '@mboa/sdk';\n\nconst mboa = new Mboa({ baseUrl: '${origin}' }); // MBOA_API_KEY from the environment`;

/**
 * A call: its path and query, its SDK code and, for a write, its method and JSON body;
 * `more`: further shell lines (`{url}` stands for the call's address).
 */
interface Call {
  query: string;
  sdk: string;
  method?: 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  more?: string;
}

const CALLS: Partial<Record<EndpointName, Call>> = {
  'listings.search': {
    query: '/api/v1/listings?city=Douala&purpose=sale&type=villa&min_price=100000000&limit=50',
    sdk: `// One page; meta.next_cursor leads to the next
const page = await mboa.listings.search({ city: 'Douala', purpose: 'sale', type: 'villa', min_price: 100_000_000, limit: 50 });
console.log(page.meta.total, page.data.map((l) => l.price));

// Or every page, fetched as the loop goes (one call of the quota per page)
for await (const listing of mboa.listings.search({ city: 'Douala', purpose: 'sale', currency: 'EUR' })) {
  console.log(listing.id, listing.price, listing.currency);
}`,
  },
  'listings.get': {
    query: '/api/v1/listings/lst_8g2kq4m7x9c3v5b1n6d0?currency=EUR',
    sdk: `const { data: listing } = await mboa.listings.get('lst_8g2kq4m7x9c3v5b1n6d0', { currency: 'EUR' });
console.log(listing.price, listing.price_history);`,
  },
  'market.stats': {
    query: '/api/v1/market/stats?city=Douala&neighborhood=Bonamoussadi&purpose=rent&type=apartment&group_by=bedrooms',
    sdk: `const { data } = await mboa.market.stats({ city: 'Douala', neighborhood: 'Bonamoussadi', purpose: 'rent', type: 'apartment', group_by: 'bedrooms' });
for (const row of data) console.log(row.bedrooms, row.sample_size, row.p25_price, row.median_price, row.p75_price);`,
  },
  'market.trends': {
    query: '/api/v1/market/trends?city=Yaounde&neighborhood=Bastos',
    sdk: `const { data } = await mboa.market.trends({ city: 'Yaoundé', neighborhood: 'Bastos' });
for (const row of data) console.log(row.type, row.sample_size, row.previous_sample_size, row.avg_price_change_pct);`,
  },
  'market.history': {
    query: '/api/v1/market/history?city=Douala&neighborhood=Bonamoussadi&purpose=rent&type=apartment&bedrooms=2',
    sdk: `const { data } = await mboa.market.history({ city: 'Douala', neighborhood: 'Bonamoussadi', purpose: 'rent', type: 'apartment', bedrooms: 2 });
for (const p of data) console.log(p.month, p.sample_size, p.median_price, p.median_price_change_pct);`,
  },
  'valuations.get': {
    query: '/api/v1/valuations?city=Douala&neighborhood=Bonapriso&type=villa&purpose=sale&surface=440&bedrooms=5',
    sdk: `const { data } = await mboa.valuations.get({ city: 'Douala', neighborhood: 'Bonapriso', type: 'villa', purpose: 'sale', surface: 440, bedrooms: 5 });
console.log(data.estimate.price, data.estimate.low, data.estimate.high, data.estimate.confidence, data.basis);`,
  },
  'exports.listings': {
    query: '/api/v1/exports/listings?city=Douala&status=any',
    sdk: `// Every Douala listing, removed ones included; resumes by itself after a broken connection
for await (const listing of mboa.exports.listings({ city: 'Douala', status: 'any' })) {
  console.log(JSON.stringify(listing));
}`,
  },
  ping: {
    query: '/api/v1/ping',
    sdk: `const { data, meta } = await mboa.ping(); // never counted
console.log(data.status, meta.quota.remaining);`,
  },
  ...PUSH_CALLS,
};

/** The curl of a call: the key first, then the method and the JSON body of a write. */
function curl(call: Call | undefined, path: string, origin: string): string {
  const url = `${origin}${call?.query ?? path}`;
  const method = call?.method ? ` -X ${call.method}` : '';
  const body = call?.body === undefined ? '' : ` -H "Content-Type: application/json" -d '${JSON.stringify(call.body)}'`;
  const more = call?.more ? `\n${call.more.replaceAll('{url}', url)}` : '';
  return `curl -H "X-API-Key: $MBOA_API_KEY"${method}${body} "${url}"${more}`;
}

/**
 * The samples of one endpoint; `origin` is where curl calls (the document's server when
 * absolute). An endpoint without samples here gets a bare curl of its path (and the
 * reference's test, which wants both samples on every operation, fails until it has them).
 */
export function codeSamples(endpoint: EndpointName, path: string, origin: string): CodeSample[] {
  const call = CALLS[endpoint];
  const shell: CodeSample = { lang: 'Shell', label: 'curl', source: curl(call, path, origin) };
  return call ? [shell, { lang: 'TypeScript', label: '@mboa/sdk', source: `${sdkSetup(origin)}\n\n${call.sdk}` }] : [shell];
}

/** The samples as Markdown, appended to the operation's description. */
export function samplesMarkdown(samples: CodeSample[]): string {
  return samples.map((s) => `**${s.label}**\n\n\`\`\`${s.lang === 'Shell' ? 'sh' : 'ts'}\n${s.source}\n\`\`\``).join('\n\n');
}
