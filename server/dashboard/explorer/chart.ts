/**
 * A quarter's history as a chart (uPlot, served from this server in the page's script):
 * the median price and its quartiles on the left axis, active listings as bars on the
 * right. A month whose figures rest on too few listings has no median: the line breaks
 * there and the month is shaded, so an absent figure is seen as absent, never bridged.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { THistoryPoint } from '../../../contract/history.js';
import type { Format } from './format.js';

const HEIGHT = 280;
const HALF_MONTH_S = 15 * 86_400;

const secondsOf = (month: string) => Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)) - 1, 1) / 1000;
const monthOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 7);

export function historyChart(container: HTMLElement, points: THistoryPoint[], f: Format): uPlot {
  const xs = points.map((p) => secondsOf(p.month));
  const absent = points.map((p) => p.median_price === null);
  const money = (_: uPlot, v: number | null) => (v === null ? f.say('explorer.chart.absent') : f.xaf(v));
  const shade = (u: uPlot) => {
    const { ctx, bbox } = u;
    ctx.save();
    ctx.fillStyle = 'rgba(120, 120, 120, 0.13)';
    absent.forEach((gone, i) => {
      if (!gone) return;
      const x0 = u.valToPos(xs[i] - HALF_MONTH_S, 'x', true);
      const x1 = u.valToPos(xs[i] + HALF_MONTH_S, 'x', true);
      ctx.fillRect(x0, bbox.top, x1 - x0, bbox.height);
    });
    ctx.restore();
  };
  const options: uPlot.Options = {
    width: Math.max(280, container.clientWidth),
    height: HEIGHT,
    scales: { x: { time: true }, xaf: { range: (_u, min, max) => [0, Math.max(max, min) * 1.1 || 1] }, n: {} },
    series: [
      { label: f.say('explorer.chart.month'), value: (_u, v) => (v === null ? '' : f.month(monthOf(v))) },
      {
        label: f.say('explorer.chart.volume'),
        scale: 'n',
        stroke: '#9aa5b1',
        fill: 'rgba(154, 165, 177, 0.35)',
        paths: uPlot.paths.bars!({ size: [0.6, 30] }),
        points: { show: false },
        value: (_u, v) => (v === null ? '' : f.number(v)),
      },
      { label: f.say('explorer.chart.p25'), scale: 'xaf', stroke: '#41b6c4', dash: [4, 4], width: 1, spanGaps: false, value: money },
      {
        label: f.say('explorer.chart.median'),
        scale: 'xaf',
        stroke: '#253494',
        width: 2,
        spanGaps: false,
        value: money,
        points: { size: 5 },
      },
      { label: f.say('explorer.chart.p75'), scale: 'xaf', stroke: '#41b6c4', dash: [4, 4], width: 1, spanGaps: false, value: money },
    ],
    axes: [
      { space: 80, values: (_u, splits) => splits.map((s) => f.month(monthOf(s))) },
      { scale: 'xaf', size: 64, values: (_u, splits) => splits.map((s) => f.short(s)) },
      {
        scale: 'n',
        side: 1,
        size: 44,
        grid: { show: false },
        values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? f.number(s) : '')),
      },
    ],
    // The legend names the series; the figures are in the table under the chart.
    legend: { live: false },
    hooks: { drawClear: [shade] },
  };
  const data: uPlot.AlignedData = [
    xs,
    points.map((p) => p.active_listings),
    points.map((p) => p.p25_price),
    points.map((p) => p.median_price),
    points.map((p) => p.p75_price),
  ];
  container.replaceChildren();
  const chart = new uPlot(options, data, container);
  const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(280, container.clientWidth), height: HEIGHT }));
  resize.observe(container);
  const destroy = chart.destroy.bind(chart);
  chart.destroy = () => {
    resize.disconnect();
    destroy();
  };
  return chart;
}
