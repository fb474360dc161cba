/**
 * Accounts, keys, plans and usage: the rules shared by the operator CLI and the customer
 * dashboard. Every function takes the database and plain values, never a request.
 */
import { PLANS, type PlanName } from '../../contract/plans.js';
import type { Prisma } from '../db.js';
import { randomId } from '../ids.js';
import { generateApiKey } from './api-keys.js';
import { monthStart, nextMonthStart } from './quota-month.js';

export type AccountRuleCode =
  | 'email_taken'
  | 'account_not_found'
  | 'key_not_found'
  | 'ambiguous_prefix'
  | 'key_limit_reached'
  | 'too_many_keys_for_plan'
  | 'invalid_input';

/** A refused operation, with a message fit to show the operator or customer as is. */
export class AccountRuleError extends Error {
  constructor(
    readonly code: AccountRuleCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface AccountView {
  id: string;
  email: string;
  company_name: string | null;
  plan: PlanName;
  status: 'active' | 'suspended';
  monthly_quota: number | null;
  rate_limit_per_minute: number | null;
  max_keys: number | null;
  created_at: string;
}

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  active: boolean;
}

type AccountRow = Awaited<ReturnType<Prisma['account']['findUniqueOrThrow']>>;
type KeyRow = Awaited<ReturnType<Prisma['apiKey']['findUniqueOrThrow']>>;

/** The limits in force for an account: its plan's, or its Enterprise contract's overrides. */
export function effectiveLimits(account: Pick<AccountRow, 'plan' | 'monthlyQuotaOverride' | 'rateLimitOverride'>) {
  const plan = PLANS[account.plan];
  return {
    monthlyQuota: account.monthlyQuotaOverride ?? plan.monthlyQuota,
    ratePerMinute: account.rateLimitOverride ?? plan.ratePerMinute,
    maxKeys: plan.maxKeys,
  };
}

export function accountView(a: AccountRow): AccountView {
  const limits = effectiveLimits(a);
  return {
    id: a.id,
    email: a.email,
    company_name: a.companyName,
    plan: a.plan,
    status: a.status,
    monthly_quota: limits.monthlyQuota,
    rate_limit_per_minute: limits.ratePerMinute,
    max_keys: limits.maxKeys,
    created_at: a.createdAt.toISOString(),
  };
}

export function isKeyActive(k: Pick<KeyRow, 'revokedAt' | 'expiresAt'>, now = new Date()): boolean {
  return k.revokedAt === null && (k.expiresAt === null || k.expiresAt > now);
}

export function keyView(k: KeyRow, now = new Date()): KeyView {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    expires_at: k.expiresAt?.toISOString() ?? null,
    active: isKeyActive(k, now),
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 254) throw new AccountRuleError('invalid_input', `not an e-mail address: ${email}`);
  return e;
}

function positiveOrNull(value: number | null | undefined, name: string): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || value < 1) throw new AccountRuleError('invalid_input', `${name} must be a positive integer`);
  return value;
}

export async function findAccountByEmail(prisma: Prisma, email: string): Promise<AccountRow> {
  const account = await prisma.account.findUnique({ where: { email: normalizeEmail(email) } });
  if (!account) throw new AccountRuleError('account_not_found', `no account with e-mail ${email}`);
  return account;
}

/** Creates an account with its first key. The key is in the result, and nowhere else. */
export async function createAccount(
  prisma: Prisma,
  input: {
    email: string;
    plan: PlanName;
    companyName?: string | null;
    passwordHash?: string | null;
    monthlyQuotaOverride?: number | null;
    rateLimitOverride?: number | null;
    keyName?: string;
  },
): Promise<{ account: AccountView; key: string; keyInfo: KeyView }> {
  const email = normalizeEmail(input.email);
  if (!(input.plan in PLANS)) throw new AccountRuleError('invalid_input', `unknown plan ${input.plan}`);
  const monthlyQuotaOverride = positiveOrNull(input.monthlyQuotaOverride, 'monthly quota');
  const rateLimitOverride = positiveOrNull(input.rateLimitOverride, 'rate limit');
  const generated = generateApiKey();
  try {
    return await prisma.$transaction(async (tx) => {
      const account = await tx.account.create({
        data: {
          id: randomId('acc'),
          email,
          companyName: input.companyName ?? null,
          passwordHash: input.passwordHash ?? null,
          plan: input.plan,
          monthlyQuotaOverride,
          rateLimitOverride,
          planChanges: { create: { plan: input.plan } },
        },
      });
      const key = await tx.apiKey.create({
        data: {
          id: randomId('key'),
          accountId: account.id,
          name: input.keyName ?? 'Default key',
          hash: generated.hash,
          prefix: generated.prefix,
        },
      });
      return { account: accountView(account), key: generated.key, keyInfo: keyView(key) };
    });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') {
      throw new AccountRuleError('email_taken', `an account with e-mail ${email} already exists`);
    }
    throw err;
  }
}

/**
 * Creates a key, refused past the plan's key count. The account row is locked for the
 * check, so two concurrent creations cannot both pass it.
 */
export async function createKey(
  prisma: Prisma,
  accountId: string,
  name: string,
  now = new Date(),
): Promise<{ key: string; keyInfo: KeyView }> {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 80) throw new AccountRuleError('invalid_input', 'key name must be 1 to 80 characters');
  const generated = generateApiKey();
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    const account = await tx.account.findUnique({ where: { id: accountId } });
    if (!account) throw new AccountRuleError('account_not_found', 'no such account');
    const { maxKeys } = effectiveLimits(account);
    const active = await countActiveKeys(tx as unknown as Prisma, accountId, now);
    if (maxKeys !== null && active >= maxKeys) {
      throw new AccountRuleError(
        'key_limit_reached',
        `the ${PLANS[account.plan].label} plan allows ${maxKeys} active key${maxKeys === 1 ? '' : 's'}; revoke one or change plan`,
        { maxKeys, active },
      );
    }
    const key = await tx.apiKey.create({
      data: { id: randomId('key'), accountId, name: trimmed, hash: generated.hash, prefix: generated.prefix },
    });
    return { key: generated.key, keyInfo: keyView(key, now) };
  });
}

export async function countActiveKeys(prisma: Prisma, accountId: string, now = new Date()): Promise<number> {
  return prisma.apiKey.count({
    where: { accountId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
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

/**
 * Changes plan at once; the month's count is kept. Refused when the account holds more
 * active keys than the new plan allows, naming them.
 */
export async function changePlan(prisma: Prisma, accountId: string, plan: PlanName, now = new Date()): Promise<AccountView> {
  if (!(plan in PLANS)) throw new AccountRuleError('invalid_input', `unknown plan ${plan}`);
  return prisma.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    const account = await tx.account.findUnique({ where: { id: accountId } });
    if (!account) throw new AccountRuleError('account_not_found', 'no such account');
    if (account.plan === plan) return accountView(account);
    const maxKeys = PLANS[plan].maxKeys;
    const activeKeys = (await tx.apiKey.findMany({ where: { accountId, revokedAt: null }, orderBy: { createdAt: 'asc' } }))
      .filter((k) => isKeyActive(k, now));
    if (maxKeys !== null && activeKeys.length > maxKeys) {
      const excess = activeKeys.length - maxKeys;
      throw new AccountRuleError(
        'too_many_keys_for_plan',
        `the ${PLANS[plan].label} plan allows ${maxKeys} active key${maxKeys === 1 ? '' : 's'} and this account has ${activeKeys.length}: revoke ${excess} first (${activeKeys.map((k) => `${k.prefix} "${k.name}"`).join(', ')})`,
        { maxKeys, activeKeys: activeKeys.map((k) => keyView(k, now)) },
      );
    }
    const updated = await tx.account.update({
      where: { id: accountId },
      data: { plan, planChanges: { create: { plan, changedAt: now } } },
    });
    return accountView(updated);
  });
}

export interface UsageView {
  plan: PlanName;
  month: string;
  used: number;
  limit: number | null;
  remaining: number | null;
  resets_at: string;
}

export async function monthlyUsage(prisma: Prisma, accountId: string, now = new Date()): Promise<UsageView> {
  const account = await prisma.account.findUnique({ where: { id: accountId } });
  if (!account) throw new AccountRuleError('account_not_found', 'no such account');
  const month = monthStart(now);
  const row = await prisma.monthlyUsage.findUnique({ where: { accountId_month: { accountId, month } } });
  const used = row?.used ?? 0;
  const limit = effectiveLimits(account).monthlyQuota;
  return {
    plan: account.plan,
    month: month.toISOString().slice(0, 7),
    used,
    limit,
    remaining: limit === null ? null : Math.max(0, limit - used),
    resets_at: nextMonthStart(now).toISOString(),
  };
}
