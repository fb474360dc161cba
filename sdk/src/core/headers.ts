/**
 * The headers of each request: the client's own (key, Accept, User-Agent), then the
 * `defaultHeaders` of the client, then the `headers` of the call. Checked once, when
 * given, so a mistake shows at construction rather than as a puzzling 401 later.
 */
import { MboaError } from './errors.js';
import { inBrowser } from './env.js';
import { VERSION } from '../version.js';

/**
 * Extra request headers. A `null` value removes a header set at a lower level (a
 * client's default header, for one call); `undefined` is ignored.
 */
export type ExtraHeaders = Record<string, string | null | undefined>;

/** Who calls the API, added to the `User-Agent` after the SDK's own name and version. */
export interface AppInfo {
  /** Your application's name, a single token such as `loan-valuer` (letters, digits, `.-_~+`). */
  name: string;
  /** Its version, such as `1.2.0`. Optional. */
  version?: string | undefined;
}

/** The API key has its own option; a header of the same name would silently replace it. */
const RESERVED = new Set(['x-api-key']);
/** RFC 9110 token characters, which product names and versions in a User-Agent are made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII and spaces, what every HTTP stack accepts in a header value. */
const VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Checks headers given as an option (`where` names it in the message) and returns a copy.
 * `code`: `configuration_error` for the client's options, `invalid_argument` for a call's.
 */
export function checkHeaders(headers: unknown, where: string, code: 'configuration_error' | 'invalid_argument'): ExtraHeaders {
  if (headers === undefined) return {};
  if (headers === null || typeof headers !== 'object' || Array.isArray(headers)) {
    throw new MboaError(`${where} must be an object of header names to string values.`, { code });
  }
  const checked: ExtraHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) {
      throw new MboaError(`${where}: "${name}" is not a valid header name.`, { code });
    }
    if (RESERVED.has(name.toLowerCase())) {
      throw new MboaError(`${where} cannot set ${name}: pass the key as \`apiKey\` (or MBOA_API_KEY).`, { code });
    }
    if (value !== null && value !== undefined && (typeof value !== 'string' || !VALUE.test(value))) {
      throw new MboaError(`${where}: the value of ${name} must be a string of printable ASCII characters.`, { code });
    }
    checked[name] = value as string | null | undefined;
  }
  return checked;
}

/** `mboa-sdk-js/0.1.0`, then `name/version` of the application when given. */
export function userAgent(app: AppInfo | undefined): string {
  const sdk = `mboa-sdk-js/${VERSION}`;
  if (app === undefined) return sdk;
  if (!app || typeof app !== 'object' || typeof app.name !== 'string' || !TOKEN.test(app.name)) {
    throw new MboaError('appInfo.name must be one word of letters, digits or .-_~+ (such as "loan-valuer").', {
      code: 'configuration_error',
    });
  }
  if (app.version !== undefined && (typeof app.version !== 'string' || !TOKEN.test(app.version))) {
    throw new MboaError('appInfo.version must be one word such as "1.2.0".', { code: 'configuration_error' });
  }
  return `${sdk} ${app.name}${app.version ? `/${app.version}` : ''}`;
}

/**
 * The headers sent: the client's own, overridden by the defaults, overridden by the
 * call's, case-insensitively (`user-agent` replaces `User-Agent`), nulls removed.
 */
export function requestHeaders(apiKey: string, accept: string, agent: string, ...layers: ExtraHeaders[]): Record<string, string> {
  const merged = new Map<string, [string, string]>();
  const set = (name: string, value: string | null | undefined) => {
    if (value === undefined) return;
    if (value === null) merged.delete(name.toLowerCase());
    else merged.set(name.toLowerCase(), [name, value]);
  };
  set('Accept', accept);
  // A browser sends its own User-Agent; setting one would only add it to CORS preflights.
  if (!inBrowser()) set('User-Agent', agent);
  for (const layer of layers) for (const [name, value] of Object.entries(layer)) set(name, value);
  // Last, so no layer can drop or replace it.
  set('X-API-Key', apiKey);
  return Object.fromEntries([...merged.values()]);
}
