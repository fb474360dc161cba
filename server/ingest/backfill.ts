/**
 * `admin import --listed-at DAY`: a backfill of old adverts names the day they were
 * listed, so rows without their own `listed_at` are not dated from the import day (which
 * would show years-old adverts as this month's market in the history and trends). A
 * row's own date stands; the day is never later than the row's `updated_at` or
 * `removed_at`, which must not precede it.
 */
import type { StoredRecord } from './record.js';

export function backfillDate(record: StoredRecord, listedAt: Date): void {
  if (record.listed_at) return;
  let day = listedAt.getTime();
  for (const later of [record.updated_at, record.removed_at]) if (later) day = Math.min(day, Date.parse(later));
  record.listed_at = new Date(day).toISOString();
}
