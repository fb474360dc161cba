import { PLANS, PLAN_NAMES } from '../../../contract/plans.js';
import { changePlan } from '../../accounts/service.js';
import { accountOption, parseOptions, plan } from '../args.js';
import type { Command } from '../io.js';

const set: Command = {
  name: 'plans set',
  usage: 'plans set --email E --plan starter|pro|enterprise',
  async run(args, ctx) {
    const { values } = parseOptions(args, { email: { type: 'string' }, plan: { type: 'string' } });
    const target = plan(values.plan);
    const { prisma, account } = await accountOption(ctx, values.email);
    const updated = await changePlan(prisma, account.id, target);
    ctx.print({ account: updated }, `account <${updated.email}> is now on ${PLANS[updated.plan].label}`);
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
        .map((p) => `${p.label.padEnd(11)} ${n(p.priceXafPerMonth)} FCFA/month  ${n(p.monthlyQuota)} calls/month  ${n(p.ratePerMinute)}/min  ${n(p.maxKeys)} keys`)
        .join('\n'),
    );
  },
};

export const commands: Command[] = [set, list];
