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

/**
 * One mailbox, written one way. The local part is a dot-atom (RFC 5322's `atext` between
 * single dots: no quotes, commas, semicolons, angle brackets, spaces or control
 * characters, no leading, trailing or doubled dot); exactly one `@`; the domain is two or
 * more DNS labels (letters, digits, inner hyphens; ASCII, so an internationalised domain is
 * given in its `xn--` form) whose last is a top-level name of letters. Surrounding spaces
 * are dropped; nothing else is repaired.
 */
const LOCAL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const TOP_LEVEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

/** Whether `address` (lower case) is one mailbox in the grammar above. */
function isMailbox(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.indexOf('@');
  if (at < 1 || at !== address.lastIndexOf('@')) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  return (
    local.length <= 64 &&
    LOCAL.test(local) &&
    labels.length >= 2 &&
    labels.every((l) => LABEL.test(l)) &&
    TOP_LEVEL.test(labels[labels.length - 1])
  );
}

/**
 * The address as stored and compared: lower-cased (local part included: no mailbox
 * provider Mboa's customers use tells `Ana@` from `ana@`), nothing else folded (dots and
 * `+tags` may be distinct mailboxes). Refuses anything but one mailbox, so `a@x.cm,`,
 * `a@x.cm;`, `"x"a@x.cm` or `n<a@x.cm>` never make a second account of `a@x.cm`.
 */
export function normalizeEmail(email: string): string {
  const e = email.replace(/^ +| +$/g, '').toLowerCase();
  if (!isMailbox(e)) throw new AccountRuleError('invalid_input', `not an e-mail address: ${JSON.stringify(email.slice(0, 300))}`);
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
