import { existsSync, readFileSync } from 'node:fs';

/**
 * The API build version: the root package.json's, found from the sources
 * (`server/platform/version.ts`) and from the compiled build (`dist/server/platform/version.js`)
 * alike.
 */
function readVersion(): string {
  for (const candidate of ['../../package.json', '../../../package.json']) {
    const url = new URL(candidate, import.meta.url);
    if (!existsSync(url)) continue;
    const pkg = JSON.parse(readFileSync(url, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'mboa' && pkg.version) return pkg.version;
  }
  throw new Error('package.json of mboa not found beside the server');
}

export const VERSION: string = readVersion();
