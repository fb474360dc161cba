/**
 * Who may move an account between plans. Starter and Pro are self-serve and free of
 * commitment: customers switch between them from the dashboard at any time. Enterprise is
 * sold by annual contract: only an operator moves an account to or from it, and a customer
 * cannot leave it alone before the contract's last day is over.
 *
 * Prices and limits stay in contract/plans.ts; this module only says how each plan is sold.
 */
import type { PlanName } from '../../contract/plans.js';
import { DAY_MS } from './policy.js';

/** Plans a customer may choose from the dashboard, cheapest first. */
export const SELF_SERVE_PLANS: readonly PlanName[] = ['starter', 'pro'];

export function isSelfServe(plan: PlanName): boolean {
  return SELF_SERVE_PLANS.includes(plan);
}

/** Who asks for a change: customers are held to the self-serve rules, operators are not. */
export type Actor = 'customer' | 'operator';

/**
 * True while an Enterprise contract binds the account: up to and including its last day
 * (UTC). An Enterprise account without an end date is bound until an operator sets one.
 */
export function contractInForce(account: { plan: PlanName; contractEnd: Date | null }, now: Date): boolean {
  if (account.plan !== 'enterprise') return false;
  if (account.contractEnd === null) return true;
  return now.getTime() < account.contractEnd.getTime() + DAY_MS;
}
