/**
 * A city's figures per quarter, read the way a customer's code reads them (prices: one
 * `/market/stats` call with `group_by=neighborhood` for every quarter at once; the
 * 12-month change: one `/market/history` call per quarter), and what the map, its legend
 * and the quarters' table show of them. A quarter whose figure rests on fewer listings
 * than the API's floor has no value: it is shown as lacking data.
 */
import type { THistoryResponse } from '../../../contract/history.js';
import type { TMarketStat, TStatsResponse } from '../../../contract/schemas.js';
import type { Colour, ExplorerCity, ExplorerView } from '../explorer-config.js';
import type { Answer, Api } from './api.js';
import { classesOf, classOf } from './colours.js';
import { el, type Format } from './format.js';
import type { NeighborhoodFill } from './map.js';
import { neighborhoodQuery } from './neighborhood.js';

export interface NeighborhoodFigure {
  name: string;
  /** `ok`: a figure; `thin`: too few listings for one; `failed`: the call was refused (said in the status). */
  state: 'ok' | 'thin' | 'failed';
  value: number | null;
  /** Listings the figure rests on. */
  sample: number;
}

export interface CityFigures {
  neighborhoods: NeighborhoodFigure[];
  /** The first refusal met (a plan without history, the session's limit), in the API's words. */
  refusal: { code: string; detail: string } | null;
  /** `sample` when the answers came from the public sample (a test key). */
  dataset: string;
}

type Read = { value: number | null; sample: number };

function readStats(colour: Colour, row: TMarketStat | undefined, min: number): Read {
  if (!row) return { value: null, sample: 0 };
  if (colour === 'm2') {
    const n = row.price_per_m2_sample_size;
    return { value: n >= min ? row.median_price_per_m2 : null, sample: n };
  }
  return { value: row.sample_size >= min ? row.median_price : null, sample: row.sample_size };
}

function readChange(answer: THistoryResponse): Read {
  const last = answer.data.at(-1);
  return { value: last?.median_price_change_pct ?? null, sample: last?.sample_size ?? 0 };
}

/** A quarter's name as the stats rows and the gazetteer may both spell it. */
const fold = (name: string) =>
  name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .trim();

export async function cityFigures(api: Api, view: ExplorerView, city: ExplorerCity, min: number): Promise<CityFigures> {
  const change = view.colour === 'change';
  let refusal: CityFigures['refusal'] = null;
  let dataset = 'live';
  const note = <T>(a: Answer<T>): a is Answer<T> & { ok: true } => {
    if (a.ok) {
      dataset = a.dataset;
      return true;
    }
    refusal ??= { code: a.problem.code, detail: a.problem.detail };
    return false;
  };
  // One call first: a plan without history is told once, not once per quarter.
  if (change) {
    const probe = await api.json<THistoryResponse>('/market/history', { ...neighborhoodQuery(view, null), months: 1 });
    if (!note(probe)) {
      return { neighborhoods: city.neighborhoods.map(([name]) => ({ name, state: 'failed', value: null, sample: 0 })), refusal, dataset };
    }
  }
  const figure = (name: string, read: Read | null): NeighborhoodFigure =>
    read ? { name, state: read.value === null ? 'thin' : 'ok', ...read } : { name, state: 'failed', value: null, sample: 0 };
  if (!change) {
    // Every quarter's row in one call; a quarter without active listings has none.
    const answer = await api.json<TStatsResponse>('/market/stats', { ...neighborhoodQuery(view, null), group_by: 'neighborhood' });
    const rows = new Map<string, TMarketStat>();
    if (note(answer)) for (const row of answer.body.data) if (row.neighborhood !== null) rows.set(fold(row.neighborhood), row);
    const neighborhoods = city.neighborhoods.map(([name]) =>
      figure(name, answer.ok ? readStats(view.colour, rows.get(fold(name)), min) : null),
    );
    return { neighborhoods, refusal, dataset };
  }
  const neighborhoods = await Promise.all(
    city.neighborhoods.map(async ([name]): Promise<NeighborhoodFigure> => {
      const answer = await api.json<THistoryResponse>('/market/history', { ...neighborhoodQuery(view, name), months: 1 });
      return figure(name, note(answer) ? readChange(answer.body) : null);
    }),
  );
  return { neighborhoods, refusal, dataset };
}

/** What a quarter's figure is, in words (its shape's label, its row in the table). */
function figureText(colour: Colour, q: NeighborhoodFigure, f: Format, min: number): string {
  if (q.state === 'failed') return f.say('explorer.figure.failed');
  if (q.value === null) return f.say('explorer.figure.thin', { n: q.sample, min });
  return colour === 'change' ? f.pct(q.value) : colour === 'm2' ? `${f.xaf(q.value)}${f.say('explorer.legend.perM2')}` : f.xaf(q.value);
}

export interface Drawn {
  fills: Map<string, NeighborhoodFill>;
  legend: HTMLElement;
  rows: HTMLTableRowElement[];
  coloured: number;
}

export function drawFigures(colour: Colour, figures: CityFigures, f: Format, min: number): Drawn {
  const values = figures.neighborhoods.filter((q) => q.value !== null).map((q) => q.value!);
  const classes = classesOf(colour, values, f);
  const fills = new Map<string, NeighborhoodFill>();
  const rows: HTMLTableRowElement[] = [];
  for (const q of figures.neighborhoods) {
    const text = figureText(colour, q, f, min);
    const colourOf = q.value === null ? null : classes.colours[classOf(classes, q.value)];
    fills.set(q.name, { colour: colourOf, label: `${q.name}: ${text}` });
    rows.push(
      el(
        'tr',
        { 'data-neighborhood': q.name, 'data-state': q.state },
        el('th', { scope: 'row' }, el('button', { type: 'button', class: 'link', 'data-neighborhood': q.name }, q.name)),
        el('td', { class: 'num', 'data-value': q.value ?? '' }, q.value === null ? '—' : text),
        el('td', { class: 'num' }, f.number(q.sample)),
      ),
    );
  }
  // Colours go through the CSSOM: the CSP refuses style attributes.
  const swatch = (colour: string | null, label: string) => {
    const box = el('span', { class: colour ? 'swatch' : 'swatch swatch-none', 'aria-hidden': 'true' });
    if (colour) box.style.background = colour;
    return el('li', {}, box, label);
  };
  const legend = el(
    'ul',
    { class: 'legend-list' },
    ...(values.length ? classes.colours.map((c, i) => swatch(c, classes.labels[i])) : []),
    swatch(null, f.say('explorer.legend.thin', { min })),
  );
  return { fills, legend, rows, coloured: values.length };
}
