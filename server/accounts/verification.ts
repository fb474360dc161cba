/**
 * E-mail confirmation. A sign-up's keys are refused by the API until the address is
 * confirmed through a link sent to it (valid 48 hours, once). Operators' accounts, and
 * every account opened before confirmation existed, count as confirmed.
 */
import type { Prisma } from '../platform/db.js';
import { issueToken, tokenAccount, useToken } from './email-tokens.js';

/** A new confirmation link's token for the account (earlier ones stop working). */
export function startVerification(prisma: Prisma, accountId: string, now = new Date()): Promise<string> {
  return issueToken(prisma, accountId, 'verify_email', now);
}

export type Confirmation = { state: 'confirmed' | 'already'; accountId: string } | { state: 'expired' | 'invalid' };

/**
 * Confirms the address behind a link. A link of an address confirmed already (the same
 * link opened twice, an older or an expired one) says so, rather than "not valid".
 */
export async function confirmEmail(prisma: Prisma, token: unknown, now = new Date()): Promise<Confirmation> {
  return prisma.$transaction(async (tx) => {
    const used = await useToken(tx as unknown as Prisma, token, 'verify_email', now);
    if (used.state !== 'valid') {
      const accountId = await tokenAccount(tx as unknown as Prisma, token, 'verify_email');
      const account = accountId
        ? await tx.account.findUnique({ where: { id: accountId }, select: { emailVerifiedAt: true, closedAt: true } })
        : null;
      return account?.emailVerifiedAt && !account.closedAt ? { state: 'already', accountId: accountId! } : used;
    }
    const { count } = await tx.account.updateMany({
      where: { id: used.accountId, emailVerifiedAt: null, closedAt: null },
      data: { emailVerifiedAt: now },
    });
    return { state: count === 1 ? 'confirmed' : 'already', accountId: used.accountId };
  });
}
