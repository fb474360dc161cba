/**
 * Key rotation: a new key with the same name, and the old one kept valid for 24 hours
 * (api_keys.expires_at) so deployments can switch over without downtime; the API refuses
 * it after that. Allowed when the plan's key count is reached, since the old key is on
 * its way out; bounded so rotation cannot be used to hold extra keys: a key already being
 * rotated cannot be rotated again, and an account holds at most as many outgoing keys as
 * its plan allows keys.
 */
import { PLANS } from '../../contract/plans.js';
import type { Prisma } from '../platform/db.js';
import { randomId } from '../platform/ids.js';
import { generateApiKey } from './api-keys.js';
import type { Actor } from './plan-rules.js';
import { isKeyActive, lockAccount } from './policy.js';
import { checkCustomerMayChange } from './accounts.js';
import { AccountRuleError } from './errors.js';
import { maxKeysOf } from './keys.js';
import { type KeyView, keyView } from './views.js';

export const ROTATION_GRACE_MS = 24 * 60 * 60 * 1000;

export interface Rotation {
  /** The new key, in full: shown once. */
  key: string;
  keyInfo: KeyView;
  /** The old key, now with its expiry. */
  previous: KeyView;
}

/**
 * Rotates the account's active key `keyId`. Runs in one transaction that locks the
 * account row, like key creation, so concurrent rotations and creations see each other.
 */
export async function rotateKey(
  prisma: Prisma,
  accountId: string,
  keyId: string,
  now = new Date(),
  options: { by?: Actor } = {},
): Promise<Rotation> {
  const expiresAt = new Date(now.getTime() + ROTATION_GRACE_MS);
  return prisma.$transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const account = await tx.account.findUnique({ where: { id: accountId } });
    if (!account) throw new AccountRuleError('account_not_found', 'no such account');
    checkCustomerMayChange(account, options.by ?? 'customer');
    const old = await tx.apiKey.findFirst({ where: { id: keyId, accountId } });
    if (!old || !isKeyActive(old, now)) throw new AccountRuleError('key_not_found', 'no active key with this id');
    if (old.expiresAt !== null) {
      throw new AccountRuleError(
        'already_rotating',
        `key ${old.prefix} is already being replaced and stops working at ${old.expiresAt.toISOString()}; rotate its replacement instead`,
        { reason: 'already_rotating', prefix: old.prefix, expiresAt: old.expiresAt.toISOString() },
      );
    }
    const maxKeys = maxKeysOf(account, old.kind);
    if (maxKeys !== null) {
      const outgoing = await tx.apiKey.findMany({
        where: { accountId, kind: old.kind, revokedAt: null, expiresAt: { gt: now } },
        orderBy: { expiresAt: 'asc' },
      });
      if (outgoing.length >= maxKeys) {
        throw new AccountRuleError(
          'key_limit_reached',
          `the ${PLANS[account.plan].label} plan allows ${maxKeys} key${maxKeys === 1 ? '' : 's'} being replaced at a time; revoke ${outgoing[0].prefix} or wait until ${outgoing[0].expiresAt!.toISOString()}`,
          { reason: 'rotations_in_progress', maxKeys, outgoing: outgoing.map((k) => keyView(k, now)) },
        );
      }
    }
    const generated = generateApiKey(old.kind);
    const previous = await tx.apiKey.update({ where: { id: old.id }, data: { expiresAt } });
    const created = await tx.apiKey.create({
      data: {
        id: randomId('key'),
        accountId,
        name: old.name,
        kind: old.kind,
        hash: generated.hash,
        prefix: generated.prefix,
        createdAt: now,
      },
    });
    return { key: generated.key, keyInfo: keyView(created, now), previous: keyView(previous, now) };
  });
}
