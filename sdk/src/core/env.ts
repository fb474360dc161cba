/**
 * Environment variables, where there is an environment: Node, Bun and Deno have a
 * `process`, browsers and some edge runtimes do not, and must not crash on import.
 */
export function readEnv(name: string): string | undefined {
  const proc = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  const value = proc?.env?.[name]?.trim();
  return value ? value : undefined;
}

/**
 * Whether this runs in a browser page, where `User-Agent` is the browser's own and
 * setting it would only add a header to CORS preflights.
 */
export function inBrowser(): boolean {
  return typeof (globalThis as { document?: unknown }).document !== 'undefined';
}
