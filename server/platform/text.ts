/**
 * The matching key of a city or neighbourhood: lower case, accents and punctuation folded,
 * so `yaounde`, `Yaoundé` and `YAOUNDÉ` all find the same rows.
 */
export function matchKey(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** Edits (insertions, deletions, substitutions, swaps of two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[rows - 1][cols - 1];
}

/**
 * The known names closest to what a caller typed, closest first, compared by matching
 * key: a few typing slips away (up to a third of the name, at least 2), or the start of
 * the name (`bona` → Bonabéri, Bonamoussadi, Bonanjo, Bonapriso). Empty when none is close.
 */
export function closestNames(typed: string, known: Iterable<string>, max = 3): string[] {
  const key = matchKey(typed);
  if (key === '') return [];
  const tolerance = Math.max(2, Math.floor(key.length / 3));
  const scored: Array<{ name: string; score: number }> = [];
  const seen = new Set<string>();
  for (const name of known) {
    if (seen.has(name)) continue;
    seen.add(name);
    const candidate = matchKey(name);
    const distance = editDistance(key, candidate);
    const prefix = key.length >= 3 && candidate.startsWith(key);
    if (distance <= tolerance || prefix) scored.push({ name, score: prefix ? Math.min(distance, 1) : distance });
  }
  scored.sort((x, y) => x.score - y.score || x.name.localeCompare(y.name, 'fr'));
  return scored.slice(0, max).map((s) => s.name);
}

/** C0 control characters and DEL: what no single-line field carries, and PostgreSQL refuses NUL of. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** True when `value` holds a control character; `multiline` lets tabs and line breaks (CR, LF) through. */
export function hasControlCharacter(value: string, multiline = false): boolean {
  return (multiline ? CONTROL_BUT_LINE_BREAKS : CONTROL_CHARACTER).test(value);
}

// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\\]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

/**
 * Customer text as one printable line for a terminal: line breaks, control characters,
 * Unicode line separators and direction overrides written as escapes (`\n`, `\u{202e}`),
 * and the backslash doubled, so what a customer typed can never print as lines of its own.
 */
export function escapeForTerminal(value: string): string {
  return value.replace(UNPRINTABLE, (c) => NAMED[c] ?? `\\u{${c.codePointAt(0)!.toString(16).padStart(4, '0')}}`);
}
