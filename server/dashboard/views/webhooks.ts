/** Webhooks: the plan's allowance, the add form, the endpoints with their actions, the secret shown once. */
import { PLANS, type PlanName } from '../../../contract/plans.js';
import { EVENT_TYPES, type TWebhookEndpoint } from '../../../contract/webhooks.js';
import { formatDayTime } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { t } from '../i18n.js';
import { suspendedText } from '../labels.js';
import type { WebhookDataset } from '../webhooks-port.js';
import { csrfField, page, type View } from './layout.js';
import { copyButton, errorSummary } from './parts.js';

export interface WebhookForm {
  url: string;
  events: string[];
  savedSearches: string[];
  dataset: WebhookDataset;
}

export interface WebhooksPageModel {
  plan: PlanName;
  endpoints: TWebhookEndpoint[] | null;
  savedSearches: Array<{ id: string; name: string; dataset: WebhookDataset }>;
  form: WebhookForm;
  errors?: { url?: string; events?: string; form?: string };
  reveal?: { title: string; secret: string; previousUntil?: Date };
}

export function secretReveal(lang: Lang, r: NonNullable<WebhooksPageModel['reveal']>): SafeHtml {
  return html`<section class="card reveal" aria-labelledby="reveal-title">
<h2 id="reveal-title">${r.title}</h2>
<p class="warn">${t(lang, 'webhooks.secret.once')}</p>
<div class="key-box"><code id="new-secret" class="key" data-testid="new-secret">${r.secret}</code>${copyButton(lang, 'new-secret')}</div>
${r.previousUntil ? html`<p class="notice notice-info">${t(lang, 'webhooks.secret.previous', { date: formatDayTime(lang, r.previousUntil) })}</p>` : ''}
</section>`;
}

function statusOf(lang: Lang, e: TWebhookEndpoint): SafeHtml {
  return e.status === 'enabled'
    ? html`<span class="status status-on">${t(lang, 'webhooks.status.enabled')}</span>`
    : html`<span class="status status-off">${t(lang, 'webhooks.status.disabled', { reason: e.disabled_reason ?? '' })}</span>`;
}

function actions(v: View, e: TWebhookEndpoint): SafeHtml {
  const { lang } = v;
  const at = `${v.base}/webhooks/${e.id}`;
  const active = v.account?.status !== 'suspended';
  const test =
    active && e.status === 'enabled'
      ? html`<form method="post" action="${at}/test">${csrfField(v)}<button type="submit" class="btn btn-small">${t(lang, 'webhooks.test')}</button></form>`
      : '';
  const rotate = active
    ? html`<form method="post" action="${at}/rotate" data-confirm="${t(lang, 'webhooks.rotate.confirm', { url: e.url })}">${csrfField(v)}<button type="submit" class="btn btn-small">${t(lang, 'webhooks.rotate')}</button></form>`
    : '';
  return html`<div class="actions"><a class="btn btn-small" href="${at}">${t(lang, 'webhooks.log')}</a>${test}${rotate}<form method="post" action="${at}/delete" data-confirm="${t(lang, 'webhooks.delete.confirm', { url: e.url })}">${csrfField(v)}<button type="submit" class="btn btn-small btn-danger">${t(lang, 'webhooks.delete')}</button></form></div>`;
}

function endpointsTable(v: View, endpoints: TWebhookEndpoint[]): SafeHtml {
  const { lang } = v;
  if (endpoints.length === 0) return html`<p class="empty">${t(lang, 'webhooks.none')}</p>`;
  const col = {
    url: t(lang, 'webhooks.col.url'),
    events: t(lang, 'webhooks.col.events'),
    status: t(lang, 'webhooks.col.status'),
    created: t(lang, 'webhooks.col.created'),
    actions: t(lang, 'webhooks.col.actions'),
  };
  return html`<div class="table-wrap"><table class="keys stack-table" data-testid="endpoints">
<thead><tr><th scope="col">${col.url}</th><th scope="col">${col.events}</th><th scope="col">${col.status}</th><th scope="col">${col.created}</th><th scope="col"><span class="sr">${col.actions}</span></th></tr></thead>
<tbody>${endpoints.map(
    (e) => html`<tr data-endpoint-id="${e.id}">
<th scope="row" data-label="${col.url}"><code>${e.url}</code>${e.dataset === 'sample' ? html` <span class="badge badge-test">${t(lang, 'webhooks.sampleBadge')}</span>` : ''}</th>
<td data-label="${col.events}">${e.events.join(', ')}${e.saved_searches.length ? html`<br><span class="muted">${t(lang, 'webhooks.followed', { count: e.saved_searches.length })}</span>` : ''}</td>
<td data-label="${col.status}">${statusOf(lang, e)}</td>
<td data-label="${col.created}">${formatDayTime(lang, new Date(e.created_at))}</td>
<td data-label="${col.actions}" class="cell-actions">${actions(v, e)}</td>
</tr>`,
  )}</tbody>
</table></div>`;
}

function createForm(v: View, m: WebhooksPageModel): SafeHtml {
  const { lang } = v;
  const f = m.form;
  const searches = m.savedSearches.length
    ? m.savedSearches.map(
        (s) =>
          html`<label class="choice"><input type="checkbox" name="saved_searches" value="${s.id}"${f.savedSearches.includes(s.id) ? html` checked` : ''}> ${s.name} <code>${s.id}</code>${s.dataset === 'sample' ? html` <span class="badge badge-test">${t(lang, 'webhooks.sampleBadge')}</span>` : ''}</label>`,
      )
    : html`<p class="hint">${t(lang, 'webhooks.field.searches.none')}</p>`;
  return html`<section class="card" aria-labelledby="create-title">
<h2 id="create-title">${t(lang, 'webhooks.create.title')}</h2>
<form method="post" action="${v.base}/webhooks" novalidate>
${csrfField(v)}
<div class="field${m.errors?.url ? ' has-error' : ''}">
<label for="url">${t(lang, 'webhooks.field.url')}</label>
<p class="hint" id="url-hint">${t(lang, 'webhooks.field.url.hint')}</p>
<input id="url" name="url" type="url" maxlength="2000" required value="${f.url}" aria-describedby="url-hint"${m.errors?.url ? html` aria-invalid="true"` : ''}>
</div>
<fieldset class="field${m.errors?.events ? ' has-error' : ''}" id="events">
<legend>${t(lang, 'webhooks.field.events')}</legend>
${EVENT_TYPES.map((type) => html`<label class="choice"><input type="checkbox" name="events" value="${type}"${f.events.includes(type) ? html` checked` : ''}> <code>${type}</code></label>`)}
</fieldset>
<fieldset class="field">
<legend>${t(lang, 'webhooks.field.searches')}</legend>
<p class="hint">${t(lang, 'webhooks.field.searches.hint')}</p>
${searches}
</fieldset>
<fieldset class="field kinds">
<legend>${t(lang, 'webhooks.field.dataset')}</legend>
<label class="choice"><input type="radio" name="dataset" value="live"${f.dataset === 'sample' ? '' : html` checked`}> ${t(lang, 'webhooks.dataset.live')}</label>
<label class="choice"><input type="radio" name="dataset" value="sample"${f.dataset === 'sample' ? html` checked` : ''}> ${t(lang, 'webhooks.dataset.sample')}</label>
</fieldset>
<button type="submit" class="btn btn-primary">${t(lang, 'webhooks.create.submit')}</button>
</form>
</section>`;
}

export function webhooksPage(v: View, m: WebhooksPageModel): SafeHtml {
  const { lang } = v;
  const plan = PLANS[m.plan];
  let content: SafeHtml;
  if (m.endpoints === null) content = html`<p class="notice notice-info">${t(lang, 'webhooks.unavailable')}</p>`;
  else if (plan.maxWebhookEndpoints === 0 && m.endpoints.length === 0) {
    content = html`<p class="notice notice-info" data-testid="not-included">${t(lang, 'webhooks.notIncluded')} <a href="${v.base}/plans">${t(lang, 'nav.plans')}</a></p>`;
  } else {
    const create =
      v.account?.status === 'suspended'
        ? html`<div class="notice notice-error" role="alert" data-testid="suspended">${suspendedText(lang, v.account)}</div>`
        : createForm(v, m);
    content = html`<p data-testid="allowance">${t(lang, 'webhooks.allowance', { plan: plan.label, max: plan.maxWebhookEndpoints, count: m.endpoints.length })}</p>
${create}
<section aria-labelledby="list-title">
<h2 id="list-title">${t(lang, 'webhooks.list.title')}</h2>
${endpointsTable(v, m.endpoints)}
</section>`;
  }
  const body = html`<h1>${t(lang, 'webhooks.title')}</h1>
<p class="lead">${t(lang, 'webhooks.lead')}</p>
${m.reveal ? secretReveal(lang, m.reveal) : ''}
${errorSummary(lang, m.errors ?? {})}
${content}`;
  return page(v, { title: t(lang, 'webhooks.title'), section: 'webhooks', body });
}
