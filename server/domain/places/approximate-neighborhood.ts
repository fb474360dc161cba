/**
 * Quarter names as advertisers write them, when the gazetteer and the operators' aliases
 * know no such name (gazetteer.ts `resolveNeighborhood` failed):
 *
 * - every part of a multi-part address (`Rue 1.234, Makepe`, `Makepe / Douala`);
 * - landmark and street words around a known name (`Lycée de Logpom`, `Carrefour
 *   Bépanda`, `Entrée Simbock`, `en face de ...`, `Makepe garage ...`);
 * - `n` for `m` before `b` or `p` (`Manbanda`: Mambanda);
 * - a dropped or doubled final letter of a word (`Bepand`, `Kotto` for `Koto`);
 * - one slip (a letter added, dropped, changed, or two swapped) in a name of six letters
 *   or more.
 *
 * A match stands only when every candidate found at the first step that finds any (for
 * spellings: of the closest kind) is the same quarter; otherwise the name stays unresolved (never a guess between two quarters).
 * Each match says how it was made, for the import report, and an operator overrules it
 * with `admin alias add` (another quarter) or `admin alias refuse` (no quarter).
 */
import type { GazetteerCity, OperatorAliases, Neighborhood } from './gazetteer.js';
import { foldNeighborhood, resolveNeighborhood } from './gazetteer.js';
import { editDistance, matchKey } from '../../platform/text.js';

export interface Approximate {
  neighborhood: Neighborhood;
  /** How: `part "Makepe"`, `landmark words around "Logpom"`, `spelling "Mambanda"`. */
  how: string;
}

/** Words that say where, around a quarter's name (folded: no accents, lower case). */
const LANDMARK = new Set(
  (
    'lycee college ecole school carrefour carr rond point entree entrance face en derriere pres de du des d la le l les a au aux cote apres avant ' +
    'vers near behind opposite after before junction rue avenue av boulevard bd street road route quartier qtier marche market station ' +
    'garage pharmacie eglise church mosquee hotel hopital hospital snack boulangerie agence ancien ancienne nouvelle nouveau new old ' +
    'cite stade pont bridge mairie universite lieu dit dite non loin the of in at on'
  ).split(' '),
);
/** Words that may start what follows a quarter's name (`Makepe lycée bilingue`, `Bonamoussadi carrefour`). */
const TRAILING = new Set(
  'lycee college ecole school carrefour carr entree face derriere pres cote apres avant vers near behind opposite after before junction rue avenue street road route marche market station garage pharmacie eglise church mosquee hotel hopital hospital snack boulangerie agence stade pont bridge mairie universite'.split(
    ' ',
  ),
);

/** `n` before `b` or `p` as `m` (French spelling): Manbanda and Mambanda alike. */
const phonetic = (folded: string) => folded.replace(/n(?=[bp])/g, 'm');

const topOf = (q: Neighborhood) => q.key;

/** The one quarter all `found` stand for, or null when none or several. */
function single(found: Neighborhood[]): Neighborhood | null {
  if (found.length === 0) return null;
  const keys = new Set(found.map(topOf));
  if (keys.size !== 1) return null;
  // The top-level quarter's own entry when among them, else the first (a sub-quarter).
  return found.find((q) => q.name === q.neighborhood) ?? found[0];
}

/** The spans of a part's words that may be the quarter's name, with landmark words around them. */
function spans(part: string): string[] {
  const words = matchKey(part).split(' ').filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (i > 0 && !LANDMARK.has(words[i - 1])) break; // only landmark words before the name
    for (let j = words.length; j > i; j--) {
      if (i === 0 && j === words.length) continue; // the part itself: tried already
      if (j < words.length && !TRAILING.has(words[j])) continue;
      const span = words.slice(i, j).join(' ');
      if (span.replace(/ /g, '').length >= 4 && !words.slice(i, j).every((w) => LANDMARK.has(w))) out.push(span);
    }
  }
  return out;
}

/** Known names one slip from `text`, by the rules of the header; empty when none. */
function spelled(city: GazetteerCity, text: string): Array<[string, Neighborhood, number]> {
  const folded = phonetic(foldNeighborhood(text));
  const words = matchKey(text).split(' ');
  if (folded.length < 4) return [];
  const found: Array<[string, Neighborhood, number]> = [];
  for (const name of city.names) {
    const known = phonetic(foldNeighborhood(name));
    const q = city.byName.get(foldNeighborhood(name));
    if (!q || known === '') continue;
    if (known === folded) {
      found.push([name, q, 0]);
      continue;
    }
    const knownWords = matchKey(name).split(' ');
    if (knownWords.length === words.length && knownWords.every((w, i) => w === words[i] || finalLetter(w, words[i]))) {
      found.push([name, q, 1]);
      continue;
    }
    if (folded.length >= 6 && known.length >= 6 && editDistance(folded, known) === 1) found.push([name, q, 2]);
  }
  return found;
}

/** `b` is `a` with its final letter dropped or doubled (or the reverse); words of four letters or more. */
function finalLetter(a: string, b: string): boolean {
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  if (short.length < 4 || long.length !== short.length + 1 || !long.startsWith(short)) return false;
  return /[a-z]$/.test(long);
}

export function approximateNeighborhood(city: GazetteerCity, raw: string, aliases?: OperatorAliases): Approximate | null {
  // An operator's word on this name (an alias, or a refusal) stands.
  if (aliases?.get(city.key)?.has(foldNeighborhood(raw))) return null;
  const parts = raw
    .split(/[,;/()|]|\s[-–]\s/)
    .map((p) => p.trim())
    .filter((p) => p !== '' && foldNeighborhood(p) !== city.key && matchKey(p) !== matchKey(city.name));
  // 1. A part that is a known name as it stands.
  if (parts.length > 1) {
    const hits = parts.map((p) => [p, resolveNeighborhood(city, p, aliases)] as const).filter(([, q]) => q !== null);
    const q = single(hits.map(([, h]) => h!));
    if (q) return { neighborhood: q, how: `part "${hits.find(([, h]) => h === q)![0]}"` };
    if (hits.length > 0) return null;
  }
  // 2. A known name with landmark or street words around it.
  const landmarks: Array<[string, Neighborhood]> = [];
  for (const p of parts) {
    for (const span of spans(p)) {
      const q = resolveNeighborhood(city, span, aliases);
      if (q) landmarks.push([span, q]);
    }
  }
  if (landmarks.length > 0) {
    const q = single(landmarks.map(([, h]) => h));
    return q ? { neighborhood: q, how: `landmark words around "${q.name}"` } : null;
  }
  // 3. A slip in the name, in a part, or between landmark words.
  // The closest kind of slip found decides: n/m first, then a final letter, then any one slip.
  const found = parts.flatMap((p) => [p, ...spans(p)].flatMap((text) => spelled(city, text)));
  const best = Math.min(...found.map(([, , rank]) => rank));
  const slips = new Map(found.filter(([, , rank]) => rank === best).map(([name, q]) => [name, q]));
  const q = single([...slips.values()]);
  const names = [...slips.keys()].join('", "');
  return q ? { neighborhood: q, how: `spelling of "${names}"${names === q.name ? '' : ` (${q.name})`}` } : null;
}
