/** Option parsing for admin commands: unknown or malformed options are usage errors. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PLAN_NAMES, type PlanName } from '../../contract/plans.js';
import { findAccountByEmail } from '../accounts/accounts.js';
import { type CommandContext, UsageError } from './io.js';

export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/\. To specify a positional.*$/s, '.'));
  }
}

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${flag} is required`);
  return value;
}

export function plan(value: string | undefined): PlanName {
  const v = required(value, 'plan');
  if (!(PLAN_NAMES as readonly string[]).includes(v)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return v as PlanName;
}

export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${flag} must be a positive integer`);
  return Number(value);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day `YYYY-MM-DD`, as a Date at 00:00 UTC. */
export function dayOption(value: string | undefined, flag: string): Date | undefined {
  if (value === undefined) return undefined;
  const m = DAY.exec(value);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== value) throw new UsageError(`--${flag} must be a date written YYYY-MM-DD`);
  return date;
}

/** The database and the account named by `--email`, for commands that act on one account. */
export async function accountOption(ctx: CommandContext, email: string | undefined) {
  const address = required(email, 'email');
  const { prisma } = await ctx.db();
  return { prisma, account: await findAccountByEmail(prisma, address) };
}
