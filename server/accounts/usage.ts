/** The month's count of an account as stored in PostgreSQL, with its limit. */
import type { TQuota } from '../../contract/schemas.js';
import type { Prisma } from '../platform/db.js';
import { AccountRuleError } from './errors.js';
import { effectiveLimits, monthKey, monthStart, quotaView } from './policy.js';

/** The quota as customers see it, with the month it counts. */
export interface UsageView extends TQuota {
  /** `YYYY-MM` */
  month: string;
}

export async function monthlyUsage(prisma: Prisma, accountId: string, now = new Date()): Promise<UsageView> {
  const account = await prisma.account.findUnique({ where: { id: accountId } });
  if (!account) throw new AccountRuleError('account_not_found', 'no such account');
  const month = monthStart(now);
  const row = await prisma.monthlyUsage.findUnique({ where: { accountId_month: { accountId, month } } });
  return { ...quotaView(account.plan, effectiveLimits(account).monthlyQuota, row?.used ?? 0, now), month: monthKey(month) };
}
