/**
 * A quarter's 36-month history: the chart, the same figures as a table (every month, the
 * absent figures said as such; copyable as tab-separated text), and the CSV, which is the
 * API's own CSV answer of the same call.
 */
import type { THistoryPoint, THistoryResponse } from '../../../contract/history.js';
import type { Api, Query } from './api.js';
import { historyChart } from './chart.js';
import { el, type Format } from './format.js';

type Field =
  | 'sample_size'
  | 'new_listings'
  | 'removed'
  | 'p25_price'
  | 'median_price'
  | 'p75_price'
  | 'median_price_per_m2'
  | 'median_price_change_pct';

const FIELDS: Field[] = [
  'sample_size',
  'new_listings',
  'removed',
  'p25_price',
  'median_price',
  'p75_price',
  'median_price_per_m2',
  'median_price_change_pct',
];

const valueOf = (p: THistoryPoint, field: Field): number | null =>
  field === 'removed' ? p.removed_listings.sold + p.removed_listings.rented + p.removed_listings.withdrawn : p[field];

export interface HistoryParts {
  status: HTMLElement;
  chart: HTMLElement;
  table: HTMLTableElement;
  csv: HTMLButtonElement;
  copy: HTMLButtonElement;
  body: HTMLElement;
}

export class HistorySection {
  private chart: { destroy(): void } | null = null;
  private points: THistoryPoint[] = [];
  private csvQuery: Query = {};
  private csvName = 'mboa-history.csv';

  constructor(
    private readonly parts: HistoryParts,
    private readonly api: Api,
    private readonly f: Format,
    private readonly minSample: number,
  ) {
    parts.csv.addEventListener('click', () => void this.download());
    parts.copy.addEventListener('click', () => void this.copy());
  }

  clear(): void {
    this.chart?.destroy();
    this.chart = null;
    this.points = [];
    this.parts.table.tBodies[0].replaceChildren();
    this.parts.body.hidden = true;
  }

  /** Loads and shows a series; a refusal (the plan, the session's limit) is said in the API's words. */
  async show(query: Query, fileName: string): Promise<void> {
    this.clear();
    const { status } = this.parts;
    status.textContent = this.f.say('explorer.status.loading');
    const answer = await this.api.json<THistoryResponse>('/market/history', query);
    if (!answer.ok) {
      status.textContent = '';
      status.append(
        el('strong', {}, answer.problem.code === 'plan_forbidden' ? this.f.say('explorer.history.notInPlan') : answer.problem.title),
        ' ',
        answer.problem.detail,
      );
      status.dataset.refused = answer.problem.code;
      return;
    }
    delete status.dataset.refused;
    this.points = answer.body.data;
    this.csvQuery = query;
    this.csvName = fileName;
    const absent = this.points.filter((p) => p.median_price === null).length;
    status.textContent = this.f.say('explorer.history.summary', { months: this.points.length, absent, min: this.minSample });
    this.parts.body.hidden = false;
    this.fillTable();
    this.chart = historyChart(this.parts.chart, this.points, this.f);
  }

  private fillTable(): void {
    const f = this.f;
    const absent = f.say('explorer.table.absent', { min: this.minSample });
    const rows = this.points.map((p) =>
      el(
        'tr',
        { 'data-month': p.month, class: p.median_price === null ? 'is-absent' : null },
        el('th', { scope: 'row' }, el('time', { datetime: p.month }, f.month(p.month))),
        ...FIELDS.map((field) => {
          const v = valueOf(p, field);
          const text = v === null ? '—' : field === 'median_price_change_pct' ? f.pct(v) : f.number(v);
          return el('td', { class: 'num', 'data-field': field, 'data-value': v ?? '', title: v === null ? absent : null }, text);
        }),
      ),
    );
    this.parts.table.tBodies[0].replaceChildren(...rows);
  }

  /** The table as tab-separated text: pasted into a spreadsheet, one cell per figure. */
  private tsv(): string {
    const head = Array.from(this.parts.table.tHead!.rows[0].cells).map((c) => c.textContent?.trim() ?? '');
    const lines = this.points.map((p) => [p.month, ...FIELDS.map((field) => valueOf(p, field) ?? '')].join('\t'));
    return `${[head.join('\t'), ...lines].join('\n')}\n`;
  }

  private async copy(): Promise<void> {
    const button = this.parts.copy;
    try {
      await navigator.clipboard.writeText(this.tsv());
      button.textContent = this.f.say('explorer.copied');
    } catch {
      const range = document.createRange();
      range.selectNodeContents(this.parts.table);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      button.textContent = this.f.say('explorer.copy.selected');
    }
    setTimeout(() => (button.textContent = this.f.say('explorer.history.copy')), 2000);
  }

  /** The API's CSV answer of the same call, saved under a name that says what it holds. */
  private async download(): Promise<void> {
    const answer = await this.api.text('/market/history', this.csvQuery, 'text/csv');
    if (!answer.ok) {
      this.parts.status.textContent = answer.problem.detail;
      return;
    }
    const url = URL.createObjectURL(new Blob([answer.body], { type: 'text/csv;charset=utf-8' }));
    const link = el('a', { href: url, download: this.csvName, hidden: true });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
