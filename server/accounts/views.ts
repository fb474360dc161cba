/**
 * Accounts and keys as the CLI prints them and the dashboard shows them: built from the
 * rows field by field (a key's hash never leaves the database).
 */
import type { PlanName } from '../../contract/plans.js';
import type { Prisma } from '../platform/db.js';
import type { KeyKind } from './api-keys.js';
import { effectiveLimits, isKeyActive, isoDay } from './policy.js';

export interface AccountView {
  id: string;
  email: string;
  company_name: string | null;
  plan: PlanName;
  status: 'active' | 'suspended';
  monthly_quota: number | null;
  rate_limit_per_minute: number | null;
  max_keys: number | null;
  /** Enterprise: last day of the contract (`YYYY-MM-DD`), null when open-ended or not Enterprise. */
  contract_end: string | null;
  suspension_reason: 'operator' | 'non_payment' | null;
  language: 'fr' | 'en';
  email_verified: boolean;
  closed_at: string | null;
  created_at: string;
}

export interface KeyView {
  id: string;
  name: string;
  /** `live`, or `test` (fixed public sample, never counted). */
  kind: KeyKind;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  expires_at: string | null;
  active: boolean;
}

export type AccountRow = Awaited<ReturnType<Prisma['account']['findUniqueOrThrow']>>;
export type KeyRow = Awaited<ReturnType<Prisma['apiKey']['findUniqueOrThrow']>>;

export function accountView(a: AccountRow): AccountView {
  const limits = effectiveLimits(a);
  return {
    id: a.id,
    email: a.email,
    company_name: a.companyName,
    plan: a.plan,
    status: a.status,
    monthly_quota: limits.monthlyQuota,
    rate_limit_per_minute: limits.ratePerMinute,
    max_keys: limits.maxKeys,
    contract_end: a.contractEnd ? isoDay(a.contractEnd) : null,
    suspension_reason: a.suspensionReason,
    language: a.language,
    email_verified: a.emailVerifiedAt !== null,
    closed_at: a.closedAt?.toISOString() ?? null,
    created_at: a.createdAt.toISOString(),
  };
}

export function keyView(k: KeyRow, now = new Date()): KeyView {
  return {
    id: k.id,
    name: k.name,
    kind: k.kind,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
    revoked_at: k.revokedAt?.toISOString() ?? null,
    expires_at: k.expiresAt?.toISOString() ?? null,
    active: isKeyActive(k, now),
  };
}
