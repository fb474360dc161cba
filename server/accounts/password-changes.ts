/**
 * Changing a password: from the dashboard (the current one required) or through a reset
 * link sent by e-mail (valid one hour, once). Either way every other dashboard session of
 * the account ends, so a stolen session does not survive the change, and every reset link
 * not yet used stops working, so none issued before can undo it. A reset link also
 * proves the address, so it confirms it if it was not yet.
 */
import type { Prisma } from '../platform/db.js';
import { issueToken, peekToken, useToken } from './email-tokens.js';
import { hashPassword, type PasswordProblem, passwordProblem, verifyPassword } from './passwords.js';
import { normalizeEmail } from './accounts.js';
import { AccountRuleError } from './errors.js';

type AccountRow = Awaited<ReturnType<Prisma['account']['findUniqueOrThrow']>>;

/** A new password that breaks the rule; `problem` says which part. */
export class PasswordRuleError extends AccountRuleError {
  constructor(readonly problem: PasswordProblem) {
    super('invalid_input', `password refused: ${problem}`, { problem });
  }
}

/**
 * The open account of an address, if any. Callers answer the same whether or not there is
 * one, so the reset form never tells whether an address is known.
 */
export async function resettableAccount(prisma: Prisma, email: string): Promise<AccountRow | null> {
  let address: string;
  try {
    address = normalizeEmail(email);
  } catch {
    return null;
  }
  const account = await prisma.account.findUnique({ where: { email: address } });
  return account && !account.closedAt ? account : null;
}

/** A new reset link's token for the account (earlier ones stop working). */
export function issueResetLink(prisma: Prisma, accountId: string, now = new Date()): Promise<string> {
  return issueToken(prisma, accountId, 'reset_password', now);
}

/** The account a reset link opens, if it still works (the form is shown only then). */
export async function resetLinkAccount(prisma: Prisma, token: unknown, now = new Date()) {
  const state = await peekToken(prisma, token, 'reset_password', now);
  if (state.state !== 'valid') return state;
  const account = await prisma.account.findUnique({ where: { id: state.accountId } });
  return account && !account.closedAt ? { state: 'valid' as const, account } : { state: 'invalid' as const };
}

/** Sets the password behind a reset link; the link is used in the same transaction. */
export async function resetPassword(
  prisma: Prisma,
  token: unknown,
  password: string,
  now = new Date(),
): Promise<{ state: 'done'; account: AccountRow } | { state: 'expired' | 'invalid' }> {
  const link = await resetLinkAccount(prisma, token, now);
  if (link.state !== 'valid') return link;
  const problem = passwordProblem(password, { email: link.account.email });
  if (problem) throw new PasswordRuleError(problem);
  const passwordHash = await hashPassword(password);
  return prisma.$transaction(async (tx) => {
    const used = await useToken(tx as unknown as Prisma, token, 'reset_password', now);
    if (used.state !== 'valid') return used;
    await tx.dashboardSession.deleteMany({ where: { accountId: used.accountId } });
    await retireResetLinks(tx as unknown as Prisma, used.accountId, now);
    const account = await tx.account.update({
      where: { id: used.accountId },
      data: { passwordHash, emailVerifiedAt: link.account.emailVerifiedAt ?? now },
    });
    return { state: 'done' as const, account };
  });
}

/** Every reset link of the account not yet used stops working. */
function retireResetLinks(prisma: Prisma, accountId: string, now: Date) {
  return prisma.emailToken.updateMany({ where: { accountId, purpose: 'reset_password', usedAt: null }, data: { usedAt: now } });
}

/**
 * Changes the password of a logged-in customer, who gives the current one. Every session
 * but `keepSessionId` (the one asking) ends, and every reset link sent before stops working. False when the current password is wrong.
 */
export async function changePassword(
  prisma: Prisma,
  input: { accountId: string; current: string; next: string; keepSessionId: string },
): Promise<boolean> {
  const account = await prisma.account.findUnique({ where: { id: input.accountId } });
  if (!account || account.closedAt) return false;
  if (!(await verifyPassword(input.current, account.passwordHash))) return false;
  const problem = passwordProblem(input.next, { email: account.email });
  if (problem) throw new PasswordRuleError(problem);
  const passwordHash = await hashPassword(input.next);
  const now = new Date();
  await prisma.$transaction([
    prisma.account.update({ where: { id: account.id }, data: { passwordHash } }),
    prisma.dashboardSession.deleteMany({ where: { accountId: account.id, id: { not: input.keepSessionId } } }),
    // A reset link asked for before the change would undo it (and end this session): retired.
    retireResetLinks(prisma, account.id, now),
  ]);
  return true;
}
