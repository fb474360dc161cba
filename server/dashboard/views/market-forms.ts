/** The market explorer's forms: what to show (a GET of the page, redrawn in place by its script) and the valuation's subject. */
import { LAND_TITLES } from '../../../contract/advert-terms.js';
import { PROPERTY_TYPES, PURPOSES } from '../../../contract/schemas.js';
import { html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { COLOURS, type ExplorerConfig, type ExplorerKey, type ExplorerView } from '../explorer-config.js';
import { t } from '../i18n.js';

type Option = { value: string; label: string };

function select(id: string, name: string, label: string, options: Option[], selected: string): SafeHtml {
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}">${options.map(
    (o) => html`<option value="${o.value}"${o.value === selected ? html` selected` : ''}>${o.label}</option>`,
  )}</select></div>`;
}

const typeOptions = (lang: Lang, any: string): Option[] => [
  { value: '', label: any },
  ...PROPERTY_TYPES.map((type) => ({ value: type, label: t(lang, `type.${type}`) })),
];
const purposeOptions = (lang: Lang): Option[] => PURPOSES.map((p) => ({ value: p, label: t(lang, `purpose.${p}`) }));

export function filtersForm(
  v: { lang: Lang; base: string },
  o: { view: ExplorerView; cities: string[]; keys: ExplorerKey[]; keyId: string | null; bedroomsTop: number },
): SafeHtml {
  const { lang } = v;
  const { view } = o;
  const bedrooms: Option[] = [{ value: '', label: t(lang, 'market.bedrooms.any') }];
  for (let n = 0; n <= o.bedroomsTop; n++) {
    bedrooms.push({ value: String(n), label: n === o.bedroomsTop ? t(lang, 'market.bedrooms.top', { n }) : String(n) });
  }
  const keys = o.keys.map((k) => ({
    value: k.id,
    label: t(lang, k.kind === 'test' ? 'market.key.test' : 'market.key.live', { name: k.name, prefix: k.prefix }),
  }));
  return html`<form id="explorer-filters" class="card explorer-filters" method="get" action="${v.base}/market" aria-label="${t(lang, 'market.filters')}">
${o.keys.length > 1 ? select('f-key', 'key', t(lang, 'market.key'), keys, o.keyId ?? '') : ''}
${select(
  'f-city',
  'city',
  t(lang, 'market.city'),
  o.cities.map((c) => ({ value: c, label: c })),
  view.city,
)}
${select('f-purpose', 'purpose', t(lang, 'market.purpose'), purposeOptions(lang), view.purpose)}
${select('f-type', 'type', t(lang, 'market.type'), typeOptions(lang, t(lang, 'market.type.any')), view.type ?? '')}
${select('f-bedrooms', 'bedrooms', t(lang, 'market.bedrooms'), bedrooms, view.bedrooms === null ? '' : String(view.bedrooms))}
${select(
  'f-colour',
  'colour',
  t(lang, 'market.colour'),
  COLOURS.map((c) => ({ value: c, label: t(lang, `colour.${c}`) })),
  view.colour,
)}
<div class="field field-submit"><button type="submit" class="btn">${t(lang, 'market.show')}</button></div>
</form>`;
}

function numberField(id: string, name: string, label: string, value: string): SafeHtml {
  return html`<div class="field"><label for="${id}">${label}</label><input id="${id}" name="${name}" type="number" min="${name === 'surface' ? 1 : 0}" max="100000" step="1" inputmode="numeric" value="${value}"></div>`;
}

export function valuationForm(v: { lang: Lang; base: string }, config: ExplorerConfig): SafeHtml {
  const { lang } = v;
  const city = config.cities.find((c) => c.name === config.view.city) ?? config.cities[0];
  const unknown = t(lang, 'market.v.unknown');
  const neighborhoods: Option[] = [
    { value: '', label: t(lang, 'explorer.valuation.anyNeighborhood') },
    ...city.neighborhoods.map(([name]) => ({ value: name, label: name })),
  ];
  return html`<form id="valuation-form" class="valuation-form" aria-labelledby="valuation-title">
<input type="hidden" id="v-city" name="city" value="${city.name}">
${select('v-neighborhood', 'neighborhood', t(lang, 'market.v.neighborhood'), neighborhoods, city.neighborhoods[0]?.[0] ?? '')}
${select(
  'v-type',
  'type',
  t(lang, 'market.type'),
  PROPERTY_TYPES.map((p) => ({ value: p, label: t(lang, `type.${p}`) })),
  'apartment',
)}
${select('v-purpose', 'purpose', t(lang, 'market.purpose'), purposeOptions(lang), config.view.purpose)}
${numberField('v-surface', 'surface', t(lang, 'market.v.surface'), '')}
${numberField('v-bedrooms', 'bedrooms', t(lang, 'market.v.bedrooms'), '2')}
${numberField('v-bathrooms', 'bathrooms', t(lang, 'market.v.bathrooms'), '')}
${select(
  'v-furnished',
  'furnished',
  t(lang, 'market.v.furnished'),
  [
    { value: '', label: unknown },
    { value: 'true', label: t(lang, 'market.v.yes') },
    { value: 'false', label: t(lang, 'market.v.no') },
  ],
  '',
)}
${select('v-land', 'land_title', t(lang, 'market.v.landTitle'), [{ value: '', label: unknown }, ...LAND_TITLES.filter((l): l is Exclude<typeof l, 'unknown'> => l !== 'unknown').map((l) => ({ value: l, label: t(lang, `land.${l}`) }))], '')}
<div class="field field-submit"><button type="submit" class="btn">${t(lang, config.valuations ? 'market.v.submit' : 'market.v.submitPreview')}</button></div>
</form>`;
}
