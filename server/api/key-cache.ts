/**
 * API keys, resolved to what the request chain needs (account, plan, status, limits) and
 * kept in memory, so a call costs no database round trip for its key. Correctness comes
 * from the change feed: an account's entries are dropped the moment the database says it
 * changed (key revoked or rotated, plan changed, account suspended), on every instance.
 * While the feed is not live the cache is bypassed, so a change always takes effect within
 * the feed's delay (milliseconds) or at the next call. Whatever happens to the feed, an
 * entry is read again once it is `maxAgeMs` old (5 s by default): a missed notification
 * cannot keep a key alive longer than that. Unknown keys, and keys of accounts
 * whose e-mail is not confirmed yet, are never cached: a key created or confirmed a moment
 * ago works at once.
 */
import type pg from 'pg';
import type { PlanName } from '../../contract/plans.js';
import type { ChangeFeed } from '../platform/change-feed.js';
import { isDatabaseUnavailable } from '../platform/errors.js';

export interface ResolvedKey {
  keyId: string;
  accountId: string;
  revokedAt: Date | null;
  expiresAt: Date | null;
  plan: PlanName;
  status: 'active' | 'suspended';
  suspensionReason: 'operator' | 'non_payment' | null;
  emailVerified: boolean;
  /** `live` keys read the data and count; `test` keys read the public sample, never counted. */
  kind: 'live' | 'test';
  monthlyQuotaOverride: number | null;
  rateLimitOverride: number | null;
  /** When this process last wrote `last_used_at` for the key (ms), or the stored value. */
  touchedAt: number;
  /**
   * A sign-up decoy (`signup_decoy_keys`): shown to a sign-up whose address was taken, it
   * answers as a new account's key waiting for confirmation, for ever. Its ids exist nowhere.
   */
  decoy: boolean;
}

interface Entry {
  key: ResolvedKey;
  /** When it was read from the database (ms). */
  readAt: number;
}

/** The longest a cached key is trusted without reading it again (README, "How fast a change reaches the API"). */
export const KEY_CACHE_MAX_AGE_MS = 5_000;

interface KeyRow {
  key_id: string;
  account_id: string;
  revoked_at: Date | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  plan: PlanName;
  status: 'active' | 'suspended';
  suspension_reason: 'operator' | 'non_payment' | null;
  email_verified: boolean;
  kind: 'live' | 'test';
  monthly_quota_override: number | null;
  rate_limit_override: number | null;
  decoy: boolean;
}

// A decoy reads as a live key of an active account that never confirmed its address: the
// chain answers it exactly as it answers such a key (403 email_unverified, the quota as it stands).
const KEY_SQL = `
SELECT k.id AS key_id, k.account_id, k.revoked_at, k.expires_at, k.last_used_at, k.kind,
       a.plan, a.status, a.suspension_reason, a.email_verified_at IS NOT NULL AS email_verified,
       a.monthly_quota_override, a.rate_limit_override, false AS decoy
FROM api_keys k JOIN accounts a ON a.id = k.account_id
WHERE k.hash = $1
UNION ALL
SELECT d.key_id, d.account_id, NULL, NULL, NULL, 'live', d.plan, 'active', NULL, false, NULL, NULL, true
FROM signup_decoy_keys d
WHERE d.hash = $1`;

/** A bound on memory: beyond it the oldest entries go (a Map iterates in insertion order). */
const MAX_ENTRIES = 100_000;

export class KeyCache {
  private readonly byHash = new Map<string, Entry>();
  private readonly hashesByAccount = new Map<string, Set<string>>();
  /**
   * The live-key account each key last resolved to, kept when the cache is cleared: only to
   * put a 5xx answered while the database is unreachable on its account's availability,
   * never to let a call through.
   */
  private readonly lastAccount = new Map<string, string>();
  /** Bumped by every invalidation: a lookup that raced one does not store its answer. */
  private generation = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly feed: ChangeFeed | null,
    private readonly maxAgeMs = KEY_CACHE_MAX_AGE_MS,
    /**
     * Read when the primary cannot answer (a failover): the replicas, at most their lag
     * bound behind, so callers keep being answered while no change can be made anyway.
     */
    private readonly fallback?: pg.Pool,
  ) {
    feed?.onAccountChange((accountId) => this.forgetAccount(accountId));
    feed?.onReset(() => this.clear());
  }

  async resolve(hash: string): Promise<ResolvedKey | null> {
    const live = this.feed?.live === true;
    const hit = live ? this.byHash.get(hash) : undefined;
    if (hit && Date.now() - hit.readAt < this.maxAgeMs) return hit.key;
    const generation = this.generation;
    const readAt = Date.now();
    const { rows } = await this.pool.query<KeyRow>(KEY_SQL, [hash]).catch((err: unknown) => {
      if (!this.fallback || !isDatabaseUnavailable(err)) throw err;
      return this.fallback.query<KeyRow>(KEY_SQL, [hash]);
    });
    const row = rows[0];
    if (!row) return null;
    const resolved: ResolvedKey = {
      keyId: row.key_id,
      accountId: row.account_id,
      revokedAt: row.revoked_at,
      expiresAt: row.expires_at,
      plan: row.plan,
      status: row.status,
      suspensionReason: row.suspension_reason,
      emailVerified: row.email_verified,
      kind: row.kind,
      monthlyQuotaOverride: row.monthly_quota_override,
      rateLimitOverride: row.rate_limit_override,
      decoy: row.decoy,
      // What this process wrote last, if it is newer than what the database holds yet.
      touchedAt: Math.max(row.last_used_at?.getTime() ?? 0, hit?.key.keyId === row.key_id ? hit.key.touchedAt : 0),
    };
    if (resolved.kind === 'live' && !resolved.decoy) this.remember(hash, resolved.accountId);
    // A key whose account still waits for its e-mail confirmation is read afresh each time:
    // a customer who has just clicked the link calls again at once, before any feed delay.
    if (live && this.feed?.live && generation === this.generation && resolved.emailVerified) this.store(hash, resolved, readAt);
    return resolved;
  }

  /** The account this key's last resolution named (live keys only), for attributing a failed answer. */
  lastAccountOf(hash: string): string | undefined {
    return this.lastAccount.get(hash);
  }

  private remember(hash: string, accountId: string): void {
    if (this.lastAccount.size >= MAX_ENTRIES && !this.lastAccount.has(hash))
      this.lastAccount.delete(this.lastAccount.keys().next().value as string);
    this.lastAccount.set(hash, accountId);
  }

  private store(hash: string, key: ResolvedKey, readAt: number): void {
    // Re-inserted, so that the Map's order stays the order of reading (oldest first).
    this.byHash.delete(hash);
    if (this.byHash.size >= MAX_ENTRIES) {
      const oldest = this.byHash.keys().next().value as string;
      const entry = this.byHash.get(oldest)!;
      this.byHash.delete(oldest);
      this.hashesByAccount.get(entry.key.accountId)?.delete(oldest);
    }
    this.byHash.set(hash, { key, readAt });
    let hashes = this.hashesByAccount.get(key.accountId);
    if (!hashes) this.hashesByAccount.set(key.accountId, (hashes = new Set()));
    hashes.add(hash);
  }

  private forgetAccount(accountId: string): void {
    this.generation++;
    for (const hash of this.hashesByAccount.get(accountId) ?? []) this.byHash.delete(hash);
    this.hashesByAccount.delete(accountId);
  }

  private clear(): void {
    this.generation++;
    this.byHash.clear();
    this.hashesByAccount.clear();
  }
}
