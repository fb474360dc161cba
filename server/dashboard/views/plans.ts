/**
 * The three plans side by side, as the specification's table. Starter and Pro are switched
 * to from here; Enterprise, sold by annual contract, leads to a request to sales.
 */
import type { PlanName } from '../../../contract/plans.js';
import { isSelfServe } from '../../accounts/plan-rules.js';
import { DAY_MS } from '../../accounts/policy.js';
import type { KeyView } from '../../accounts/views.js';
import { formatDay } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import { t } from '../i18n.js';
import { suspendedText } from '../labels.js';
import { csrfField, page, type View } from './layout.js';
import { keysTable } from './keys.js';
import { contactSalesLink, planGrid } from './parts.js';

export interface PlansPageModel {
  current: PlanName | null;
  /** Plans the customer may switch to alone (none while an Enterprise contract binds them). */
  switchable: PlanName[];
  /** A refused downgrade: the message and the active keys to choose from. */
  refusal?: { message: string; keys: KeyView[] };
}

/** What an Enterprise customer is told about their contract. */
export function contractNotice(v: View, now: Date): SafeHtml {
  const account = v.account;
  if (!account || account.plan !== 'enterprise') return html``;
  const { lang } = v;
  if (account.contractEnd === null) return html`<p class="notice notice-info" data-testid="contract">${t(lang, 'plans.contract.open')}</p>`;
  const date = formatDay(lang, account.contractEnd);
  const ended = now.getTime() >= account.contractEnd.getTime() + DAY_MS;
  return html`<p class="notice notice-info" data-testid="contract">${t(lang, ended ? 'plans.contract.ended' : 'plans.contract.until', { date })}</p>`;
}

export function plansPage(v: View, m: PlansPageModel, now = new Date()): SafeHtml {
  const { lang } = v;
  const grid = planGrid(lang, {
    current: m.current,
    action: (plan) => {
      if (!isSelfServe(plan.name)) return plan.name === m.current ? html`` : contactSalesLink(v);
      if (!v.account) {
        return html`<a class="btn btn-primary" href="${v.base}/signup?plan=${plan.name}">${t(lang, 'plans.start', { plan: plan.label })}</a>`;
      }
      if (!m.switchable.includes(plan.name)) return html``;
      return html`<form method="post" action="${v.base}/plans" data-confirm="${t(lang, 'plans.switch.confirm', { plan: plan.label })}">
${csrfField(v)}<input type="hidden" name="plan" value="${plan.name}">
<button type="submit" class="btn btn-primary">${t(lang, 'plans.switch', { plan: plan.label })}</button>
</form>`;
    },
  });
  const refusal = m.refusal
    ? html`<section class="notice notice-error" role="alert" id="form-errors" data-testid="downgrade-refused">
<p>${m.refusal.message}</p>
${keysTable(v, m.refusal.keys, { back: '/plans' })}
</section>`
    : '';
  const body = html`<h1>${t(lang, 'plans.title')}</h1>
<p class="lead">${t(lang, 'plans.lead')}</p>
${contractNotice(v, now)}
${v.account?.status === 'suspended' ? html`<div class="notice notice-error" role="alert" data-testid="suspended">${suspendedText(lang, v.account)}</div>` : ''}
${refusal}
${grid}
<details class="card rule" id="rule">
<summary>${t(lang, 'plans.billing')}</summary>
<p>${t(lang, 'billing.rule')}</p>
</details>`;
  return page(v, { title: t(lang, 'plans.title'), section: 'plans', body });
}
