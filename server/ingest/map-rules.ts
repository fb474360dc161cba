/**
 * The parts of a column map (column-map.ts) that read a row as a whole rather than one
 * cell: a column split into several fields, labels found by pattern or keyword in any
 * column, labels meaning "unknown", and a reference written from the row's content when
 * the file has none. Each reader refuses a wrong map with the key at fault and its fix.
 */
import { createHash } from 'node:crypto';
import { matchKey } from '../platform/text.js';

export class ColumnMapError extends Error {}

export type Scalar = string | number;

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export const quoted = (name: string) => JSON.stringify(name);

/** What a cell says when its writer did not know: the row has no value there. */
export const UNKNOWN_LABELS = [
  'NA',
  'N/A',
  'N.A.',
  'N/D',
  'ND',
  'NC',
  '-',
  '--',
  '—',
  '?',
  'null',
  'nil',
  'inconnu',
  'unknown',
  'non renseigné',
  'non communiqué',
];

/** A label as compared with the unknown labels: case, accents and spacing aside, punctuation kept (`-`, `N/D`). */
export const unknownKey = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

// ---------------------------------------------------------------- split

/** One part: its position (1 first, −1 last) or a range `"2..-1"` of parts joined with ", ". */
type Part = { from: number; to: number };

export interface SplitSpec {
  separator: string;
  parts: Array<[string, Part]>;
  /** Parts equal to the row's city are left out before the other fields' parts are counted. */
  skipCity: boolean;
  /** The whole cell also feeds this field (e.g. street_address). */
  field: string | null;
}

function readPart(at: string, v: unknown): Part {
  if (typeof v === 'number' && Number.isInteger(v) && v !== 0) return { from: v, to: v };
  const m = typeof v === 'string' ? /^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*$/.exec(v) : null;
  if (m && Number(m[1]) !== 0 && Number(m[2]) !== 0) return { from: Number(m[1]), to: Number(m[2]) };
  throw new ColumnMapError(
    `${at}: ${JSON.stringify(v)} is not a part; write its position (1 the first part, -1 the last) or a range such as "1..-3" (parts joined with ", ")`,
  );
}

export function readSplit(at: string, spec: Record<string, unknown>, isField: (f: string) => boolean, fields: string): SplitSpec {
  for (const key of Object.keys(spec)) {
    if (!['field', 'split', 'parts', 'skip_city'].includes(key)) {
      throw new ColumnMapError(`${at}.${quoted(key)}: unknown key; a column object has "split", "parts", "skip_city" and "field"`);
    }
  }
  const field = spec.field ?? null;
  if (field !== null && (typeof field !== 'string' || !isField(field))) {
    throw new ColumnMapError(`${at}.field: ${JSON.stringify(field)} is not a field; the fields are ${fields}`);
  }
  if (spec.split === undefined) {
    if (field === null)
      throw new ColumnMapError(`${at}: an object needs "split" (and "parts") or "field"; or write the field's name, or null`);
    return { separator: '', parts: [], skipCity: false, field };
  }
  if (typeof spec.split !== 'string' || spec.split === '') {
    throw new ColumnMapError(`${at}.split: must be the separator between parts, a non-empty string such as "," or "/"`);
  }
  if (!isObject(spec.parts) || Object.keys(spec.parts).length === 0) {
    throw new ColumnMapError(`${at}.parts: must name the fields the parts give, e.g. { "neighborhood": -3, "city": -2 }`);
  }
  const parts: Array<[string, Part]> = [];
  for (const [f, v] of Object.entries(spec.parts)) {
    if (!isField(f)) throw new ColumnMapError(`${at}.parts.${quoted(f)}: not a field; the fields are ${fields}`);
    parts.push([f, readPart(`${at}.parts.${quoted(f)}`, v)]);
  }
  if (spec.skip_city !== undefined && typeof spec.skip_city !== 'boolean')
    throw new ColumnMapError(`${at}.skip_city: must be true or false`);
  // The city first: the other parts are counted without it when skip_city.
  parts.sort(([a], [b]) => Number(b === 'city') - Number(a === 'city'));
  return { separator: spec.split, parts, skipCity: spec.skip_city === true, field };
}

function take(parts: string[], p: Part): string | undefined {
  const at = (n: number) => (n > 0 ? n - 1 : parts.length + n);
  const from = at(p.from);
  const to = at(p.to);
  if (from < 0 || to >= parts.length || from > to) return undefined;
  const chosen = parts.slice(from, to + 1).filter((s) => s !== '');
  return chosen.length > 0 ? chosen.join(', ') : undefined;
}

/** The fields one split cell gives, into `value` (a field already set by another column wins). */
export function applySplit(spec: SplitSpec, cell: string, value: Record<string, unknown>): void {
  if (spec.field && value[spec.field] === undefined) value[spec.field] = cell;
  if (spec.parts.length === 0) return;
  let parts = cell.split(spec.separator).map((s) => s.trim());
  for (const [field, part] of spec.parts) {
    if (field !== 'city' && spec.skipCity && typeof value.city === 'string') {
      const city = matchKey(value.city);
      parts = parts.filter((s) => matchKey(s) !== city);
    }
    const got = take(parts, part);
    if (got !== undefined && value[field] === undefined) value[field] = got;
  }
}

// ---------------------------------------------------------------- match

export interface MatchRule {
  /** Fields or synthetic column keys whose text is searched. */
  in: string[];
  pattern?: RegExp;
  keywords?: string[];
  value: Scalar | null;
}

/** A pattern or keyword folded as cells are: accents off, lower case. */
const foldLetters = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export function readRule(
  at: string,
  rule: unknown,
  inKey: (name: string) => string | undefined,
  check: (at: string, v: unknown) => Scalar | null,
): MatchRule {
  if (!isObject(rule))
    throw new ColumnMapError(`${at}: must be an object { "in": "column", "keywords": [...] or "pattern": "...", "value": ... }`);
  for (const key of Object.keys(rule)) {
    if (!['in', 'pattern', 'keywords', 'value'].includes(key)) {
      throw new ColumnMapError(`${at}.${quoted(key)}: unknown key; a rule has "in", "pattern" or "keywords", and "value"`);
    }
  }
  const names = typeof rule.in === 'string' ? [rule.in] : rule.in;
  if (!Array.isArray(names) || names.length === 0 || names.some((n) => typeof n !== 'string')) {
    throw new ColumnMapError(`${at}.in: must name the column(s) or field(s) to search, e.g. "title" or ["Designation", "Description"]`);
  }
  const keys = (names as string[]).map((n) => {
    const k = inKey(n);
    if (k === undefined) throw new ColumnMapError(`${at}.in: ${quoted(n)} is neither a field nor a column named in "columns"`);
    return k;
  });
  if ((rule.pattern === undefined) === (rule.keywords === undefined)) {
    throw new ColumnMapError(`${at}: give either "pattern" (a regular expression) or "keywords" (a list of words), not both nor neither`);
  }
  let pattern: RegExp | undefined;
  if (rule.pattern !== undefined) {
    if (typeof rule.pattern !== 'string') throw new ColumnMapError(`${at}.pattern: must be a string (a regular expression)`);
    try {
      pattern = new RegExp(foldLetters(rule.pattern), 'u');
    } catch (err) {
      throw new ColumnMapError(`${at}.pattern: not a regular expression (${(err as Error).message}); escape special characters with \\\\`);
    }
  }
  let keywords: string[] | undefined;
  if (rule.keywords !== undefined) {
    const list = rule.keywords;
    if (!Array.isArray(list) || list.length === 0 || list.some((k) => typeof k !== 'string' || matchKey(k) === '')) {
      throw new ColumnMapError(`${at}.keywords: must be a non-empty list of words or phrases, e.g. ["meublé", "furnished"]`);
    }
    keywords = (list as string[]).map((k) => ` ${matchKey(k)} `);
  }
  if (!('value' in rule)) throw new ColumnMapError(`${at}.value: missing; the value the field gets when the rule matches (null: unknown)`);
  return { in: keys, pattern, keywords, value: check(`${at}.value`, rule.value) };
}

/** The first rule whose pattern or keyword is found in its columns, or undefined. */
export function firstMatch(rules: MatchRule[], value: Record<string, unknown>): MatchRule | undefined {
  for (const rule of rules) {
    for (const key of rule.in) {
      const cell = value[key];
      if (typeof cell !== 'string' && typeof cell !== 'number') continue;
      const text = String(cell);
      if (rule.pattern && rule.pattern.test(foldLetters(text))) return rule;
      if (rule.keywords) {
        const words = ` ${matchKey(text)} `;
        if (rule.keywords.some((k) => words.includes(k))) return rule;
      }
    }
  }
  return undefined;
}

// ---------------------------------------------------------------- reference

export interface ReferenceSpec {
  prefix: string;
  /** Fields or synthetic column keys whose content makes the reference; empty: every cell of the row. */
  from: string[];
}

export function readReference(at: string, spec: unknown, inKey: (name: string) => string | undefined): ReferenceSpec {
  if (spec === true) return { prefix: '', from: [] };
  if (!isObject(spec)) throw new ColumnMapError(`${at}: must be true or an object { "prefix": "...", "from": ["column", ...] }`);
  for (const key of Object.keys(spec)) {
    if (!['prefix', 'from'].includes(key)) throw new ColumnMapError(`${at}.${quoted(key)}: unknown key; the keys are "prefix" and "from"`);
  }
  if (spec.prefix !== undefined && typeof spec.prefix !== 'string') throw new ColumnMapError(`${at}.prefix: must be a string`);
  const from = spec.from ?? [];
  if (!Array.isArray(from) || from.some((n) => typeof n !== 'string')) {
    throw new ColumnMapError(`${at}.from: must be a list of the columns or fields that identify an advert`);
  }
  const keys = (from as string[]).map((n) => {
    const k = inKey(n);
    if (k === undefined) throw new ColumnMapError(`${at}.from: ${quoted(n)} is neither a field nor a column named in "columns"`);
    return k;
  });
  return { prefix: (spec.prefix as string | undefined) ?? '', from: keys };
}

/**
 * A reference from the row's content: the same cells always give the same reference, so a
 * re-import finds its listings again; the n-th row of the same content in one file gets
 * `-n` (identical units of one agent stay apart, folded as repeats by the import).
 */
export function contentReference(spec: ReferenceSpec, value: Record<string, unknown>, seen: Map<string, number>): string {
  const keys =
    spec.from.length > 0
      ? spec.from
      : Object.keys(value)
          .filter((k) => k !== 'source_ref')
          .sort();
  const content = JSON.stringify(keys.map((k) => [k, value[k] ?? null]));
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 16);
  const n = (seen.get(hash) ?? 0) + 1;
  seen.set(hash, n);
  return `${spec.prefix}${hash}${n > 1 ? `-${n}` : ''}`;
}
