/**
 * PostgreSQL array literals (`{"a","b",NULL}`) for the unnest() parameters of batch
 * writes. node-postgres can serialise JS arrays itself, but element by element through
 * generic code; at a million rows that work and its garbage cost more CPU than the
 * database's own parsing. These encoders do the one thing needed.
 */

const NEEDS_ESCAPE = /["\\]/;
const ESCAPE = /["\\]/g;

export function textArray(values: readonly (string | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) parts[i] = 'NULL';
    else parts[i] = NEEDS_ESCAPE.test(v) ? `"${v.replace(ESCAPE, '\\$&')}"` : `"${v}"`;
  }
  return `{${parts.join(',')}}`;
}

export function numberArray(values: readonly (number | null)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] = v === null ? 'NULL' : String(v);
  }
  return `{${parts.join(',')}}`;
}
