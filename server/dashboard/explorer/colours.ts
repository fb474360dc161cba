/**
 * How quarters are coloured: prices in five classes holding about as many quarters each
 * (quantiles of the quarters that have a figure), their bounds rounded to two significant
 * digits so the legend reads in round francs, and the 12-month change in fixed classes
 * around zero. A quarter without a figure gets no class: it is drawn hatched, never
 * coloured by a guess.
 */
import type { Colour } from '../explorer-config.js';
import type { Format } from './format.js';

/** Light to dark, readable by the colour-blind (ColorBrewer YlGnBu). */
const SEQUENTIAL = ['#ffffcc', '#a1dab4', '#41b6c4', '#2c7fb8', '#253494'];
/** Falls red, rises blue (ColorBrewer RdBu), steady in grey. */
const DIVERGING = ['#ca0020', '#f4a582', '#e8e8e8', '#92c5de', '#0571b0'];
/** The change's classes, in %: below −10, −10 to −3, −3 to +3, +3 to +10, above +10. */
const CHANGE_BREAKS = [-10, -3, 3, 10];

export interface Classes {
  colours: string[];
  /** Upper bounds of every class but the last (a value equal to a bound is in the class below). */
  breaks: number[];
  labels: string[];
}

/** Two significant digits: 153 412 → 150 000. */
function round2(value: number): number {
  if (value === 0) return 0;
  const magnitude = 10 ** (Math.floor(Math.log10(Math.abs(value))) - 1);
  return Math.round(value / magnitude) * magnitude;
}

export function classesOf(colour: Colour, values: number[], f: Format): Classes {
  if (colour === 'change') {
    const p = (v: number) => f.pct(v);
    return {
      colours: DIVERGING,
      breaks: CHANGE_BREAKS,
      labels: [
        f.say('explorer.legend.below', { value: p(-10) }),
        `${p(-10)} – ${p(-3)}`,
        `${p(-3)} – ${p(3)}`,
        `${p(3)} – ${p(10)}`,
        f.say('explorer.legend.above', { value: p(10) }),
      ],
    };
  }
  const sorted = [...values].sort((a, b) => a - b);
  const breaks: number[] = [];
  for (let k = 1; k < SEQUENTIAL.length; k++) {
    const b = round2(sorted[Math.min(sorted.length - 1, Math.floor((k * sorted.length) / SEQUENTIAL.length))] ?? 0);
    if (sorted.length > 0 && b > (breaks.at(-1) ?? -Infinity) && b < sorted[sorted.length - 1]) breaks.push(b);
  }
  const colours = SEQUENTIAL.slice(SEQUENTIAL.length - (breaks.length + 1));
  const unit = colour === 'm2' ? f.say('explorer.legend.perM2') : '';
  const money = (v: number) => `${f.xaf(v)}${unit}`;
  const labels = colours.map((_, i) =>
    breaks.length === 0
      ? money(sorted[0] ?? 0)
      : i === 0
        ? f.say('explorer.legend.upTo', { value: money(breaks[0]) })
        : i === breaks.length
          ? f.say('explorer.legend.above', { value: money(breaks[i - 1]) })
          : `${f.number(breaks[i - 1])} – ${money(breaks[i])}`,
  );
  return { colours, breaks, labels };
}

/** The class of a value: the first whose bound it does not pass. */
export function classOf(classes: Classes, value: number): number {
  const i = classes.breaks.findIndex((b) => value <= b);
  return i < 0 ? classes.breaks.length : i;
}
