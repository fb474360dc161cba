/**
 * Closing an account, by its holder. At once: every key is revoked (the API refuses them),
 * every session ends and log-in is refused (no password any more). What invoices require
 * stays, for as long as accounting law requires it (OHADA: ten years): the account's
 * company name and address, its plan history (the basis of the month's last invoice) and
 * its invoices. Usage figures, sessions, pending links, alerts and sales requests are
 * deleted. The days of the closing month are charged up to the closing day, included.
 */
import type { Prisma } from '../platform/db.js';
import { contractInForce } from './plan-rules.js';
import { verifyPassword } from './passwords.js';
import { lockAccount } from './policy.js';
import { AccountRuleError } from './errors.js';
import { accountView, type AccountView } from './views.js';

export const INVOICE_RETENTION_YEARS = 10;

export async function closeAccount(prisma: Prisma, input: { accountId: string; password: string }, now = new Date()): Promise<AccountView> {
  const account = await prisma.account.findUnique({ where: { id: input.accountId } });
  if (!account || account.closedAt) throw new AccountRuleError('account_not_found', 'no open account');
  if (!(await verifyPassword(input.password, account.passwordHash))) {
    throw new AccountRuleError('invalid_input', 'wrong password', { reason: 'wrong_password' });
  }
  if (contractInForce(account, now)) {
    throw new AccountRuleError('contract_in_force', 'an Enterprise account under contract is closed through its account manager');
  }
  return prisma.$transaction(async (tx) => {
    await lockAccount(tx, account.id);
    await tx.apiKey.updateMany({ where: { accountId: account.id, revokedAt: null }, data: { revokedAt: now } });
    await tx.dashboardSession.deleteMany({ where: { accountId: account.id } });
    await tx.emailToken.deleteMany({ where: { accountId: account.id } });
    await tx.quotaAlert.deleteMany({ where: { accountId: account.id } });
    await tx.dailyUsage.deleteMany({ where: { accountId: account.id } });
    await tx.monthlyUsage.deleteMany({ where: { accountId: account.id } });
    await tx.salesRequest.deleteMany({ where: { accountId: account.id } });
    const closed = await tx.account.update({ where: { id: account.id }, data: { closedAt: now, passwordHash: null } });
    return accountView(closed);
  });
}
