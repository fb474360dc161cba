/**
 * The exact API call behind the figures shown, to copy: curl and `@mboa/sdk`, with the
 * prefix of the key the page acts as (the whole key is shown once, when it is made: the
 * customer puts it in place of the prefix).
 */
import type { ExplorerConfig } from '../explorer-config.js';
import { apiPath, type Query } from './api.js';

/** The SDK's default server: no `baseUrl` needed there. */
const PRODUCTION_ORIGIN = 'https://api.mboa.cm';

const keyShown = (config: ExplorerConfig) => `${config.key?.prefix ?? 'mboa_live_'}…`;

export function curlOf(config: ExplorerConfig, path: string, query: Query, accept?: string): string {
  const url = `${config.origin}${apiPath(path, query)}`;
  return `curl -H "X-API-Key: ${keyShown(config)}"${accept ? ` -H "Accept: ${accept}"` : ''} "${url}"`;
}

const literal = (value: string | number) =>
  typeof value === 'number' ? String(value) : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** `const <variable> = await mboa.<call>({ ... });`, its parameters as given, empty ones left out. */
export function sdkCall(variable: string, call: string, query: Query): string {
  const params = Object.entries(query)
    .filter((e): e is [string, string | number] => e[1] !== null && e[1] !== undefined && e[1] !== '')
    .map(([name, value]) => `${name}: ${literal(value)}`)
    .join(', ');
  return `const ${variable} = await mboa.${call}({ ${params} });`;
}

/** The SDK's import and client, naming this server unless it is the production API. */
export function sdkSetup(config: ExplorerConfig): string {
  const options = config.origin === PRODUCTION_ORIGIN ? '' : `, baseUrl: '${config.origin}'`;
  return `import { Mboa } from '@mboa/sdk';\n\nconst mboa = new Mboa({ apiKey: '${keyShown(config)}'${options} });`;
}
