/**
 * The quota as the `X-Quota-*` headers of any answer state it. A streamed export has no
 * JSON `meta`, so its quota can only be read here.
 */

/** The monthly quota from `X-Quota-Limit`, `X-Quota-Remaining` and `X-Quota-Reset`. */
export interface QuotaHeaders {
  /** Calls included this month; null when unlimited (`X-Quota-Limit: unlimited`). */
  limit: number | null;
  /** Calls left this month; null when unlimited. */
  remaining: number | null;
  /** When the count returns to zero (ISO 8601, UTC), from `X-Quota-Reset` in Unix seconds; null when not given. */
  resetsAt: string | null;
}

/** The quota stated by `headers` (names lower-cased), or undefined when they state none. */
export function readQuotaHeaders(headers: Record<string, string>): QuotaHeaders | undefined {
  const limit = headers['x-quota-limit'];
  const remaining = headers['x-quota-remaining'];
  if (limit === undefined && remaining === undefined) return undefined;
  const reset = Number(headers['x-quota-reset']);
  return {
    limit: count(limit),
    remaining: count(remaining),
    resetsAt: headers['x-quota-reset'] !== undefined && Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000).toISOString() : null,
  };
}

/** A whole number of calls, or null for `unlimited` (and anything unreadable). */
function count(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : null;
}
