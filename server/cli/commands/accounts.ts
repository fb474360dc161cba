import { createAccount } from '../../accounts/accounts.js';
import { accountView } from '../../accounts/views.js';
import { accountOption, parseOptions, plan, required } from '../args.js';
import { type Command, UsageError } from '../io.js';
import { escapeForTerminal } from '../../platform/text.js';
import { contractTerms } from './plans.js';

const create: Command = {
  name: 'accounts create',
  usage:
    'accounts create --email E --plan starter|pro|enterprise [--company NAME] [--lang fr|en] [--contract-end YYYY-MM-DD] [--monthly-quota N] [--rate-limit N]   (confirmed at creation)',
  async run(args, ctx) {
    const { values } = parseOptions(args, {
      email: { type: 'string' },
      plan: { type: 'string' },
      company: { type: 'string' },
      lang: { type: 'string' },
      'contract-end': { type: 'string' },
      'monthly-quota': { type: 'string' },
      'rate-limit': { type: 'string' },
    });
    const email = required(values.email, 'email');
    const target = plan(values.plan);
    const contract = contractTerms(target, values);
    if (values.lang !== undefined && values.lang !== 'fr' && values.lang !== 'en') throw new UsageError('--lang must be fr or en');
    const input = {
      email,
      plan: target,
      companyName: values.company ?? null,
      language: (values.lang as 'fr' | 'en' | undefined) ?? 'fr',
      contractEnd: contract?.contractEnd ?? null,
      monthlyQuotaOverride: contract?.monthlyQuotaOverride,
      rateLimitOverride: contract?.rateLimitOverride,
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
      // An operator's suspension is lifted only by an operator; a payment lifts only a suspension for non-payment.
      const updated = await prisma.account.update({
        where: { id: account.id },
        data: { status, suspensionReason: status === 'suspended' ? 'operator' : null },
      });
      ctx.print({ account: accountView(updated) }, `account <${updated.email}> is now ${status}`);
    },
  };
}

const show: Command = {
  name: 'accounts show',
  usage: 'accounts show --email E',
  async run(args, ctx) {
    const { values } = parseOptions(args, { email: { type: 'string' } });
    const { account } = await accountOption(ctx, values.email);
    const a = accountView(account);
    ctx.print(
      { account: a },
      [
        `account ${a.id} <${a.email}>${a.company_name ? ` ${escapeForTerminal(a.company_name)}` : ''}`,
        `  plan ${a.plan}${a.plan === 'enterprise' ? ` (contract until ${a.contract_end ?? 'no end date'})` : ''}, ${a.monthly_quota ?? 'unlimited'} calls/month, ${a.rate_limit_per_minute ?? 'unlimited'}/minute`,
        `  ${a.closed_at ? `closed ${a.closed_at.slice(0, 10)}` : a.status}${a.suspension_reason ? ` (${a.suspension_reason.replace('_', '-')})` : ''}, e-mail ${a.email_verified ? 'confirmed' : 'not confirmed'}, language ${a.language}, since ${a.created_at.slice(0, 10)}`,
      ].join('\n'),
    );
  },
};

export const commands: Command[] = [create, show, setStatus('suspended'), setStatus('active')];
