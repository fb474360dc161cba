/**
 * One demo account per plan, so a fresh clone can call the API at once. Demo mode keeps
 * their keys in `<data dir>/demo-keys.json` (only hashes are in the database, so this file
 * is how a restart finds them again); a key that no longer works is replaced. Production
 * never creates them: an operator who wants them runs `npm run admin -- demo`, and a
 * production start warns when the database holds them.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PLAN_NAMES, type PlanName } from '../../contract/plans.js';
import { hashApiKey } from '../accounts/api-keys.js';
import { isKeyActive } from '../accounts/policy.js';
import { createAccount } from '../accounts/accounts.js';
import { createKey } from '../accounts/keys.js';
import { hashPassword, verifyPassword } from '../accounts/passwords.js';
import type pg from 'pg';
import type { Prisma } from '../platform/db.js';

export type DemoKeys = Record<PlanName, string>;

const DEMO_EMAIL = /^demo-(starter|pro|enterprise)@mboa\.cm$/;
export const demoEmail = (plan: PlanName) => `demo-${plan}@mboa.cm`;

export function demoKeysFile(dataDir: string): string {
  return join(dataDir, 'demo-keys.json');
}

export function readDemoKeys(dataDir: string): Partial<DemoKeys> {
  const file = demoKeysFile(dataDir);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoKeys>;
  } catch {
    return {};
  }
}

export function writeDemoKeys(dataDir: string, keys: DemoKeys): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(demoKeysFile(dataDir), `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
}

/** Creates the missing demo accounts and replaces any saved key that no longer works. */
export async function ensureDemoAccounts(prisma: Prisma, saved: Partial<DemoKeys> = {}): Promise<DemoKeys> {
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
  return keys;
}

/** Where demo mode keeps the demo accounts' dashboard password. */
export function demoLoginFile(dataDir: string): string {
  return join(dataDir, 'demo-login.json');
}

/**
 * Demo mode only: one dashboard password for the demo accounts, made at random on the
 * first start and kept in the data folder (`demo-login.json`), so a fresh clone can log in
 * and open the market explorer. Set again when an account lost it.
 */
export async function ensureDemoPassword(prisma: Prisma, dataDir: string): Promise<string> {
  const file = demoLoginFile(dataDir);
  let password: string | undefined;
  try {
    password = (JSON.parse(readFileSync(file, 'utf8')) as { password?: string }).password;
  } catch {
    password = undefined;
  }
  if (!password || password.length < 16) {
    password = randomBytes(12).toString('base64url');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${JSON.stringify({ emails: PLAN_NAMES.map(demoEmail), password }, null, 2)}\n`, { mode: 0o600 });
  }
  for (const plan of PLAN_NAMES) {
    const account = await prisma.account.findUnique({ where: { email: demoEmail(plan) } });
    if (!account || (await verifyPassword(password, account.passwordHash))) continue;
    await prisma.account.update({ where: { id: account.id }, data: { passwordHash: await hashPassword(password) } });
  }
  return password;
}

/**
 * The demo accounts a database holds, with their active keys' prefixes (never the keys).
 * Plain SQL: a production start must not load the ORM for a check (it costs 65 MB of memory
 * that an instance serving only the API never needs).
 */
export async function findDemoAccounts(pool: pg.Pool): Promise<Array<{ email: string; plan: PlanName; activeKeys: string[] }>> {
  const { rows } = await pool.query<{ email: string; plan: PlanName; active_keys: string[] }>(
    `SELECT a.email, a.plan,
            coalesce(array_agg(k.prefix ORDER BY k.prefix) FILTER (WHERE k.id IS NOT NULL), '{}') AS active_keys
     FROM accounts a
     LEFT JOIN api_keys k ON k.account_id = a.id AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
     WHERE a.email LIKE 'demo-%@mboa.cm'
     GROUP BY a.email, a.plan ORDER BY a.email`,
  );
  return rows.filter((r) => DEMO_EMAIL.test(r.email)).map((r) => ({ email: r.email, plan: r.plan, activeKeys: r.active_keys }));
}
