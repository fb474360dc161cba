/**
 * How the market explorer's page calls the API without holding a key: its requests carry
 * `X-Mboa-Explorer: <session id>.<session's CSRF token>.<key id>[.preview]`, which only a
 * page rendered for that session knows (the session cookie itself never leaves the
 * dashboard's path). This resolves it to the key the session acts as, which the API's
 * chain then treats as if it had been sent (server/api/explorer.ts), and counts the
 * session's calls in a window of their own (in Redis when configured, shared by every
 * instance; in memory otherwise).
 *
 * A resolved credential is kept 5 s (a page's first view sends one call per quarter at
 * once): a logged-out session stops working within that time; a revoked key, a suspension
 * or a plan change take effect at once, through the API's own key checks.
 */
import type { Redis } from 'ioredis';
import type { Prisma } from '../platform/db.js';
import { AttemptLimiter, type Limit } from './attempt-limiter.js';
import { sameToken, type Session } from './session.js';

/** Calls one dashboard session's explorer may make per minute: a city's first view takes one per quarter. */
export const EXPLORER_CALLS: Limit = { points: 600, windowSeconds: 60 };

const CREDENTIAL = /^([0-9a-f]{64})\.([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{1,64})(\.preview)?$/;
const KEPT_MS = 5_000;
const MAX_KEPT = 10_000;

interface Resolved {
  sessionId: string;
  keyHash: string;
  preview: boolean;
}

/** The credential a page of `session` sends to act as the key `keyId`. */
export function explorerCredential(session: Pick<Session, 'id' | 'csrfToken'>, keyId: string): string {
  return `${session.id}.${session.csrfToken}.${keyId}`;
}

export class ExplorerAccess {
  private readonly limiter: AttemptLimiter;
  private readonly kept = new Map<string, { at: number; value: Promise<Resolved | null> }>();

  /** `options`: the dashboard's settings (its counters' namespace, the explorer's limit). */
  constructor(
    private readonly prisma: Prisma,
    redis: Redis | undefined,
    options: { limitPrefix?: string; explorerLimit?: Limit } = {},
  ) {
    this.limit = options.explorerLimit ?? EXPLORER_CALLS;
    this.limiter = new AttemptLimiter(redis, `${options.limitPrefix ?? 'mboa'}:explorer:session`, this.limit);
  }

  readonly limit: Limit;

  resolve(credential: string, at: Date): Promise<Resolved | null> {
    const hit = this.kept.get(credential);
    if (hit && at.getTime() - hit.at < KEPT_MS) return hit.value;
    if (this.kept.size >= MAX_KEPT) this.kept.clear();
    const value = this.read(credential, at);
    this.kept.set(credential, { at: at.getTime(), value });
    // A failed read (database away) is not kept: the next call tries again.
    void value.catch(() => this.kept.delete(credential));
    return value;
  }

  take(sessionId: string): Promise<number | null> {
    return this.limiter.take(sessionId);
  }

  private async read(credential: string, at: Date): Promise<Resolved | null> {
    const m = CREDENTIAL.exec(credential.trim());
    if (!m) return null;
    const [, sessionId, csrf, keyId, preview] = m;
    const session = await this.prisma.dashboardSession.findUnique({ where: { id: sessionId } });
    if (!session || session.expiresAt <= at || !sameToken(csrf, session.csrfToken)) return null;
    const key = await this.prisma.apiKey.findFirst({ where: { id: keyId, accountId: session.accountId }, select: { hash: true } });
    return key ? { sessionId, keyHash: key.hash, preview: preview !== undefined } : null;
  }
}
