/**
 * Single-use links sent by e-mail: address confirmation and password reset. The link
 * carries 32 random bytes; the database keeps only their SHA-256, the purpose and an
 * expiry. Using a token is one conditional UPDATE, so two clicks cannot both succeed.
 * Issuing a new token retires the account's earlier ones of the same purpose.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Prisma } from '../platform/db.js';

export type TokenPurpose = 'verify_email' | 'reset_password';

export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  verify_email: 48 * 60 * 60 * 1000,
  reset_password: 60 * 60 * 1000,
};

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const hashOf = (token: string) => createHash('sha256').update(`mboa-email-token\0${token}`).digest('hex');

export async function issueToken(prisma: Prisma, accountId: string, purpose: TokenPurpose, now = new Date()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await prisma.$transaction([
    prisma.emailToken.updateMany({ where: { accountId, purpose, usedAt: null }, data: { usedAt: now } }),
    prisma.emailToken.create({
      data: { id: hashOf(token), accountId, purpose, createdAt: now, expiresAt: new Date(now.getTime() + TOKEN_TTL_MS[purpose]) },
    }),
  ]);
  return token;
}

export type TokenState = { state: 'valid'; accountId: string } | { state: 'expired' | 'invalid' };

/** What a token is worth, without using it (to show a form before a reset, say). */
export async function peekToken(prisma: Prisma, token: unknown, purpose: TokenPurpose, now = new Date()): Promise<TokenState> {
  if (typeof token !== 'string' || !TOKEN.test(token)) return { state: 'invalid' };
  const row = await prisma.emailToken.findUnique({ where: { id: hashOf(token) } });
  if (!row || row.purpose !== purpose || row.usedAt) return { state: 'invalid' };
  if (row.expiresAt <= now) return { state: 'expired' };
  return { state: 'valid', accountId: row.accountId };
}

/** The account a token of `purpose` was issued to, whether used, replaced or expired since; null for any other. */
export async function tokenAccount(prisma: Prisma, token: unknown, purpose: TokenPurpose): Promise<string | null> {
  if (typeof token !== 'string' || !TOKEN.test(token)) return null;
  const row = await prisma.emailToken.findUnique({ where: { id: hashOf(token) } });
  return row && row.purpose === purpose ? row.accountId : null;
}

/**
 * Uses a token: valid once, before its expiry. Runs inside the caller's transaction when
 * given one, so what the token allows (a new password, say) commits with its use.
 */
export async function useToken(prisma: Prisma, token: unknown, purpose: TokenPurpose, now = new Date()): Promise<TokenState> {
  const peeked = await peekToken(prisma, token, purpose, now);
  if (peeked.state !== 'valid') return peeked;
  const { count } = await prisma.emailToken.updateMany({
    where: { id: hashOf(token as string), purpose, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  return count === 1 ? peeked : { state: 'invalid' };
}
