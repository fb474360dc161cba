/** Billing: each month's charge from the plans held, plan changes dated, the proration rule stated. */
import { PLANS } from '../../../contract/plans.js';
import type { MonthStatement } from '../../accounts/billing.js';
import type { InvoiceView } from '../../billing/invoices.js';
import { dayDate, formatDay, formatDayTime, formatMonth, formatNumber, formatShortDay, formatXaf } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { t } from '../i18n.js';
import { suspendedText } from '../labels.js';
import { page, type View } from './layout.js';

function statement(lang: Lang, s: MonthStatement, isFirstMonth: boolean, now: Date): SafeHtml {
  const status =
    s.status === 'closed'
      ? html`<span class="status status-off">${t(lang, 'billing.closed')}</span>`
      : html`<span class="status status-warn">${t(lang, 'billing.inProgress', { date: formatDay(lang, now) })}</span>`;
  const lines = s.lines.map((l) => {
    const period =
      l.from === l.to
        ? formatShortDay(lang, dayDate(l.from))
        : `${formatShortDay(lang, dayDate(l.from))} – ${formatShortDay(lang, dayDate(l.to))}`;
    const calc = `${formatNumber(lang, l.monthlyPriceXaf)} × ${l.days} / ${s.daysInMonth}`;
    return html`<tr>
<td data-label="${t(lang, 'billing.col.period')}">${period}</td>
<td data-label="${t(lang, 'billing.col.plan')}">${PLANS[l.plan].label}</td>
<td data-label="${t(lang, 'billing.col.days')}" class="num">${l.days}</td>
<td data-label="${t(lang, 'billing.col.calc')}" class="num calc">${calc}</td>
<td data-label="${t(lang, 'billing.col.amount')}" class="num">${formatXaf(lang, l.amountXaf)}</td>
</tr>`;
  });
  const changes = s.changes.map(
    (c, i) =>
      html`<li>${t(lang, isFirstMonth && i === 0 ? 'billing.opened' : 'billing.switched', { date: formatDayTime(lang, c.changedAt), plan: PLANS[c.plan].label })}</li>`,
  );
  return html`<section class="card statement" data-month="${s.month}" data-total="${s.totalXaf}" aria-labelledby="m-${s.month}">
<div class="statement-head"><h2 id="m-${s.month}">${formatMonth(lang, s.month)}</h2>${status}</div>
${
  s.lines.length === 0
    ? html`<p class="empty">${t(lang, 'billing.none')}</p>`
    : html`<div class="table-wrap"><table class="figures stack-table">
<thead><tr><th scope="col">${t(lang, 'billing.col.period')}</th><th scope="col">${t(lang, 'billing.col.plan')}</th><th scope="col" class="num">${t(lang, 'billing.col.days')}</th><th scope="col" class="num">${t(lang, 'billing.col.calc')}</th><th scope="col" class="num">${t(lang, 'billing.col.amount')}</th></tr></thead>
<tbody>${lines}</tbody>
<tfoot><tr><th scope="row" colspan="4">${t(lang, 'billing.total')}</th><td class="num total" data-label="${t(lang, 'billing.total')}">${formatXaf(lang, s.totalXaf)}</td></tr></tfoot>
</table></div>`
}
${s.projectedTotalXaf !== null ? html`<p class="hint">${t(lang, 'billing.projected', { amount: formatXaf(lang, s.projectedTotalXaf) })}</p>` : ''}
${changes.length ? html`<h3>${t(lang, 'billing.changes')}</h3><ul class="changes">${changes}</ul>` : ''}
</section>`;
}

function invoiceStatus(lang: Lang, i: InvoiceView): SafeHtml {
  if (i.status === 'paid')
    return html`<span class="status status-on">${t(lang, 'billing.status.paid', { date: formatDay(lang, new Date(i.paid_at!)) })}</span>`;
  if (i.status === 'overdue') return html`<span class="status status-bad">${t(lang, 'billing.status.overdue')}</span>`;
  return html`<span class="status status-warn">${t(lang, 'billing.status.unpaid')}</span>`;
}

/** Issued invoices, each downloadable as PDF, and how to pay them. */
function invoicesSection(v: View, invoices: InvoiceView[]): SafeHtml {
  const { lang } = v;
  const col = {
    number: t(lang, 'billing.col.number'),
    month: t(lang, 'billing.col.month'),
    due: t(lang, 'billing.col.due'),
    total: t(lang, 'billing.col.totalTtc'),
    status: t(lang, 'billing.col.status'),
  };
  const rows = invoices.map(
    (i) => html`<tr data-invoice="${i.number}" data-status="${i.status}">
<th scope="row" data-label="${col.number}">${i.display_number}</th>
<td data-label="${col.month}">${formatMonth(lang, i.month)}</td>
<td data-label="${col.due}">${formatDay(lang, dayDate(i.due_on))}</td>
<td data-label="${col.total}" class="num">${formatXaf(lang, i.total_xaf)}</td>
<td data-label="${col.status}">${invoiceStatus(lang, i)}</td>
<td class="cell-actions"><a class="btn btn-small" href="${v.base}/billing/invoices/${i.number}" download aria-label="${t(lang, 'billing.download.label', { number: i.display_number })}">${t(lang, 'billing.download')}</a></td>
</tr>`,
  );
  return html`<section class="card" aria-labelledby="invoices-title" id="invoices">
<h2 id="invoices-title">${t(lang, 'billing.invoices.title')}</h2>
${
  invoices.length === 0
    ? html`<p class="empty">${t(lang, 'billing.invoices.none')}</p>`
    : html`<div class="table-wrap"><table class="figures stack-table" data-testid="invoices">
<thead><tr><th scope="col">${col.number}</th><th scope="col">${col.month}</th><th scope="col">${col.due}</th><th scope="col" class="num">${col.total}</th><th scope="col">${col.status}</th><th scope="col"><span class="sr">PDF</span></th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`
}
<h3>${t(lang, 'billing.pay.title')}</h3>
<p data-testid="how-to-pay">${t(lang, 'billing.pay.text')}</p>
</section>`;
}

export function billingPage(v: View, o: { statements: MonthStatement[]; invoices: InvoiceView[]; now: Date }): SafeHtml {
  const { lang } = v;
  const oldest = o.statements[o.statements.length - 1]?.month;
  const body = html`<h1>${t(lang, 'billing.title')}</h1>
<p class="lead">${t(lang, 'billing.lead')}</p>
${v.account?.status === 'suspended' ? html`<div class="notice notice-error" role="alert" data-testid="suspended">${suspendedText(lang, v.account)}</div>` : ''}
${invoicesSection(v, o.invoices)}
<h2>${t(lang, 'billing.statements.title')}</h2>
<p class="hint">${t(lang, 'billing.vatNote')}</p>
<section class="card rule" id="rule" aria-labelledby="rule-title">
<h2 id="rule-title">${t(lang, 'billing.rule.title')}</h2>
<p>${t(lang, 'billing.rule')}</p>
</section>
${o.statements.map((s) => statement(lang, s, s.month === oldest, o.now))}`;
  return page(v, { title: t(lang, 'billing.title'), section: 'billing', body });
}
