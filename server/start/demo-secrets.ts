/**
 * Demo mode's secrets: made at random on the first start and kept in the data folder
 * (`secrets.json`, readable by its owner only), so cursors and dashboard forms survive a
 * restart. Production never comes here: its secrets come from the environment only.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from '../platform/config.js';

const FILE = 'secrets.json';

function readSaved(file: string): Partial<Record<keyof Secrets, string>> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<keyof Secrets, string>>;
  } catch {
    return {};
  }
}

/** The environment's secrets where given, the data folder's (made now if absent) otherwise. */
export function demoSecrets(dataDir: string, fromEnv: Partial<Secrets>): Secrets {
  const file = join(dataDir, FILE);
  const saved = readSaved(file);
  const made = {
    cursor: saved.cursor ?? randomBytes(32).toString('base64url'),
    dashboard: saved.dashboard ?? randomBytes(32).toString('base64url'),
  };
  if (made.cursor !== saved.cursor || made.dashboard !== saved.dashboard) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify(made, null, 2)}\n`, { mode: 0o600 });
  }
  return { cursor: fromEnv.cursor ?? [made.cursor], dashboard: fromEnv.dashboard ?? [made.dashboard] };
}
