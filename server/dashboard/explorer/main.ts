/**
 * The market explorer's script (bundled by scripts/build-explorer.mjs with d3-delaunay and
 * uPlot into one file the dashboard serves: nothing is fetched from elsewhere). It reads
 * the page's config, draws the chosen city's quarters, colours them from the API's
 * answers, and opens a quarter's panel when one is chosen on the map or in the table.
 * The filters form works without it (a GET of the page); with it, a change redraws in place.
 */
import './explorer.css';
import type { ExplorerConfig, ExplorerView } from '../explorer-config.js';
import { Api } from './api.js';
import { cityFigures, drawFigures } from './city.js';
import { formatFor } from './format.js';
import { cityShape } from './geometry.js';
import { NeighborhoodMap } from './map.js';
import { NeighborhoodPanel } from './neighborhood.js';
import { ValuationForm } from './valuation.js';

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function start(config: ExplorerConfig): void {
  const f = formatFor(config);
  const api = new Api(config.credential!);
  const panel = new NeighborhoodPanel(config, api, f);
  const mapBox = byId('explorer-map');
  let view: ExplorerView = config.view;
  let map: NeighborhoodMap | null = null;
  let turn = 0;
  const cityOf = () => config.cities.find((c) => c.name === view.city) ?? config.cities[0];
  const valuation = new ValuationForm(
    config,
    api,
    f,
    () => map,
    () => ({ name: cityOf().name, neighborhoods: cityOf().neighborhoods.map((q) => q[0]) }),
  );

  const choose = (name: string) => {
    if (!map) return;
    map.select(name);
    byId('map-back').hidden = false;
    void panel.show(view, name, map);
    byId('neighborhood-panel').scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  };

  async function draw(): Promise<void> {
    const mine = ++turn;
    const city = cityOf();
    const shape = cityShape(city);
    map = new NeighborhoodMap(shape, f.say('explorer.map.label', { city: city.name }), choose);
    mapBox.replaceChildren(map.element);
    mapBox.dataset.state = 'loading';
    mapBox.dataset.city = city.name;
    byId('map-title').textContent = f.say('explorer.map.title', { city: city.name });
    byId('map-back').hidden = true;
    byId('map-status').textContent = f.say('explorer.status.loading');
    panel.clear();
    valuation.cityChanged();
    const figures = await cityFigures(api, view, city, config.minSample);
    if (mine !== turn) return;
    const drawn = drawFigures(view.colour, figures, f, config.minSample);
    map.fill(drawn.fills);
    byId('map-legend').replaceChildren(drawn.legend);
    byId<HTMLTableElement>('neighborhoods-table').tBodies[0].replaceChildren(...drawn.rows);
    const status = byId('map-status');
    status.replaceChildren(f.say('explorer.status.coloured', { n: drawn.coloured, total: city.neighborhoods.length }));
    if (figures.dataset === 'sample') status.append(' ', f.say('explorer.sample.marked'));
    if (figures.refusal) status.append(' ', figures.refusal.detail);
    mapBox.dataset.coloured = String(drawn.coloured);
    mapBox.dataset.state = figures.refusal ? 'refused' : 'ready';
    // When the view was complete, on the page's clock (from the navigation's start): what the first view costs.
    mapBox.dataset.readyMs = performance.now().toFixed(0);
    if (figures.refusal) mapBox.dataset.refused = figures.refusal.code;
    else delete mapBox.dataset.refused;
  }

  const form = byId<HTMLFormElement>('explorer-filters');
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLSelectElement;
    // Another key is another credential: the page is rendered again for it.
    if (target.name === 'key') return form.submit();
    const data = new FormData(form);
    const bedrooms = data.get('bedrooms') as string;
    view = {
      city: data.get('city') as string,
      purpose: data.get('purpose') as ExplorerView['purpose'],
      type: ((data.get('type') as string) || null) as ExplorerView['type'],
      bedrooms: bedrooms === '' ? null : Number(bedrooms),
      colour: data.get('colour') as ExplorerView['colour'],
    };
    const url = new URL(window.location.href);
    data.forEach((value, name) => {
      if (value === '') url.searchParams.delete(name);
      else url.searchParams.set(name, value as string);
    });
    window.history.replaceState(null, '', url);
    void draw();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    form.dispatchEvent(new Event('change'));
  });
  byId('map-back').addEventListener('click', () => {
    map?.select(null);
    map?.showPoints([], ['listing', 'comparable']);
    byId('map-back').hidden = true;
    panel.clear();
  });
  byId('neighborhoods-table').addEventListener('click', (event) => {
    const name = (event.target as Element).closest('button[data-neighborhood]')?.getAttribute('data-neighborhood');
    if (name) choose(name);
  });
  void draw();
}

const source = document.getElementById('explorer-config');
if (source) {
  const config = JSON.parse(source.textContent ?? '{}') as ExplorerConfig;
  if (config.credential) start(config);
}
