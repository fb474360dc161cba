/**
 * A price as partners write it, to a whole number of XAF: `130 000 FCFA`, `130.000 F CFA`,
 * `CFA 500,000`, `1,2 million`, `1.5M`, `150 000 FCFA/mois`. What is not clearly an amount
 * in XAF is refused with its reason (another currency, a price per day or per m², a range,
 * cents), and a price left to the buyer's call (`Prix : Contactez le vendeur`, `Prix sur
 * demande`) is told apart: such a row is skipped, not rejected. The reasons never quote
 * the cell, which may hold a phone number.
 */

export type PriceReading = { kind: 'amount'; xaf: number } | { kind: 'on_request' } | { kind: 'refused'; reason: string };

/** Words that say the price is given on request, with or without a number nearby. */
const ON_REQUEST = /\b(contact\w*|sur demande|on request|upon request|nous consulter|consulter|appel\w*|call|a negocier)\b/;
/** Words that qualify a price: alone, the price is on request; next to an amount, ignored. */
const NEGOTIABLE = /\b(a debattre|debattre|negociables?|negotiable|nego)\b/;

const OTHER_CURRENCIES: Array<[RegExp, string]> = [
  [/€|\beur\b|\beuros?\b/, 'euros'],
  [/\$|\busd\b|\bdollars?\b/, 'dollars'],
  [/£|\bgbp\b|\bpounds?\b/, 'pounds'],
  [/₦|\bngn\b|\bnaira\b/, 'naira'],
];
const XAF_WORDS = /\b(f\s?cfa|fcfa|cfa|xaf|frs?|francs?)\b|(?<=\d)\s*f\b/g;
const PER_MONTH = /(\/|\bpar\b|\bper\b|\ba\b)\s*(mois|month|mo)\b|\bmensuel(le)?s?\b|\bmonthly\b/g;
const PER_OTHER: Array<[RegExp, string]> = [
  [/(\/|\bpar\b|\bper\b|\ble\b)\s*m2\b/, 'a price per m² (give the whole price)'],
  [/(\/|\bpar\b|\bper\b|\ba\b)\s*(jour|nuit|nuitee|day|night)s?\b|\bjournalier\b/, 'a price per day (rent prices are per month)'],
  [/(\/|\bpar\b|\bper\b|\ba\b)\s*(semaine|week)s?\b/, 'a price per week (rent prices are per month)'],
  [/(\/|\bpar\b|\bper\b)\s*(an|annee|year)s?\b|\bannuel(le)?s?\b/, 'a price per year (rent prices are per month)'],
];
const LABEL = /^(prix|price|loyer|rent|montant|tarif|valeur)\s*:?\s*/;
/** A page's bullet before the amount (`> 130 000 FCFA`): not "more than", nothing to read. */
const BULLET = /^[>•·*»→]+\s*/;
const TAX_WORDS = /\b(ttc|ht|net)\b/g;
const MULTIPLIERS: Array<[RegExp, number]> = [
  [/\b(milliards?|mds?|mrd|billions?|bn)\b/, 9],
  [/\b(millions?|mio|mln|m)\b|(?<=\d)m\b/, 6],
  [/\b(mille|k)\b|(?<=\d)k\b/, 3],
];

/** The text folded for matching: compatibility forms (no-break spaces, ²), accents, case. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

export function readPrice(text: string): PriceReading {
  let s = fold(text).replace(BULLET, '').replace(LABEL, '');
  if (ON_REQUEST.test(s)) return { kind: 'on_request' };
  const negotiable = NEGOTIABLE.test(s);
  s = s.replace(new RegExp(NEGOTIABLE, 'g'), ' ');
  if (!/\d/.test(s)) return negotiable ? { kind: 'on_request' } : refused('is not an amount in XAF (e.g. 130 000 FCFA)');
  for (const [pattern, name] of OTHER_CURRENCIES) {
    if (pattern.test(s)) return refused(`is in ${name}: only XAF (FCFA) is accepted`);
  }
  for (const [pattern, reason] of PER_OTHER) if (pattern.test(s)) return refused(`is ${reason}`);
  s = s.replace(PER_MONTH, ' ').replace(XAF_WORDS, ' ').replace(TAX_WORDS, ' ');
  let exponent = 0;
  for (const [pattern, power] of MULTIPLIERS) {
    if (pattern.test(s)) {
      exponent = power;
      s = s.replace(pattern, ' ');
      break;
    }
  }
  s = s.replace(/[\s:]+$/, '').replace(/^[\s:]+/, '');
  if (/\d\s*(-|–|—|\ba\b|\bto\b)\s*\d/.test(s)) return refused('is a range of prices: give one price');
  const number = readDecimal(s, exponent > 0);
  if ('reason' in number) return refused(number.reason);
  const xaf = scaled(number.digits, number.decimals, exponent);
  return xaf === null ? refused('is not a whole number of XAF') : { kind: 'amount', xaf };
}

function refused(reason: string): PriceReading {
  return { kind: 'refused', reason };
}

/** digits × 10^(exponent − decimals), or null when that leaves a fraction. */
function scaled(digits: string, decimals: number, exponent: number): number | null {
  const shift = exponent - decimals;
  if (shift >= 0) return Number(digits + '0'.repeat(shift));
  const cut = digits.slice(shift);
  if (!/^0+$/.test(cut)) return null;
  return Number(digits.slice(0, shift) || '0');
}

export type DecimalReading = { digits: string; decimals: number } | { reason: string };

/**
 * A number written with thousands separators (space, dot or comma) and maybe a decimal
 * part. `decimalsExpected` (a multiplier follows, or a surface): a single separator is
 * then the decimal mark (`1,2 million`); otherwise a single dot or comma before three
 * digits groups thousands (`130.000`, `500,000`) and a fraction must be zero (`130 000,00`).
 */
export function readDecimal(text: string, decimalsExpected: boolean): DecimalReading {
  const s = text.trim();
  if (!/^\d[\d .,]*$/.test(s) || /[ .,]$/.test(s)) return { reason: 'is not an amount in XAF (e.g. 130 000 FCFA)' };
  let whole: string;
  let fraction = '';
  const spaced = /^(\d{1,3}(?: \d{3})+|\d+)(?:([.,])(\d+))?$/.exec(s);
  const mixed = /^(\d{1,3}(?:([.,])\d{3})+)([.,])(\d+)$/.exec(s);
  const grouped = /^\d{1,3}(?:([.,])\d{3})(?:\1\d{3})+$/.exec(s);
  if (spaced && !(spaced[2] && !s.includes(' ') && !decimalsExpected && spaced[3].length === 3)) {
    whole = spaced[1].replace(/ /g, '');
    fraction = spaced[3] ?? '';
  } else if (mixed && mixed[2] !== mixed[3]) {
    whole = mixed[1].replace(/[.,]/g, '');
    fraction = mixed[4];
  } else if (grouped || (spaced && spaced[3]?.length === 3)) {
    whole = s.replace(/[.,]/g, '');
  } else {
    return { reason: 'is not a number we can read unambiguously (write 130 000, or 1,5 million)' };
  }
  if (fraction !== '' && !decimalsExpected && !/^0+$/.test(fraction)) {
    return { reason: 'has a decimal part: XAF has no minor unit (write 130 000, or 1,5 million)' };
  }
  return { digits: whole + fraction, decimals: fraction.length };
}
