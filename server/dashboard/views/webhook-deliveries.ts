/** One endpoint's delivery log: status, attempts, latency, last HTTP status, the body; resend and a test event. */
import type { TWebhookEndpoint } from '../../../contract/webhooks.js';
import { formatDayTime, formatNumber } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import { t } from '../i18n.js';
import type { DeliveryLine } from '../webhooks-port.js';
import { csrfField, page, type View } from './layout.js';
import { errorSummary } from './parts.js';

export interface DeliveriesPageModel {
  endpoint: TWebhookEndpoint;
  deliveries: DeliveryLine[];
  errors?: { form?: string };
}

function row(v: View, e: TWebhookEndpoint, d: DeliveryLine, canSend: boolean): SafeHtml {
  const { lang } = v;
  const statusClass = d.status === 'delivered' ? 'status-on' : d.status === 'failed' ? 'status-off' : 'status-warn';
  const http = d.last_status === null ? (d.attempts > 0 ? t(lang, 'webhooks.deliveries.noAnswer') : '—') : String(d.last_status);
  const resend = canSend
    ? html`<form method="post" action="${v.base}/webhooks/${e.id}/deliveries/${d.id}/resend">${csrfField(v)}<button type="submit" class="btn btn-small">${t(lang, 'webhooks.deliveries.resend')}</button></form>`
    : '';
  return html`<tr data-delivery-id="${d.id}" data-event-id="${d.event_id}" data-status="${d.status}" data-attempts="${d.attempts}" data-http="${d.last_status ?? ''}">
<td>${formatDayTime(lang, new Date(d.created_at))}</td>
<td><code>${d.event_type}</code><br><code class="muted">${d.event_id}</code></td>
<td><span class="status ${statusClass}">${t(lang, `webhooks.deliveries.status.${d.status}`)}</span>${d.last_error ? html`<br><span class="muted">${d.last_error}</span>` : ''}</td>
<td class="num">${formatNumber(lang, d.attempts)}</td>
<td class="num">${d.latency_ms === null ? '—' : `${formatNumber(lang, d.latency_ms)} ms`}</td>
<td class="num">${http}</td>
<td><details><summary>${t(lang, 'webhooks.deliveries.show')}</summary><pre class="code"><code>${d.body}</code></pre></details></td>
<td class="cell-actions">${resend}</td>
</tr>`;
}

export function deliveriesPage(v: View, m: DeliveriesPageModel): SafeHtml {
  const { lang } = v;
  const e = m.endpoint;
  const canSend = e.status === 'enabled' && v.account?.status !== 'suspended';
  const test = canSend
    ? html`<form method="post" action="${v.base}/webhooks/${e.id}/test">${csrfField(v)}<button type="submit" class="btn btn-primary">${t(lang, 'webhooks.test')}</button></form>`
    : '';
  const table = m.deliveries.length
    ? html`<div class="table-wrap"><table class="figures" data-testid="deliveries">
<thead><tr><th scope="col">${t(lang, 'webhooks.deliveries.col.created')}</th><th scope="col">${t(lang, 'webhooks.deliveries.col.event')}</th><th scope="col">${t(lang, 'webhooks.deliveries.col.status')}</th><th scope="col" class="num">${t(lang, 'webhooks.deliveries.col.attempts')}</th><th scope="col" class="num">${t(lang, 'webhooks.deliveries.col.latency')}</th><th scope="col" class="num">${t(lang, 'webhooks.deliveries.col.http')}</th><th scope="col">${t(lang, 'webhooks.deliveries.col.body')}</th><th scope="col"><span class="sr">${t(lang, 'webhooks.col.actions')}</span></th></tr></thead>
<tbody>${m.deliveries.map((d) => row(v, e, d, canSend))}</tbody>
</table></div>`
    : html`<p class="empty">${t(lang, 'webhooks.deliveries.none')}</p>`;
  const title = t(lang, 'webhooks.deliveries.title', { url: e.url });
  const body = html`<p><a href="${v.base}/webhooks">← ${t(lang, 'webhooks.deliveries.back')}</a></p>
<h1>${title}</h1>
<p class="lead">${t(lang, 'webhooks.deliveries.lead')}</p>
${errorSummary(lang, m.errors ?? {})}
<p data-testid="endpoint-status">${e.status === 'enabled' ? t(lang, 'webhooks.status.enabled') : t(lang, 'webhooks.status.disabled', { reason: e.disabled_reason ?? '' })}</p>
${test}
${table}`;
  return page(v, { title, section: 'webhooks', body });
}
