/** Usage analytics (Pro and Enterprise): calls per day, per endpoint, per key; Starter is invited to upgrade. */
import { PLANS, type PlanName } from '../../../contract/plans.js';
import { dayDate, formatMonth, formatNumber, formatPercent, formatShortDay } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { t } from '../i18n.js';
import type { MonthUsage } from '../usage-data.js';
import { type Availability, SLA_TARGET } from '../../accounts/availability.js';
import { ENDPOINT_LABELS } from '../labels.js';
import { barChart } from './chart.js';
import { upgradeInvite } from './home.js';
import { page, type View } from './layout.js';

export interface UsagePageModel {
  plan: PlanName;
  usage: MonthUsage;
  /** Enterprise: the month's availability against the 99.9 % promise. */
  availability: Availability | null;
  prev: string | null;
  next: string | null;
}

/** Three decimals, never rounded up to the promise: 99.9996 % shows 99.999 %. */
function availabilityText(lang: Lang, ratio: number): string {
  return new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', {
    style: 'percent',
    minimumFractionDigits: 3,
    maximumFractionDigits: 3,
  }).format(Math.floor(ratio * 100_000) / 100_000);
}

function availabilityCard(lang: Lang, a: Availability): SafeHtml {
  const met = a.ratio === null || a.ratio >= SLA_TARGET;
  const figure = a.ratio === null ? t(lang, 'usage.availability.none') : availabilityText(lang, a.ratio);
  return html`<section class="card" aria-labelledby="availability-title">
<h2 id="availability-title">${t(lang, 'usage.availability.title')}</h2>
<p class="big" data-testid="availability" data-answered="${a.answered}" data-failed="${a.failed}">${figure}</p>
<p>${t(lang, met ? 'usage.availability.met' : 'usage.availability.below', { answered: formatNumber(lang, a.answered), failed: formatNumber(lang, a.failed) })}</p>
<p class="hint" data-testid="availability-rule">${t(lang, 'usage.availability.rule')}</p>
</section>`;
}

/** Webhook deliveries of the month against the plan's monthly cap (never counted in the quota), and those held past it. */
function deliveriesCard(lang: Lang, plan: PlanName, month: string, d: { deliveries: number; overCap: number }): SafeHtml {
  const cap = PLANS[plan].webhookDeliveriesPerMonth;
  const count = d.deliveries;
  if (cap === 0 && count === 0 && d.overCap === 0) return html``;
  const figures = { count: formatNumber(lang, count), cap: formatNumber(lang, cap), month };
  return html`<section class="card" aria-labelledby="deliveries-title">
<h2 id="deliveries-title">${t(lang, 'usage.deliveries.title')}</h2>
<p class="big" data-testid="webhook-deliveries" data-count="${count}" data-cap="${cap}" data-over-cap="${d.overCap}">${t(lang, 'usage.deliveries.figure', figures)}${cap > 0 ? html` <span class="muted">(${formatPercent(lang, count / cap)})</span>` : ''}</p>
${d.overCap > 0 ? html`<p class="notice" data-testid="webhook-deliveries-held">${t(lang, 'usage.deliveries.held', { count: formatNumber(lang, d.overCap) })}</p>` : ''}
<p class="hint">${t(lang, 'usage.deliveries.rule')}</p>
</section>`;
}

function share(lang: Lang, calls: number, total: number): string {
  if (total === 0) return '—';
  return formatPercent(lang, calls / total);
}

function breakdown(
  lang: Lang,
  title: string,
  head: string,
  rows: Array<{ label: SafeHtml; calls: number }>,
  total: number,
  testid: string,
): SafeHtml {
  return html`<section class="card" aria-label="${title}">
<h2>${title}</h2>
<table class="figures" data-testid="${testid}">
<thead><tr><th scope="col">${head}</th><th scope="col" class="num">${t(lang, 'usage.col.calls')}</th><th scope="col" class="num">${t(lang, 'usage.col.share')}</th></tr></thead>
<tbody>${rows.map((r) => html`<tr><th scope="row">${r.label}</th><td class="num">${formatNumber(lang, r.calls)}</td><td class="num">${share(lang, r.calls, total)}</td></tr>`)}</tbody>
</table>
</section>`;
}

export function usagePage(v: View, m: UsagePageModel): SafeHtml {
  const { lang } = v;
  const u = m.usage;
  const monthName = formatMonth(lang, u.month);
  const nav = html`<nav class="month-nav" aria-label="${monthName}">${
    m.prev ? html`<a href="${v.base}/usage?month=${m.prev}">${t(lang, 'usage.prev')}</a>` : html`<span></span>`
  }<strong>${monthName}</strong>${m.next ? html`<a href="${v.base}/usage?month=${m.next}">${t(lang, 'usage.next')}</a>` : html`<span></span>`}</nav>`;
  const total = html`<p class="big" data-testid="usage-total" data-used="${u.used}">${t(lang, 'usage.total', { used: formatNumber(lang, u.used), month: monthName })}</p>`;

  let content: SafeHtml;
  if (!PLANS[m.plan].usageAnalytics) {
    content = upgradeInvite(v);
  } else if (u.used === 0 && u.endpoints.length === 0) {
    content = html`<p class="empty">${t(lang, 'usage.empty')}</p>`;
  } else {
    const max = Math.max(0, ...u.days.map((d) => d.calls));
    const chart = barChart(lang, u.days, {
      id: 'calls-per-day',
      label: t(lang, 'usage.chart.desc', { month: monthName, max: formatNumber(lang, max) }),
    });
    const dayTable = html`<details class="as-table"><summary>${t(lang, 'usage.table.show')}</summary>
<table class="figures"><thead><tr><th scope="col">${t(lang, 'usage.col.day')}</th><th scope="col" class="num">${t(lang, 'usage.col.calls')}</th></tr></thead>
<tbody>${u.days.filter((d) => d.calls > 0).map((d) => html`<tr><th scope="row">${formatShortDay(lang, dayDate(d.day))}</th><td class="num">${formatNumber(lang, d.calls)}</td></tr>`)}</tbody></table>
</details>`;
    const endpointRows = u.endpoints.map((e) => ({
      label: html`<code>${ENDPOINT_LABELS[e.endpoint] ?? e.endpoint}</code>`,
      calls: e.calls,
    }));
    const keyRows = u.keys.map((k) => ({
      label: html`${k.name ?? k.keyId} <code>${k.prefix ? `${k.prefix}…` : ''}</code>${k.revoked ? html` <span class="muted">${t(lang, 'usage.revoked')}</span>` : ''}`,
      calls: k.calls,
    }));
    content = html`<section class="card" aria-labelledby="chart-title">
<h2 id="chart-title">${t(lang, 'usage.chart.title')}</h2>
${chart}
${dayTable}
</section>
<div class="grid">
${breakdown(lang, t(lang, 'usage.byEndpoint'), t(lang, 'usage.col.endpoint'), endpointRows, u.used, 'by-endpoint')}
${breakdown(lang, t(lang, 'usage.byKey'), t(lang, 'usage.col.key'), keyRows, u.used, 'by-key')}
</div>`;
  }
  const body = html`<h1>${t(lang, 'usage.title')}</h1>
${nav}
${total}
<p class="hint">${t(lang, 'usage.note')}</p>
${m.availability ? availabilityCard(lang, m.availability) : ''}
${deliveriesCard(lang, m.plan, monthName, u.webhookDeliveries)}
${content}`;
  return page(v, { title: t(lang, 'usage.title'), section: 'usage', body });
}
