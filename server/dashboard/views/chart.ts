/**
 * The calls-per-day bar chart, drawn on the server as inline SVG: no library, no script
 * needed to see it. Two sizes are drawn (wide and narrow) so labels stay legible on a
 * phone; CSS shows one. A few lines of script only add a tap-to-read caption.
 */
import { formatNumber, formatShortDay, dayDate } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { t } from '../i18n.js';

export interface DayCalls {
  /** `YYYY-MM-DD` */
  day: string;
  calls: number;
}

/** 1, 2, 5, 10, 20, 50… at or above x. */
export function niceStep(x: number): number {
  if (x <= 1) return 1;
  const exp = 10 ** Math.floor(Math.log10(x));
  const f = x / exp;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * exp;
}

export function yAxis(max: number): { top: number; ticks: number[] } {
  const step = niceStep(max / 4);
  const top = step * Math.max(1, Math.ceil(max / step));
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return { top, ticks };
}

interface Size {
  width: number;
  height: number;
  font: number;
  /** Label every n-th day on the x axis (day 1 always). */
  labelEvery: number;
  className: string;
}

const WIDE: Size = { width: 720, height: 250, font: 12, labelEvery: 1, className: 'chart-wide' };
const NARROW: Size = { width: 340, height: 230, font: 11, labelEvery: 5, className: 'chart-narrow' };

function draw(lang: Lang, days: DayCalls[], size: Size, output: string, label: string): SafeHtml {
  const padL = size.font * 3.6;
  const padR = 6;
  const padT = size.font;
  const padB = size.font * 2.2;
  const plotW = size.width - padL - padR;
  const plotH = size.height - padT - padB;
  const max = Math.max(0, ...days.map((d) => d.calls));
  const { top, ticks } = yAxis(max);
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, slot * 0.7);
  const y = (v: number) => padT + plotH - (v / top) * plotH;
  const f = (x: number) => x.toFixed(1);
  const grid = ticks.map(
    (v) =>
      html`<line class="grid" x1="${f(padL)}" x2="${f(size.width - padR)}" y1="${f(y(v))}" y2="${f(y(v))}"></line><text class="tick" x="${f(padL - 4)}" y="${f(y(v) + size.font * 0.35)}" text-anchor="end" font-size="${size.font}">${formatNumber(lang, v)}</text>`,
  );
  const bars = days.map((d, i) => {
    const x = padL + i * slot;
    const h = (d.calls / top) * plotH;
    const dayNumber = i + 1;
    const text = t(lang, 'usage.chart.bar', { day: formatShortDay(lang, dayDate(d.day)), n: formatNumber(lang, d.calls) });
    const showLabel = dayNumber === 1 || dayNumber % size.labelEvery === 0;
    return html`<g class="day" data-label="${text}" data-day="${d.day}" data-calls="${d.calls}" tabindex="-1"><title>${text}</title><rect class="hit" x="${f(x)}" y="${f(padT)}" width="${f(slot)}" height="${f(plotH)}"></rect>${
      d.calls > 0
        ? html`<rect class="bar" x="${f(x + (slot - barW) / 2)}" y="${f(y(d.calls))}" width="${f(barW)}" height="${f(Math.max(1, h))}" rx="1.5"></rect>`
        : ''
    }${showLabel ? html`<text class="tick" x="${f(x + slot / 2)}" y="${f(size.height - padB + size.font * 1.4)}" text-anchor="middle" font-size="${size.font}">${dayNumber}</text>` : ''}</g>`;
  });
  return html`<svg class="chart ${size.className}" viewBox="0 0 ${size.width} ${size.height}" role="img" aria-label="${label}" data-output="${output}">${grid}<line class="axis" x1="${f(padL)}" x2="${f(size.width - padR)}" y1="${f(y(0))}" y2="${f(y(0))}"></line>${bars}</svg>`;
}

export function barChart(lang: Lang, days: DayCalls[], o: { label: string; id: string }): SafeHtml {
  const output = `${o.id}-readout`;
  return html`<figure class="chart-box" id="${o.id}">
${draw(lang, days, WIDE, output, o.label)}${draw(lang, days, NARROW, output, o.label)}
<figcaption><span class="hint">${t(lang, 'usage.chart.tap')}</span> <output id="${output}" class="readout" aria-live="polite"></output></figcaption>
</figure>`;
}
