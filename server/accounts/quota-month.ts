/** The quota month is the UTC calendar month; it resets at 00:00 UTC on the 1st. */
export function monthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

/** `YYYY-MM-DD` of a UTC date, as PostgreSQL `date` columns take it. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
