import { PLANS, PLAN_NAMES } from '../../../contract/plans.js';
import { isoDay } from '../../accounts/policy.js';
import { changePlan, type ContractTerms } from '../../accounts/plan-changes.js';
import { accountOption, dayOption, parseOptions, plan, positiveInt } from '../args.js';
import { type Command, UsageError } from '../io.js';

/**
 * Enterprise terms from `--contract-end`, `--monthly-quota` and `--rate-limit`: the end
 * date is required with Enterprise (it is sold by annual contract) and must not be past;
 * the limits belong to the contract, so they are refused with any other plan.
 */
export function contractTerms(
  target: string,
  values: { 'contract-end'?: string; 'monthly-quota'?: string; 'rate-limit'?: string },
  now = new Date(),
): ContractTerms | undefined {
  const contractEnd = dayOption(values['contract-end'], 'contract-end');
  const monthlyQuotaOverride = positiveInt(values['monthly-quota'], 'monthly-quota');
  const rateLimitOverride = positiveInt(values['rate-limit'], 'rate-limit');
  if (target !== 'enterprise') {
    if (contractEnd || monthlyQuotaOverride || rateLimitOverride) {
      throw new UsageError('--contract-end, --monthly-quota and --rate-limit go with --plan enterprise only');
    }
    return undefined;
  }
  if (!contractEnd) throw new UsageError('--contract-end YYYY-MM-DD is required with --plan enterprise (it is sold by annual contract)');
  if (isoDay(contractEnd) < isoDay(now)) throw new UsageError(`--contract-end ${isoDay(contractEnd)} is already past`);
  return { contractEnd, monthlyQuotaOverride, rateLimitOverride };
}

const set: Command = {
  name: 'plans set',
  usage: 'plans set --email E --plan starter|pro|enterprise [--contract-end YYYY-MM-DD] [--monthly-quota N] [--rate-limit N]',
  async run(args, ctx) {
    const { values } = parseOptions(args, {
      email: { type: 'string' },
      plan: { type: 'string' },
      'contract-end': { type: 'string' },
      'monthly-quota': { type: 'string' },
      'rate-limit': { type: 'string' },
    });
    const target = plan(values.plan);
    const contract = contractTerms(target, values);
    const { prisma, account } = await accountOption(ctx, values.email);
    const updated = await changePlan(prisma, account.id, target, new Date(), { by: 'operator', contract });
    const terms =
      updated.plan === 'enterprise'
        ? ` (contract until ${updated.contract_end ?? 'no end date'}; ${updated.monthly_quota ?? 'unlimited'} calls/month, ${updated.rate_limit_per_minute ?? 'unlimited'}/minute)`
        : '';
    ctx.print({ account: updated }, `account <${updated.email}> is now on ${PLANS[updated.plan].label}${terms}`);
  },
};

const list: Command = {
  name: 'plans list',
  usage: 'plans list',
  async run(args, ctx) {
    parseOptions(args, {});
    const plans = PLAN_NAMES.map((n) => PLANS[n]);
    const n = (v: number | null) => (v === null ? 'unlimited' : v.toLocaleString('en-US'));
    ctx.print(
      { plans },
      plans
        .map(
          (p) =>
            `${p.label.padEnd(11)} ${n(p.priceXafPerMonth)} FCFA/month  ${n(p.monthlyQuota)} calls/month  ${n(p.ratePerMinute)}/min  ${n(p.maxKeys)} keys`,
        )
        .join('\n'),
    );
  },
};

export const commands: Command[] = [set, list];
