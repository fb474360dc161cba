/**
 * The SDK's generated files, formatted as the repository formats code (Prettier), so
 * that a fresh generation equals the committed files byte for byte.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { placesSource } from './emit-places.js';
import { typesSource } from './emit-types.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Where the generated files go, relative to the repository root. */
export const GENERATED_DIR = 'sdk/src/generated';

export interface GeneratedFile {
  /** Relative to the repository root. */
  path: string;
  content: string;
}

async function format(path: string, source: string): Promise<string> {
  const filepath = join(ROOT, path);
  const options = await prettier.resolveConfig(filepath);
  return prettier.format(source, { ...options, filepath });
}

export async function generateSdkFiles(): Promise<GeneratedFile[]> {
  const sources = { [`${GENERATED_DIR}/types.ts`]: typesSource(), [`${GENERATED_DIR}/places.ts`]: placesSource() };
  return Promise.all(Object.entries(sources).map(async ([path, source]) => ({ path, content: await format(path, source) })));
}
