/**
 * One demo account per plan, so a fresh clone can call the API at once. Their keys are
 * written to `<data dir>/demo-keys.json` (only hashes are in the database, so this file
 * is how a restart finds them again); a key that no longer works is replaced.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLAN_NAMES, type PlanName } from '../contract/plans.js';
import { hashApiKey } from './accounts/api-keys.js';
import { createAccount, createKey, isKeyActive } from './accounts/service.js';
import type { Prisma } from './db.js';

export type DemoKeys = Record<PlanName, string>;

export const demoEmail = (plan: PlanName) => `demo-${plan}@mboa.cm`;

export function demoKeysFile(dataDir: string): string {
  return join(dataDir, 'demo-keys.json');
}

function readSaved(file: string): Partial<DemoKeys> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoKeys>;
  } catch {
    return {};
  }
}

export async function ensureDemoAccounts(prisma: Prisma, dataDir: string): Promise<DemoKeys> {
  const file = demoKeysFile(dataDir);
  const saved = readSaved(file);
  const keys = {} as DemoKeys;
  for (const plan of PLAN_NAMES) {
    const email = demoEmail(plan);
    const account = await prisma.account.findUnique({ where: { email } });
    if (!account) {
      const created = await createAccount(prisma, { email, plan, companyName: `Mboa demo (${plan})`, keyName: 'Demo key' });
      keys[plan] = created.key;
      continue;
    }
    const savedKey = saved[plan];
    const stored = savedKey ? await prisma.apiKey.findUnique({ where: { hash: hashApiKey(savedKey) } }) : null;
    if (savedKey && stored && stored.accountId === account.id && isKeyActive(stored)) {
      keys[plan] = savedKey;
      continue;
    }
    // The saved key is lost or dead: retire the demo account's keys and issue a new one.
    await prisma.apiKey.updateMany({ where: { accountId: account.id, revokedAt: null }, data: { revokedAt: new Date() } });
    await prisma.account.update({ where: { id: account.id }, data: { plan, status: 'active' } });
    keys[plan] = (await createKey(prisma, account.id, 'Demo key')).key;
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  return keys;
}
