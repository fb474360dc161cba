/**
 * Labels the views work out from data: the words for an account's suspension and for a
 * plan's support level (picked from the message catalogue, i18n.ts, which holds every
 * translated string), and the plans table's names for endpoints (the same in both languages).
 */
import type { SupportLevel } from '../../contract/plans.js';
import type { Lang } from '../platform/lang.js';
import { t } from './i18n.js';

/** Why an account is suspended and what restores it, in the customer's words. */
export function suspendedText(lang: Lang, account: { status: string; suspensionReason?: string | null }): string {
  return t(lang, account.suspensionReason === 'non_payment' ? 'suspended.nonPayment' : 'suspended');
}

/** Labels of the endpoints as the plans table names them. */
export const ENDPOINT_LABELS: Record<string, string> = {
  ping: 'ping',
  'listings.search': 'listings',
  'listings.get': 'listings/{id}',
  'market.stats': 'market/stats',
  'market.trends': 'market/trends',
  'market.history': 'market/history',
  'exports.listings': 'exports/listings',
};

/** A plan's support level, as the plans table states it. */
export function supportText(lang: Lang, level: SupportLevel): string {
  return t(lang, `plans.support.${level}`);
}
