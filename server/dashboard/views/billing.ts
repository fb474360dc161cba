/** Billing: each month's charge from the plans held, plan changes dated, the proration rule stated. */
import { PLANS } from '../../../contract/plans.js';
import type { MonthStatement } from '../../accounts/billing.js';
import { dayDate, formatDay, formatDayTime, formatMonth, formatNumber, formatShortDay, formatXaf } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import { type Lang, t } from '../i18n.js';
import { page, type View } from './layout.js';

function statement(lang: Lang, s: MonthStatement, isFirstMonth: boolean, now: Date): SafeHtml {
  const status =
    s.status === 'closed'
      ? html`<span class="status status-off">${t(lang, 'billing.closed')}</span>`
      : html`<span class="status status-warn">${t(lang, 'billing.inProgress', { date: formatDay(lang, now) })}</span>`;
  const lines = s.lines.map((l) => {
    const period = l.from === l.to ? formatShortDay(lang, dayDate(l.from)) : `${formatShortDay(lang, dayDate(l.from))} – ${formatShortDay(lang, dayDate(l.to))}`;
    const calc = `${formatNumber(lang, l.monthlyPriceXaf)} × ${l.days} / ${s.daysInMonth}`;
    return html`<tr>
<td data-label="${t(lang, 'billing.col.period')}">${period}</td>
<td data-label="${t(lang, 'billing.col.plan')}">${PLANS[l.plan].label}</td>
<td data-label="${t(lang, 'billing.col.days')}" class="num">${l.days}</td>
<td data-label="${t(lang, 'billing.col.calc')}" class="num calc">${calc}</td>
<td data-label="${t(lang, 'billing.col.amount')}" class="num">${formatXaf(lang, l.amountXaf)}</td>
</tr>`;
  });
  const changes = s.changes.map((c, i) =>
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

export function billingPage(v: View, o: { statements: MonthStatement[]; now: Date }): SafeHtml {
  const { lang } = v;
  const oldest = o.statements[o.statements.length - 1]?.month;
  const body = html`<h1>${t(lang, 'billing.title')}</h1>
<p class="lead">${t(lang, 'billing.lead')}</p>
<section class="card rule" id="rule" aria-labelledby="rule-title">
<h2 id="rule-title">${t(lang, 'billing.rule.title')}</h2>
<p>${t(lang, 'billing.rule')}</p>
</section>
${o.statements.map((s) => statement(lang, s, s.month === oldest, o.now))}`;
  return page(v, { title: t(lang, 'billing.title'), section: 'billing', body });
}
