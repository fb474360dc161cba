/**
 * A saved search's filters, between the forms they take: the parsed filters of a request
 * body, the text a `GET /listings` query string would carry (what is stored and shown),
 * and back to the search's effective filters through the contract's own schema.
 */
import { ZListingFilters, type TListingFilters } from '../../../contract/schemas.js';
import { type EffectiveFilters, effectiveFilters } from '../../domain/listing/filters.js';

type Parsed = Partial<TListingFilters>;

function textOf(name: string, value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value && typeof value === 'object') {
    const v = value as Record<string, number>;
    if (name === 'near') return `${v.lat},${v.lng}`;
    if (name === 'bbox') return `${v.minLng},${v.minLat},${v.maxLng},${v.maxLat}`;
  }
  return String(value);
}

/** The parsed filters as query-string text (`type: ['flat','villa']` → `'flat,villa'`). */
export function filtersAsText(filters: Parsed): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(filters)) if (value !== undefined) out[name] = textOf(name, value);
  return out;
}

/** Stored filters as the search applies them (they were valid when saved; the schema reads them again). */
export function savedFiltersOf(text: Record<string, string>): { query: TListingFilters; effective: EffectiveFilters } {
  const query = ZListingFilters.parse(text);
  return { query, effective: effectiveFilters(query) };
}
