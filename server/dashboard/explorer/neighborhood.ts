/**
 * The panel of the quarter chosen on the map: its statistics (median, quartiles, sample),
 * its listings as points on the zoomed map, its history, and the API calls that return
 * these figures.
 */
import type { TListingsPage, TMarketStat, TStatsResponse } from '../../../contract/schemas.js';
import type { ExplorerConfig, ExplorerView } from '../explorer-config.js';
import type { Api, Query } from './api.js';
import { el, type Format } from './format.js';
import { HistorySection } from './history.js';
import type { NeighborhoodMap } from './map.js';
import { curlOf, sdkCall, sdkSetup } from './snippets.js';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The query of a quarter's figures under the view's filters. */
export function neighborhoodQuery(view: ExplorerView, neighborhood: string | null): Query {
  return { city: view.city, neighborhood: neighborhood, purpose: view.purpose, type: view.type, bedrooms: view.bedrooms };
}

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export class NeighborhoodPanel {
  private readonly history: HistorySection;
  private shown = 0;

  constructor(
    private readonly config: ExplorerConfig,
    private readonly api: Api,
    private readonly f: Format,
  ) {
    this.history = new HistorySection(
      {
        status: byId('history-status'),
        chart: byId('history-chart'),
        table: byId<HTMLTableElement>('history-table'),
        csv: byId<HTMLButtonElement>('history-csv'),
        copy: byId<HTMLButtonElement>('history-copy'),
        body: byId('history-body'),
      },
      api,
      f,
      config.minSample,
    );
  }

  clear(): void {
    this.shown++;
    byId('neighborhood-panel').dataset.state = 'empty';
    byId('neighborhood-title').textContent = this.f.say('explorer.neighborhood.none');
    byId('neighborhood-body').hidden = true;
    byId('history-panel').hidden = true;
    this.history.clear();
  }

  async show(view: ExplorerView, neighborhood: string, map: NeighborhoodMap): Promise<void> {
    const turn = ++this.shown;
    const panel = byId('neighborhood-panel');
    panel.dataset.state = 'loading';
    panel.dataset.neighborhood = neighborhood;
    byId('neighborhood-title').textContent = this.f.say('explorer.neighborhood.title', { neighborhood, city: view.city });
    byId('neighborhood-body').hidden = false;
    byId('history-panel').hidden = false;
    byId('history-title').textContent = this.f.say('explorer.history.title', { neighborhood });
    const query = neighborhoodQuery(view, neighborhood);
    const historyQuery = { ...query, months: this.config.months };
    this.snippets(query, historyQuery);
    const fileName = `mboa-history-${slug(view.city)}-${slug(neighborhood)}-${view.purpose}${view.type ? `-${view.type}` : ''}${view.bedrooms !== null ? `-${view.bedrooms}bed` : ''}.csv`;
    await Promise.all([this.stats(query), this.listings(query, map), this.history.show(historyQuery, fileName)]);
    if (turn === this.shown) panel.dataset.state = 'ready';
  }

  private async stats(query: Query): Promise<void> {
    const list = byId('neighborhood-stats');
    list.replaceChildren();
    const answer = await this.api.json<TStatsResponse>('/market/stats', query);
    if (!answer.ok) {
      list.append(el('p', { class: 'notice notice-error' }, answer.problem.detail));
      return;
    }
    const row: TMarketStat | undefined = answer.body.data[0];
    const f = this.f;
    const min = this.config.minSample;
    if (!row || row.sample_size < min) {
      list.append(el('p', { 'data-testid': 'neighborhood-thin' }, f.say('explorer.neighborhood.thin', { n: row?.sample_size ?? 0, min })));
      return;
    }
    const item = (label: string, value: string, testid: string) => [el('dt', {}, label), el('dd', { 'data-testid': testid }, value)];
    list.append(
      ...item(f.say('explorer.stats.median'), f.xaf(row.median_price), 'stat-median'),
      ...item(f.say('explorer.stats.quartiles'), `${f.xaf(row.p25_price)} – ${f.xaf(row.p75_price)}`, 'stat-quartiles'),
      ...item(f.say('explorer.stats.sample'), f.number(row.sample_size), 'stat-sample'),
      ...item(
        f.say('explorer.stats.perM2'),
        row.median_price_per_m2 !== null && row.price_per_m2_sample_size >= min
          ? f.say('explorer.stats.perM2.value', { value: f.xaf(row.median_price_per_m2), n: f.number(row.price_per_m2_sample_size) })
          : f.say('explorer.stats.perM2.thin', { n: f.number(row.price_per_m2_sample_size), min }),
        'stat-m2',
      ),
      ...item(
        f.say('explorer.stats.asOf'),
        new Date(row.as_of).toLocaleString(this.config.lang === 'fr' ? 'fr-FR' : 'en-GB', { timeZone: 'UTC' }),
        'stat-asof',
      ),
    );
  }

  /** The quarter's listings with a point of their own, on the zoomed map. */
  private async listings(query: Query, map: NeighborhoodMap): Promise<void> {
    const note = byId('neighborhood-listings');
    note.textContent = '';
    const { bedrooms, ...rest } = query;
    const answer = await this.api.json<TListingsPage>('/listings', { ...rest, min_bedrooms: bedrooms, limit: 200 });
    if (!answer.ok) {
      map.showPoints([], ['listing']);
      note.textContent = answer.problem.detail;
      return;
    }
    // The search knows a lower bound of bedrooms: the bucket asked is kept here (the top one is that many or more).
    const inBucket = (n: number | null) =>
      bedrooms === null ||
      bedrooms === undefined ||
      n === bedrooms ||
      (bedrooms === this.config.bedroomsTop && n !== null && n >= bedrooms);
    const own = answer.body.data.filter((l) => l.location?.precision === 'street' && inBucket(l.bedrooms));
    const shown = map.showPoints(
      own.map((l) => ({
        lat: l.location!.lat,
        lng: l.location!.lng,
        label: `${l.title}: ${this.f.xaf(l.price)}`,
        kind: 'listing' as const,
      })),
      ['listing'],
    );
    note.textContent = this.f.say('explorer.neighborhood.points', {
      shown,
      returned: answer.body.meta.returned,
      total: answer.body.meta.total,
    });
  }

  private snippets(query: Query, historyQuery: Query): void {
    const c = this.config;
    byId('call-curl').textContent = [
      curlOf(c, '/market/stats', query),
      curlOf(c, '/market/history', historyQuery),
      curlOf(c, '/market/history', historyQuery, 'text/csv'),
    ].join('\n');
    byId('call-sdk').textContent = [
      sdkSetup(c),
      sdkCall('stats', 'market.stats', query),
      sdkCall('history', 'market.history', historyQuery),
    ].join('\n');
  }
}
