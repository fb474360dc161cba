/**
 * "Value a property": the form's subject sent to `/valuations` (Enterprise), or, on a plan
 * without valuations, to the same endpoint over the public sample (a preview of what the
 * answer looks like, marked as such). The estimate and its range on a bar, the comparables
 * in a table and on the map.
 */
import type { TValuation } from '../../../contract/valuations.js';
import type { ExplorerConfig } from '../explorer-config.js';
import type { Api, Query } from './api.js';
import { el, type Format, svg } from './format.js';
import type { NeighborhoodMap } from './map.js';
import { curlOf } from './snippets.js';

const FIELDS = ['city', 'neighborhood', 'type', 'purpose', 'surface', 'bedrooms', 'bathrooms', 'furnished', 'land_title'] as const;

/** The estimate, its range and the comparables' adjusted prices on one scale, the three figures under their marks. */
function bar(v: TValuation, f: Format): [SVGSVGElement, HTMLElement] {
  const e = v.estimate;
  const prices = [e.low, e.high, ...v.comparables.map((c) => c.adjusted_price)];
  const lo = Math.min(...prices) * 0.95;
  const hi = Math.max(...prices) * 1.05;
  const x = (p: number) => ((p - lo) / (hi - lo || 1)) * 100;
  const chart = svg(
    'svg',
    {
      class: 'estimate-bar',
      viewBox: '0 0 100 16',
      preserveAspectRatio: 'none',
      role: 'img',
      'aria-label': f.say('explorer.valuation.bar', { low: f.xaf(e.low), price: f.xaf(e.price), high: f.xaf(e.high) }),
    },
    svg('rect', { class: 'track', x: 0, y: 6, width: 100, height: 4 }),
    svg('rect', { class: 'range', x: x(e.low).toFixed(2), y: 3, width: (x(e.high) - x(e.low)).toFixed(2), height: 10 }),
  );
  for (const c of v.comparables)
    chart.append(svg('rect', { class: 'comparable', x: x(c.adjusted_price).toFixed(2), y: 1, width: 0.3, height: 14 }));
  chart.append(svg('rect', { class: 'estimate', x: (x(e.price) - 0.4).toFixed(2), y: 0, width: 0.8, height: 16 }));
  // Each figure under its mark (placed through the CSSOM: the CSP refuses style attributes).
  const label = (value: number, strong: boolean) => {
    const node = el(strong ? 'strong' : 'span', { class: 'bar-label' }, f.xaf(value));
    node.style.left = `${Math.min(92, Math.max(8, x(value))).toFixed(2)}%`;
    return node;
  };
  return [chart, el('p', { class: 'bar-labels', 'aria-hidden': 'true' }, label(e.low, false), label(e.price, true), label(e.high, false))];
}

export class ValuationForm {
  constructor(
    private readonly config: ExplorerConfig,
    private readonly api: Api,
    private readonly f: Format,
    private readonly map: () => NeighborhoodMap | null,
    private readonly city: () => { name: string; neighborhoods: string[] },
  ) {
    const form = document.getElementById('valuation-form') as HTMLFormElement | null;
    form?.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.value(form);
    });
  }

  /** The form's quarter list follows the city on the map. */
  cityChanged(): void {
    const select = document.getElementById('v-neighborhood') as HTMLSelectElement | null;
    if (!select) return;
    const { name, neighborhoods } = this.city();
    (document.getElementById('v-city') as HTMLInputElement).value = name;
    const keep = select.value;
    select.replaceChildren(
      el('option', { value: '' }, this.f.say('explorer.valuation.anyNeighborhood')),
      ...neighborhoods.map((q) => el('option', { value: q, selected: q === keep }, q)),
    );
  }

  private async value(form: HTMLFormElement): Promise<void> {
    const data = new FormData(form);
    const query: Query = {};
    for (const name of FIELDS) query[name] = (data.get(name) as string | null)?.trim() || null;
    const out = document.getElementById('valuation-result')!;
    out.dataset.state = 'loading';
    out.replaceChildren(el('p', {}, this.f.say('explorer.status.loading')));
    const preview = !this.config.valuations;
    const answer = await this.api.json<{ data: TValuation }>('/valuations', query, { preview });
    if (!answer.ok) {
      out.dataset.state = 'refused';
      out.replaceChildren(el('p', { class: 'notice notice-error', role: 'alert' }, answer.problem.detail));
      return;
    }
    out.dataset.state = 'ready';
    out.dataset.dataset = answer.dataset;
    this.show(out, answer.body.data, answer.dataset === 'sample', query);
  }

  private show(out: HTMLElement, v: TValuation, sample: boolean, query: Query): void {
    const f = this.f;
    const e = v.estimate;
    const rows = v.comparables.map((c, i) =>
      el(
        'tr',
        {},
        el('td', { class: 'num' }, String(i + 1)),
        el('td', {}, c.title),
        el('td', {}, c.neighborhood ?? '—'),
        el('td', { class: 'num' }, c.bedrooms === null ? '—' : f.number(c.bedrooms)),
        el('td', { class: 'num' }, c.surface === null ? '—' : `${f.number(c.surface)} m²`),
        el('td', { class: 'num' }, f.xaf(c.price)),
        el('td', { class: 'num', 'data-testid': 'comparable-adjusted' }, f.xaf(c.adjusted_price)),
        el('td', { class: 'num' }, `${Math.round(c.similarity * 100)}${f.say('explorer.percentSign')}`),
        el('td', { class: 'num' }, `${f.number(c.distance_m)} m`),
      ),
    );
    const head = [
      '#',
      'explorer.comparables.title',
      'explorer.comparables.neighborhood',
      'explorer.comparables.bedrooms',
      'explorer.comparables.surface',
      'explorer.comparables.price',
      'explorer.comparables.adjusted',
      'explorer.comparables.similarity',
      'explorer.comparables.distance',
    ] as const;
    out.replaceChildren(
      sample
        ? el(
            'p',
            { class: 'badge badge-sample', 'data-testid': 'valuation-sample' },
            f.say(this.config.valuations ? 'explorer.sample.marked' : 'explorer.valuation.previewMarked'),
          )
        : '',
      el('p', { class: 'big', 'data-testid': 'valuation-estimate', 'data-price': e.price }, f.xaf(e.price)),
      el(
        'p',
        {},
        f.say('explorer.valuation.range', {
          low: f.xaf(e.low),
          high: f.xaf(e.high),
          level: Math.round(e.confidence_level * 100),
          confidence: f.say(`explorer.confidence.${e.confidence}`),
        }),
      ),
      ...bar(v, f),
      el('p', { class: 'hint' }, `${v.method_detail} ${f.say('explorer.valuation.basis', { n: v.sample_size })}`),
      el(
        'div',
        { class: 'table-scroll' },
        el(
          'table',
          { class: 'figures', 'data-testid': 'comparables' },
          el('caption', {}, f.say('explorer.comparables.caption', { n: v.comparables.length })),
          el('thead', {}, el('tr', {}, ...head.map((h) => el('th', { scope: 'col' }, h === '#' ? '#' : f.say(h))))),
          el('tbody', {}, ...rows),
        ),
      ),
      el(
        'div',
        { class: 'code-box' },
        el('pre', { class: 'code' }, el('code', { id: 'valuation-curl' }, curlOf(this.config, '/valuations', query))),
      ),
    );
    const map = this.map();
    if (!map) return;
    if (v.method === 'quarter_comparables' && v.subject.neighborhood) map.select(v.subject.neighborhood);
    else map.select(null);
    const shown = map.showPoints(
      v.comparables
        .filter((c) => c.location)
        .map((c, i) => ({
          lat: c.location!.lat,
          lng: c.location!.lng,
          label: `${i + 1}. ${c.title}: ${f.xaf(c.adjusted_price)}`,
          kind: 'comparable' as const,
        })),
      ['comparable', 'listing'],
    );
    out.append(el('p', { class: 'hint' }, f.say('explorer.valuation.onMap', { shown, n: v.comparables.length })));
  }
}
