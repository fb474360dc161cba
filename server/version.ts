import { readFileSync } from 'node:fs';

/** The API build version: the root package.json's. */
export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;
