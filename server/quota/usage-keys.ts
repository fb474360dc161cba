/**
 * Where counts not yet in PostgreSQL wait in Redis, and in what form: one hash per
 * database of the per-day, per-endpoint, per-key breakdown, which the Redis store and the
 * leases add to and the usage flusher moves to PostgreSQL every second.
 */
import { createHash } from 'node:crypto';

/**
 * The pending hash, and the batches being flushed. One namespace per database, so
 * deployments sharing a Redis (staging beside production) never flush each other's counts
 * into the wrong database.
 */
export interface UsageKeys {
  pending: string;
  batchPrefix: string;
}

export function usageKeys(namespace: string): UsageKeys {
  return { pending: `mboa:usage:pending:${namespace}`, batchPrefix: `mboa:usage:flushing:${namespace}:` };
}

/** The namespace of a database: its host, port and name, hashed (never its password). */
export function usageNamespaceOf(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return createHash('sha256')
    .update(`${url.hostname}:${url.port || '5432'}/${url.pathname.slice(1)}`)
    .digest('hex')
    .slice(0, 12);
}

/** `acct|YYYY-MM-DD|endpoint|key`: one field of the pending hash. */
export function breakdownField(accountId: string, day: string, endpoint: string, keyId: string): string {
  return `${accountId}|${day}|${endpoint}|${keyId}`;
}

/** The account, day, endpoint and key of a field written by `breakdownField`. */
export function fieldParts(field: string): string[] {
  return field.split('|');
}
