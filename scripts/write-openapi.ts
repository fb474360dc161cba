/**
 * Writes the OpenAPI document as the server serves it (with MBOA_PUBLIC_URL as its server
 * when set), for `npm run lint:openapi` and for publishing:
 *
 *   npx tsx scripts/write-openapi.ts [dist/openapi.json]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildOpenApiDocument } from '../contract/openapi.js';
import { ConfigError, loadConfig } from '../server/platform/config.js';
import { VERSION } from '../server/platform/version.js';

try {
  const out = resolve(process.argv[2] ?? 'dist/openapi.json');
  const document = buildOpenApiDocument({ version: VERSION, serverUrl: loadConfig(process.env, { secrets: 'optional' }).publicUrl });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(document, null, 2)}\n`);
  console.log(`wrote ${out}`);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : `cannot write the OpenAPI document: ${(err as Error).message}`);
  process.exit(2);
}
