/**
 * The market explorer's page: the filters, the map's frame (drawn by the page's script
 * from the config it carries), a quarter's panel, the valuation form. Every figure comes
 * from the API, called by the script; this page holds none.
 */
import { html, SafeHtml } from '../../platform/html.js';
import { configJson, type ExplorerConfig, type ExplorerKey } from '../explorer-config.js';
import { t } from '../i18n.js';
import { page, type View } from './layout.js';
import { copyButton } from './parts.js';
import { filtersForm, valuationForm } from './market-forms.js';

export interface MarketPageModel {
  /** Null when the account has no active key to act as. */
  config: ExplorerConfig | null;
  keys: ExplorerKey[];
  limit: { points: number; windowSeconds: number };
  /** The script and its stylesheet; null when they are not built. */
  script: { js: string; css: string } | null;
}

const HISTORY_COLUMNS = [
  'market.col.sample',
  'market.col.new',
  'market.col.removed',
  'market.col.p25',
  'market.col.median',
  'market.col.p75',
  'market.col.m2',
  'market.col.change',
] as const;

function mapCard(v: View): SafeHtml {
  const { lang } = v;
  return html`<section class="card map-card" aria-labelledby="map-title">
<div class="map-head"><h2 id="map-title">${t(lang, 'market.title')}</h2><button type="button" id="map-back" class="btn btn-small btn-secondary" hidden>${t(lang, 'market.back')}</button></div>
<div id="explorer-map" class="map" data-state="loading"><noscript><p class="notice notice-info">${t(lang, 'market.noscript')}</p></noscript></div>
<div class="legend" aria-label="${t(lang, 'market.legend')}"><h3 class="legend-title">${t(lang, 'market.legend')}</h3><div id="map-legend"></div></div>
<p id="map-status" class="map-status" role="status" aria-live="polite"></p>
<p class="hint map-note" data-testid="map-note">${t(lang, 'market.mapNote')}</p>
<details class="as-table"><summary>${t(lang, 'market.neighborhoods')}</summary>
<div class="table-scroll"><table id="neighborhoods-table" class="figures"><thead><tr><th scope="col">${t(lang, 'market.col.neighborhood')}</th><th scope="col" class="num">${t(lang, 'market.col.figure')}</th><th scope="col" class="num">${t(lang, 'market.col.listings')}</th></tr></thead><tbody></tbody></table></div>
</details>
</section>`;
}

function neighborhoodCard(v: View): SafeHtml {
  const { lang } = v;
  return html`<section class="card neighborhood-card" id="neighborhood-panel" data-state="empty" aria-labelledby="neighborhood-title">
<h2 id="neighborhood-title">${t(lang, 'explorer.neighborhood.none')}</h2>
<div id="neighborhood-body" hidden>
<h3>${t(lang, 'market.stats')}</h3>
<dl id="neighborhood-stats" class="neighborhood-stats"></dl>
<p id="neighborhood-listings" class="hint"></p>
</div>
<p class="hint neighborhood-hint">${t(lang, 'market.neighborhood.hint')}</p>
</section>`;
}

/** Under the map and the quarter's statistics, full width: its history, as a chart and a table, and the calls behind them. */
function historyCard(v: View): SafeHtml {
  const { lang } = v;
  return html`<section class="card history-card" id="history-panel" aria-labelledby="history-title" hidden>
<h2 id="history-title">${t(lang, 'market.history')}</h2>
<p id="history-status" class="history-status" role="status" aria-live="polite"></p>
<div id="history-body" hidden>
<div id="history-chart" class="chart-box"></div>
<div class="actions"><button type="button" id="history-csv" class="btn btn-small">${t(lang, 'market.history.csv')}</button><button type="button" id="history-copy" class="btn btn-small btn-secondary">${t(lang, 'explorer.history.copy')}</button></div>
<div class="table-scroll"><table id="history-table" class="figures history-table">
<caption>${t(lang, 'market.history.caption')}</caption>
<thead><tr><th scope="col">${t(lang, 'market.col.month')}</th>${HISTORY_COLUMNS.map((c) => html`<th scope="col" class="num">${t(lang, c)}</th>`)}</tr></thead>
<tbody></tbody></table></div>
</div>
<h3>${t(lang, 'market.calls')}</h3>
<p class="hint">${t(lang, 'market.calls.hint')}</p>
<div class="code-box"><pre class="code"><code id="call-curl"></code></pre>${copyButton(lang, 'call-curl')}</div>
<div class="code-box"><pre class="code"><code id="call-sdk"></code></pre>${copyButton(lang, 'call-sdk')}</div>
</section>`;
}

function valuationCard(v: View, config: ExplorerConfig): SafeHtml {
  const { lang } = v;
  const lead = config.valuations
    ? html`<p>${t(lang, 'market.valuation.lead')}</p>`
    : html`<p class="notice notice-info" data-testid="valuation-preview">${t(lang, 'market.valuation.preview')} <a href="${v.base}/sales">${t(lang, 'market.valuation.sales')}</a></p>`;
  return html`<section class="card valuation-card" id="valuation" aria-labelledby="valuation-title">
<h2 id="valuation-title">${t(lang, 'market.valuation')}</h2>
${lead}
${valuationForm(v, config)}
<div id="valuation-result" class="valuation-result" aria-live="polite"></div>
</section>`;
}

export function marketPage(v: View, m: MarketPageModel): SafeHtml {
  const { lang } = v;
  const title = t(lang, 'market.title');
  const c = m.config;
  if (!c || !c.key) {
    const body = html`<h1>${title}</h1><p class="lead">${t(lang, 'market.lead')}</p>
<p class="notice notice-info" data-testid="explorer-no-key">${t(lang, 'market.noKey')} <a href="${v.base}/keys">${t(lang, 'nav.keys')}</a></p>`;
    return page(v, { title, section: 'market', body });
  }
  const head = m.script
    ? html`<link rel="stylesheet" href="${m.script.css}">
<script src="${m.script.js}" defer></script>
`
    : '';
  const body = html`<h1>${title}</h1>
<p class="lead">${t(lang, 'market.lead')}</p>
<p class="hint" data-testid="explorer-uncounted">${t(lang, 'market.uncounted', { key: `${c.key.prefix}…`, points: m.limit.points, seconds: m.limit.windowSeconds })}</p>
${c.key.kind === 'test' ? html`<p class="notice notice-info badge-sample" data-testid="explorer-sample">${t(lang, 'market.sample')}</p>` : ''}
${m.script ? '' : html`<p class="notice notice-error">${t(lang, 'market.unbuilt')}</p>`}
${filtersForm(v, { view: c.view, cities: c.cities.map((city) => city.name), keys: m.keys, keyId: c.key.id, bedroomsTop: c.bedroomsTop })}
<div class="explorer-grid">
${mapCard(v)}
${neighborhoodCard(v)}
</div>
${historyCard(v)}
${valuationCard(v, c)}
<script type="application/json" id="explorer-config">${new SafeHtml(configJson(c))}</script>`;
  return page(v, { title, section: 'market', body, head });
}
