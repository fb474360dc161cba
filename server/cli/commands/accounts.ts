import { accountView, createAccount } from '../../accounts/service.js';
import { accountOption, parseOptions, plan, positiveInt, required } from '../args.js';
import type { Command } from '../io.js';

const create: Command = {
  name: 'accounts create',
  usage: 'accounts create --email E --plan starter|pro|enterprise [--company NAME] [--monthly-quota N] [--rate-limit N]',
  async run(args, ctx) {
    const { values } = parseOptions(args, {
      email: { type: 'string' },
      plan: { type: 'string' },
      company: { type: 'string' },
      'monthly-quota': { type: 'string' },
      'rate-limit': { type: 'string' },
    });
    const input = {
      email: required(values.email, 'email'),
      plan: plan(values.plan),
      companyName: values.company ?? null,
      monthlyQuotaOverride: positiveInt(values['monthly-quota'], 'monthly-quota'),
      rateLimitOverride: positiveInt(values['rate-limit'], 'rate-limit'),
    };
    const { prisma } = await ctx.db();
    const result = await createAccount(prisma, input);
    ctx.print(
      { account: result.account, key: result.key, key_info: result.keyInfo },
      [
        `account ${result.account.id} <${result.account.email}> on ${result.account.plan}`,
        `  quota ${result.account.monthly_quota ?? 'unlimited'}/month, ${result.account.rate_limit_per_minute ?? 'unlimited'}/minute`,
        `API key (shown once, store it now): ${result.key}`,
      ].join('\n'),
    );
  },
};

function setStatus(status: 'active' | 'suspended'): Command {
  const name = status === 'active' ? 'accounts resume' : 'accounts suspend';
  return {
    name,
    usage: `${name} --email E`,
    async run(args, ctx) {
      const { values } = parseOptions(args, { email: { type: 'string' } });
      const { prisma, account } = await accountOption(ctx, values.email);
      const updated = await prisma.account.update({ where: { id: account.id }, data: { status } });
      ctx.print({ account: accountView(updated) }, `account <${updated.email}> is now ${status}`);
    },
  };
}

export const commands: Command[] = [create, setStatus('suspended'), setStatus('active')];
