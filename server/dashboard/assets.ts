/**
 * The dashboard's static files (one stylesheet, one script), read once at start-up with a
 * short content hash: pages link them as `?v=<hash>`, so browsers may cache them for good.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface Asset {
  body: Buffer;
  type: string;
  version: string;
}

export function asset(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  return { body, type, version: createHash('sha256').update(body).digest('hex').slice(0, 10) };
}
