/**
 * The dashboard's static files (one stylesheet, one script, and the market explorer's
 * built script and stylesheet), read once at start-up with a
 * short content hash: pages link them as `?v=<hash>`, so browsers may cache them for good.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';

export interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

export function asset(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  return { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 10) };
}

/**
 * A file the explorer's build writes (scripts/build-explorer.mjs, run by `npm install` and
 * `npm run build`), or null when it is not built: the market page then says so.
 */
export function builtAsset(file: string, type: string): Asset | null {
  const url = new URL(`./explorer/dist/${file}`, import.meta.url);
  if (!existsSync(url)) return null;
  const body = readFileSync(url);
  return { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 10) };
}
