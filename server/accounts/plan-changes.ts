/**
 * Moving an account between plans: at once, the month's count kept, refused while the
 * account holds more keys than the new plan allows. Who may ask for which move is in
 * plan-rules.ts.
 */
import { PLANS, type PlanName } from '../../contract/plans.js';
import type { Prisma } from '../platform/db.js';
import { checkCustomerMayChange, positiveOrNull } from './accounts.js';
import { AccountRuleError } from './errors.js';
import { type Actor, contractInForce, isSelfServe, SELF_SERVE_PLANS } from './plan-rules.js';
import { isKeyActive, isoDay, lockAccount } from './policy.js';
import { type AccountRow, type AccountView, accountView, keyView } from './views.js';

/** An Enterprise contract's terms, set by an operator. */
export interface ContractTerms {
  /** Last day of the contract (UTC, included); null: open-ended. */
  contractEnd: Date | null;
  /** The contract's own limits; undefined keeps the current ones, null returns to the plan's. */
  monthlyQuotaOverride?: number | null;
  rateLimitOverride?: number | null;
}

export interface PlanChangeOptions {
  /** Who asks; customers are held to the self-serve rules (plan-rules.ts). Default: customer. */
  by?: Actor;
  /** Operators only, with Enterprise: the contract's end date and limits. */
  contract?: ContractTerms;
}

/** Refuses what a customer may not do alone: join Enterprise, or leave it under contract. */
function checkSelfServe(account: AccountRow, plan: PlanName, now: Date): void {
  if (!isSelfServe(plan)) {
    throw new AccountRuleError(
      'contract_required',
      `the ${PLANS[plan].label} plan is sold by annual contract: contact sales to move to it`,
      { plan },
    );
  }
  if (contractInForce(account, now)) {
    const end = account.contractEnd ? isoDay(account.contractEnd) : null;
    throw new AccountRuleError(
      'contract_in_force',
      end
        ? `the Enterprise contract runs until ${end}: changes before then go through your account manager`
        : 'the Enterprise contract has no end date yet: changes go through your account manager',
      { contractEnd: end },
    );
  }
}

/**
 * Changes plan at once; the month's count is kept. Refused when the account holds more
 * active keys than the new plan allows, naming them. Customers may only move between the
 * self-serve plans; operators move accounts to and from Enterprise with its contract terms.
 * Leaving Enterprise ends its contract: end date and contract limits are cleared.
 */
export async function changePlan(
  prisma: Prisma,
  accountId: string,
  plan: PlanName,
  now = new Date(),
  options: PlanChangeOptions = {},
): Promise<AccountView> {
  if (!(plan in PLANS)) throw new AccountRuleError('invalid_input', `unknown plan ${plan}`);
  const by = options.by ?? 'customer';
  if (options.contract && (by !== 'operator' || plan !== 'enterprise')) {
    throw new AccountRuleError('invalid_input', 'contract terms are set by an operator, with the Enterprise plan only');
  }
  const terms = options.contract;
  const contractData = terms
    ? {
        contractEnd: terms.contractEnd,
        ...(terms.monthlyQuotaOverride !== undefined
          ? { monthlyQuotaOverride: positiveOrNull(terms.monthlyQuotaOverride, 'monthly quota') }
          : {}),
        ...(terms.rateLimitOverride !== undefined ? { rateLimitOverride: positiveOrNull(terms.rateLimitOverride, 'rate limit') } : {}),
      }
    : {};
  return prisma.$transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const account = await tx.account.findUnique({ where: { id: accountId } });
    if (!account) throw new AccountRuleError('account_not_found', 'no such account');
    checkCustomerMayChange(account, by);
    if (by === 'customer' && account.plan !== plan) checkSelfServe(account, plan, now);
    if (account.plan === plan) {
      // Same plan: only an Enterprise renewal (new end date or limits) changes anything.
      if (!terms) return accountView(account);
      return accountView(await tx.account.update({ where: { id: accountId }, data: contractData }));
    }
    const maxKeys = PLANS[plan].maxKeys;
    const activeKeys = (
      await tx.apiKey.findMany({ where: { accountId, kind: 'live', revokedAt: null }, orderBy: { createdAt: 'asc' } })
    ).filter((k) => isKeyActive(k, now));
    if (maxKeys !== null && activeKeys.length > maxKeys) {
      const excess = activeKeys.length - maxKeys;
      throw new AccountRuleError(
        'too_many_keys_for_plan',
        `the ${PLANS[plan].label} plan allows ${maxKeys} active key${maxKeys === 1 ? '' : 's'} and this account has ${activeKeys.length}: revoke ${excess} first (${activeKeys.map((k) => `${k.prefix} "${k.name}"`).join(', ')})`,
        { maxKeys, activeKeys: activeKeys.map((k) => keyView(k, now)) },
      );
    }
    const leavingContract = account.plan === 'enterprise' ? { contractEnd: null, monthlyQuotaOverride: null, rateLimitOverride: null } : {};
    const updated = await tx.account.update({
      where: { id: accountId },
      data: { plan, ...leavingContract, ...contractData, planChanges: { create: { plan, changedAt: now } } },
    });
    return accountView(updated);
  });
}

/** The plans a customer can switch to alone, for pages that offer them. */
export function selfServePlansFor(account: Pick<AccountRow, 'plan' | 'contractEnd'>, now: Date): PlanName[] {
  if (contractInForce(account, now)) return [];
  return SELF_SERVE_PLANS.filter((p) => p !== account.plan);
}
