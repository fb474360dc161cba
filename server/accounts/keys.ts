/**
 * An account's API keys: creation within the plan's count (test keys apart), listing,
 * revocation by display prefix. Rotation is in rotation.ts.
 */
import { PLANS, TEST_KEYS } from '../../contract/plans.js';
import type { Prisma } from '../platform/db.js';
import { randomId } from '../platform/ids.js';
import { checkCustomerMayChange } from './accounts.js';
import { generateApiKey, type KeyKind } from './api-keys.js';
import { AccountRuleError } from './errors.js';
import { lockAccount } from './policy.js';
import type { Actor } from './plan-rules.js';
import { type AccountRow, type KeyView, keyView } from './views.js';

/**
 * Creates a key, refused past the plan's key count. The account row is locked for the
 * check, so two concurrent creations cannot both pass it.
 */
export async function createKey(
  prisma: Prisma,
  accountId: string,
  name: string,
  now = new Date(),
  options: { by?: Actor; kind?: KeyKind } = {},
): Promise<{ key: string; keyInfo: KeyView }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 80) throw new AccountRuleError('invalid_input', 'key name must be 1 to 80 characters');
  const kind = options.kind ?? 'live';
  const generated = generateApiKey(kind);
  return prisma.$transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const account = await tx.account.findUnique({ where: { id: accountId } });
    if (!account) throw new AccountRuleError('account_not_found', 'no such account');
    checkCustomerMayChange(account, options.by ?? 'customer');
    const maxKeys = maxKeysOf(account, kind);
    const active = await countActiveKeys(tx as unknown as Prisma, accountId, now, kind);
    if (maxKeys !== null && active >= maxKeys) {
      throw new AccountRuleError(
        'key_limit_reached',
        kind === 'test'
          ? `an account holds at most ${maxKeys} active test keys; revoke one first`
          : `the ${PLANS[account.plan].label} plan allows ${maxKeys} active key${maxKeys === 1 ? '' : 's'}; revoke one or change plan`,
        { maxKeys, active, kind },
      );
    }
    const key = await tx.apiKey.create({
      data: { id: randomId('key'), accountId, name: trimmed, kind, hash: generated.hash, prefix: generated.prefix },
    });
    return { key: generated.key, keyInfo: keyView(key, now) };
  });
}

/**
 * Test keys give no data and no quota, so they do not count towards the plan's key limit;
 * every account may hold a few of them, whatever its plan.
 */
export const TEST_KEYS_PER_ACCOUNT = TEST_KEYS.perAccount;

/** How many active keys of a kind the account may hold (null: no limit). */
export function maxKeysOf(account: Pick<AccountRow, 'plan'>, kind: KeyKind): number | null {
  return kind === 'test' ? TEST_KEYS_PER_ACCOUNT : PLANS[account.plan].maxKeys;
}

/** Active keys of a kind (live by default: the ones the plan's limit counts). */
export async function countActiveKeys(prisma: Prisma, accountId: string, now = new Date(), kind: KeyKind = 'live'): Promise<number> {
  return prisma.apiKey.count({
    where: { accountId, kind, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
  });
}

export async function listKeys(prisma: Prisma, accountId: string, now = new Date()): Promise<KeyView[]> {
  const keys = await prisma.apiKey.findMany({ where: { accountId }, orderBy: { createdAt: 'asc' } });
  return keys.map((k) => keyView(k, now));
}

/** Revokes the account's key whose display prefix starts with `prefix`. */
export async function revokeKey(prisma: Prisma, accountId: string, prefix: string): Promise<KeyView> {
  const p = prefix.trim();
  if (p.length < 4) throw new AccountRuleError('invalid_input', 'give at least 4 characters of the key prefix');
  const matches = await prisma.apiKey.findMany({
    where: { accountId, revokedAt: null, OR: [{ prefix: { startsWith: p } }, { id: p }] },
  });
  if (matches.length === 0) throw new AccountRuleError('key_not_found', `no active key with prefix ${p}`);
  if (matches.length > 1) {
    throw new AccountRuleError('ambiguous_prefix', `${matches.length} keys start with ${p}: give more characters`);
  }
  const key = await prisma.apiKey.update({ where: { id: matches[0].id }, data: { revokedAt: new Date() } });
  return keyView(key);
}
