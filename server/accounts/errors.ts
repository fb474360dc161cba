/**
 * The refusals of the account rules: a code, a message fit to show the operator or the
 * customer as is, and the one HTTP status each maps to.
 */
export type AccountRuleCode =
  | 'email_taken'
  | 'account_not_found'
  | 'key_not_found'
  | 'ambiguous_prefix'
  | 'key_limit_reached'
  | 'already_rotating'
  | 'too_many_keys_for_plan'
  | 'contract_required'
  | 'contract_in_force'
  | 'account_suspended'
  | 'account_closed'
  | 'invalid_input';

/**
 * The HTTP status of each refusal, for every page that answers one (the CLI exits 1 for
 * all of them): one table, so no call site picks its own.
 */
export const ACCOUNT_RULE_STATUS: Record<AccountRuleCode, number> = {
  email_taken: 409,
  account_not_found: 404,
  key_not_found: 404,
  ambiguous_prefix: 409,
  key_limit_reached: 409,
  already_rotating: 409,
  too_many_keys_for_plan: 409,
  contract_required: 403,
  contract_in_force: 403,
  account_suspended: 403,
  account_closed: 403,
  invalid_input: 422,
};

/** A refused operation, with a message fit to show the operator or customer as is. */
export class AccountRuleError extends Error {
  constructor(
    readonly code: AccountRuleCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ACCOUNT_RULE_STATUS[this.code];
  }
}
