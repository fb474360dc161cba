/**
 * Counts and sizes as partners write them: `3 Chambres`, `2 ch`, `Studio` (no separate
 * bedroom), `2 Salles de bain`, `1 douche`, `deux chambres`; `120 m²`, `85,5 m2`,
 * `1 ha`. A cell that names the other count (`2 salles de bain` under bedrooms: a shifted
 * column) or rooms in general (`3 pièces`) is refused with its reason, never guessed.
 */
import { matchKey } from '../platform/text.js';
import { readDecimal } from './money.js';

export type CountField = 'bedrooms' | 'bathrooms';
export type Reading = { ok: true; value: number } | { ok: false; reason: string };

const WORDS: Record<string, number> = {
  zero: 0,
  aucune: 0,
  aucun: 0,
  none: 0,
  no: 0,
  un: 1,
  une: 1,
  one: 1,
  deux: 2,
  two: 2,
  trois: 3,
  three: 3,
  quatre: 4,
  four: 4,
  cinq: 5,
  five: 5,
  six: 6,
  sept: 7,
  seven: 7,
  huit: 8,
  eight: 8,
  neuf: 9,
  nine: 9,
  dix: 10,
  ten: 10,
};

/** What may follow the number, per count (after matchKey: accents and apostrophes folded). */
const NOUNS: Record<CountField, RegExp> = {
  bedrooms: /^(chambres?( a coucher)?|chbres?|chbs?|chs?|cac|bedrooms?|beds?|bdrs?|brs?|bd)$/,
  bathrooms: /^(salles? de bains?|salles? d eau|sdb|sde|douches?|bathrooms?|baths?|ba|shower rooms?|showers?)$/,
};
const OTHER: Record<CountField, CountField> = { bedrooms: 'bathrooms', bathrooms: 'bedrooms' };

export function readRoomCount(field: CountField, text: string): Reading {
  const key = matchKey(text);
  if (key === '') return { ok: false, reason: 'must be a number' };
  if (field === 'bedrooms' && /^(un )?studio( meuble)?$/.test(key)) return { ok: true, value: 0 };
  const m = /^(\d+|[a-z]+)(?: (.*))?$/.exec(key);
  const count = m ? (/^\d+$/.test(m[1]) ? Number(m[1]) : WORDS[m[1]]) : undefined;
  const noun = m?.[2] ?? '';
  if (count !== undefined && (noun === '' || NOUNS[field].test(noun))) return { ok: true, value: count };
  if (/\d+ \d+/.test(key) && /[.,]/.test(text)) return { ok: false, reason: 'must be a whole number' };
  if (count !== undefined && NOUNS[OTHER[field]].test(noun)) {
    return { ok: false, reason: `names ${OTHER[field]}, not ${field} (a shifted column?)` };
  }
  if (/\bpieces?\b|\brooms?\b/.test(key)) return { ok: false, reason: `counts rooms (pièces), not ${field}` };
  return { ok: false, reason: `must be a number of ${field} (e.g. ${field === 'bedrooms' ? '3 chambres' : '2 salles de bain'})` };
}

const SQUARE_METRES = /\s*(m2|m 2|metres? carres?|meters? square|square met(er|re)s?|sq ?m|sqm)$/;
const HECTARES = /\s*(ha|hectares?)$/;

/** A surface in m² from `120 m²`, `85,5 m2`, `1 200 m²` or `1,5 ha`. */
export function readSurface(text: string): Reading {
  let s = text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
  let factor = 1;
  if (HECTARES.test(s)) {
    factor = 10_000;
    s = s.replace(HECTARES, '');
  } else {
    s = s.replace(SQUARE_METRES, '');
  }
  const n = readDecimal(s, true);
  if ('reason' in n) return { ok: false, reason: 'must be a surface in m² (e.g. 120 m²)' };
  // `1.200 m²` of land is 1,200 m²: a single dot or comma before three digits groups thousands.
  const value = /^\d{1,3}[.,]\d{3}$/.test(s) ? Number(n.digits) : Number(n.digits) / 10 ** n.decimals;
  return { ok: true, value: value * factor };
}
