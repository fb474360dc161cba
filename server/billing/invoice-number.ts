/** Invoice numbers: one series without gaps, shown `MBOA-000042`. */
export function displayNumber(n: number): string {
  return `MBOA-${String(n).padStart(6, '0')}`;
}

/** `42`, `000042` or `MBOA-000042` (any case); null for anything else. */
export function parseInvoiceNumber(value: string): number | null {
  const m = /^(?:MBOA-)?(\d{1,9})$/i.exec(value.trim());
  if (!m) return null;
  const n = Number(m[1]);
  return n >= 1 ? n : null;
}
