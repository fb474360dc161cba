/**
 * Creating and finding accounts, and the rule every change to one obeys. An account is
 * created with its first key, in one transaction.
 */
import { PLANS, type PlanName } from '../../contract/plans.js';
import type { Prisma } from '../platform/db.js';
import { randomId } from '../platform/ids.js';
import { generateApiKey } from './api-keys.js';
import { AccountRuleError } from './errors.js';
import type { Actor } from './plan-rules.js';
import { isoDay } from './policy.js';
import { type AccountRow, type AccountView, accountView, type KeyView, keyView } from './views.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 254) throw new AccountRuleError('invalid_input', `not an e-mail address: ${email}`);
  return e;
}

export function positiveOrNull(value: number | null | undefined, name: string): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value) || value < 1) throw new AccountRuleError('invalid_input', `${name} must be a positive integer`);
  return value;
}

export async function findAccountByEmail(prisma: Prisma, email: string): Promise<AccountRow> {
  const account = await prisma.account.findUnique({ where: { email: normalizeEmail(email) } });
  if (!account) throw new AccountRuleError('account_not_found', `no account with e-mail ${email}`);
  return account;
}

/**
 * A closed account changes no more, whoever asks. A suspended account keeps reading its
 * pages and paying, but its holder cannot change its plan, create or rotate keys until
 * access is restored; operators still can.
 */
export function checkCustomerMayChange(account: Pick<AccountRow, 'status' | 'closedAt'>, by: Actor): void {
  if (account.closedAt) throw new AccountRuleError('account_closed', `this account was closed on ${isoDay(account.closedAt)}`);
  if (by === 'customer' && account.status === 'suspended') {
    throw new AccountRuleError('account_suspended', 'this account is suspended: plan changes and new keys wait until access is restored');
  }
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
    /** Enterprise: the contract's last day (null: open-ended). */
    contractEnd?: Date | null;
    keyName?: string;
    /** Language of its e-mails and invoices. */
    language?: 'fr' | 'en';
    /**
     * False for sign-ups, whose keys wait for the address to be confirmed; operators'
     * accounts are confirmed at creation (the default).
     */
    emailVerified?: boolean;
  },
): Promise<{ account: AccountView; key: string; keyInfo: KeyView }> {
  const email = normalizeEmail(input.email);
  if (!(input.plan in PLANS)) throw new AccountRuleError('invalid_input', `unknown plan ${input.plan}`);
  if (input.contractEnd && input.plan !== 'enterprise')
    throw new AccountRuleError('invalid_input', 'a contract end date applies to Enterprise only');
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
          contractEnd: input.contractEnd ?? null,
          language: input.language ?? 'fr',
          emailVerifiedAt: input.emailVerified === false ? null : new Date(),
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
