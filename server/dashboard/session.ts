/**
 * Dashboard sessions: a random token in an httpOnly cookie; the database keeps only its
 * SHA-256 (dashboard_sessions.id), the account, a CSRF token for the session's forms and
 * an expiry. Logging out deletes the row, so a copied cookie stops working at once.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Prisma } from '../platform/db.js';

export const SESSION_COOKIE = 'mboa_session';
export const SESSION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

type AccountRow = Awaited<ReturnType<Prisma['account']['findUniqueOrThrow']>>;

export interface Session {
  id: string;
  csrfToken: string;
  expiresAt: Date;
  account: AccountRow;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** A new session for the account; expired sessions of the account are cleared on the way. */
export async function startSession(prisma: Prisma, accountId: string, now = new Date()): Promise<Session & { token: string }> {
  const token = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await prisma.dashboardSession.deleteMany({ where: { accountId, expiresAt: { lte: now } } });
  const row = await prisma.dashboardSession.create({
    data: { id: hashToken(token), accountId, csrfToken: randomToken(), expiresAt },
    include: { account: true },
  });
  return { token, id: row.id, csrfToken: row.csrfToken, expiresAt, account: row.account };
}

export async function findSession(prisma: Prisma, token: string | undefined, now = new Date()): Promise<Session | null> {
  if (!token || !TOKEN.test(token)) return null;
  const row = await prisma.dashboardSession.findUnique({ where: { id: hashToken(token) }, include: { account: true } });
  if (!row || row.expiresAt <= now) return null;
  return { id: row.id, csrfToken: row.csrfToken, expiresAt: row.expiresAt, account: row.account };
}

export async function endSession(prisma: Prisma, token: string | undefined): Promise<void> {
  if (!token || !TOKEN.test(token)) return;
  await prisma.dashboardSession.deleteMany({ where: { id: hashToken(token) } });
}

/** Constant-time string comparison for tokens. */
export function sameToken(a: unknown, b: string): boolean {
  if (typeof a !== 'string' || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
