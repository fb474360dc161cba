/**
 * An advert's standing, read from its words (title, description) the way Cameroonian
 * agents write it: `high` ("haut standing", "luxe", "prestige"), `standard` ("moderne",
 * "neuf", "moyen standing", "bon standing"), `basic` ("simple", "sans commodités",
 * "ordinaire"), in French and English, whatever the case and accents; null when the words
 * say none of it. docs/valuations.md gives the lists and what they catch on real adverts.
 *
 * Decisions:
 * - A phrase is matched as whole words, the longest first: "bas standing" is basic, not the
 *   bare "standing" (which agents write for upscale: "appartement standing") inside it.
 * - "bon standing" is `standard`: agents keep "haut standing" for the top of the market and
 *   write "bon standing" for an ordinary modern flat.
 * - When an advert names several levels ("studio simple et moderne"), the highest wins:
 *   it is the level the advert claims, and the one its price asks for.
 * - "new" alone is not read (Douala's New Bell, Buea's New Town); "brand new", "newly
 *   built" are.
 */
import { STANDINGS, type Standing } from '../../../contract/advert-terms.js';
import { matchKey } from '../../platform/text.js';

/** The phrases of each level, as advertisers write them (matched by `matchKey`). */
export const STANDING_WORDS: Readonly<Record<Standing, readonly string[]>> = {
  high: [
    'haut standing',
    'grand standing',
    'super standing',
    'standing',
    'luxe',
    'luxueux',
    'luxueuse',
    'prestige',
    'prestigieux',
    'prestigieuse',
    'haut de gamme',
    'vip',
    'high standing',
    'luxury',
    'luxurious',
    'executive',
    'high end',
    'upscale',
  ],
  standard: [
    'moyen standing',
    'bon standing',
    'standard',
    'moderne',
    'modernes',
    'neuf',
    'neuve',
    'nouvellement construit',
    'nouvelle construction',
    'recent',
    'recente',
    'jamais habite',
    'medium standing',
    'modern',
    'brand new',
    'newly built',
    'newly constructed',
    'never occupied',
  ],
  basic: [
    'bas standing',
    'petit standing',
    'simple',
    'simples',
    'sans commodites',
    'sans commodite',
    'ordinaire',
    'economique',
    'basique',
    'modeste',
    'low standing',
    'basic',
    'low cost',
    'no amenities',
  ],
};

const RANK: Record<Standing, number> = { high: 3, standard: 2, basic: 1 };
const LEVEL_OF = new Map<string, Standing>();
for (const level of STANDINGS) for (const phrase of STANDING_WORDS[level]) LEVEL_OF.set(matchKey(phrase), level);

/** Every phrase, longest first, as whole words of a matchKey'd text. */
const PHRASES = new RegExp(`(?<![a-z0-9])(${[...LEVEL_OF.keys()].sort((a, b) => b.length - a.length).join('|')})(?![a-z0-9])`, 'g');

/** The first word of every phrase: a text with none of them names no level (most adverts), found without the regex. */
const FIRST_WORDS = new Set([...LEVEL_OF.keys()].map((p) => p.split(' ')[0]));
const ASCII = /^[ -~]*$/;

/** `matchKey(text)`, without its Unicode decomposition when the text is printable ASCII (the same result, a third of the time). */
const folded = (text: string) =>
  ASCII.test(text)
    ? text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim()
    : matchKey(text);

/** The level the words name (the highest when several), null when none. */
export function readStanding(...texts: Array<string | null | undefined>): Standing | null {
  let best: Standing | null = null;
  for (const text of texts) {
    if (!text) continue;
    const key = folded(text);
    if (!key.split(' ').some((word) => FIRST_WORDS.has(word))) continue;
    for (const m of key.matchAll(PHRASES)) {
      const level = LEVEL_OF.get(m[1])!;
      if (best === null || RANK[level] > RANK[best]) best = level;
      if (best === 'high') return best;
    }
  }
  return best;
}
