/** Availability of every Enterprise account in a month, against the 99.9 % promise (SLA credits). */
import { AVAILABILITY_RULE, enterpriseAvailability, SLA_TARGET } from '../../accounts/availability.js';
import { isMonthKey } from '../../accounts/policy.js';
import { parseOptions } from '../args.js';
import { type Command, UsageError } from '../io.js';

const percent = (ratio: number | null) => (ratio === null ? 'no calls' : `${(Math.floor(ratio * 100_000) / 1000).toFixed(3)} %`);

export const commands: Command[] = [
  {
    name: 'sla',
    usage: 'sla --month YYYY-MM   (each Enterprise account: calls answered 2xx, Mboa failures (5xx/503), availability against 99.9 %)',
    async run(args, ctx) {
      const { values } = parseOptions(args, { month: { type: 'string' } });
      if (!values.month) throw new UsageError('--month YYYY-MM is required');
      if (!isMonthKey(values.month)) throw new UsageError('--month must be written YYYY-MM');
      const { pool } = await ctx.db();
      const accounts = (await enterpriseAvailability(pool, values.month)).map((a) => ({
        ...a,
        met: a.ratio === null || a.ratio >= SLA_TARGET,
      }));
      const lines = accounts.map(
        (a) =>
          `${a.email.padEnd(32)}  ${String(a.answered).padStart(10)} answered  ${String(a.failed).padStart(7)} 5xx/503  ${percent(a.ratio).padStart(9)}  ${a.met ? 'meets 99.9 %' : 'BELOW 99.9 %'}`,
      );
      ctx.print(
        { month: values.month, target: SLA_TARGET, rule: AVAILABILITY_RULE, accounts },
        accounts.length
          ? `${values.month}, availability of Enterprise accounts (target 99.9 %):\n${lines.join('\n')}\n${AVAILABILITY_RULE}`
          : `${values.month}: no Enterprise account`,
      );
    },
  },
];
