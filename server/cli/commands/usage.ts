import { monthlyUsage } from '../../accounts/usage.js';
import { accountOption, parseOptions } from '../args.js';
import type { Command } from '../io.js';

export const commands: Command[] = [
  {
    name: 'usage',
    usage: 'usage --email E',
    async run(args, ctx) {
      const { values } = parseOptions(args, { email: { type: 'string' } });
      const { prisma, account } = await accountOption(ctx, values.email);
      const usage = await monthlyUsage(prisma, account.id);
      ctx.print(
        { usage },
        `${usage.month} on ${usage.plan}: ${usage.used} used of ${usage.limit ?? 'unlimited'}, ${usage.remaining ?? 'unlimited'} remaining, resets ${usage.resets_at}`,
      );
    },
  },
];
