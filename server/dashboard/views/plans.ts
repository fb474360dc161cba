/** The three plans side by side, as the specification's table; switch plan or start with one. */
import type { PlanName } from '../../../contract/plans.js';
import type { KeyView } from '../../accounts/service.js';
import { html, type SafeHtml } from '../html.js';
import { t } from '../i18n.js';
import { csrfField, page, type View } from './layout.js';
import { keysTable } from './keys.js';
import { planGrid } from './parts.js';

export interface PlansPageModel {
  current: PlanName | null;
  /** A refused downgrade: the message and the active keys to choose from. */
  refusal?: { message: string; keys: KeyView[] };
}

export function plansPage(v: View, m: PlansPageModel): SafeHtml {
  const { lang } = v;
  const grid = planGrid(lang, {
    current: m.current,
    action: (plan) => {
      if (!v.account) {
        return html`<a class="btn btn-primary" href="${v.base}/signup?plan=${plan.name}">${t(lang, 'plans.start', { plan: plan.label })}</a>`;
      }
      if (plan.name === m.current) return html``;
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
${refusal}
${grid}
<details class="card rule" id="rule">
<summary>${t(lang, 'plans.billing')}</summary>
<p>${t(lang, 'billing.rule')}</p>
</details>`;
  return page(v, { title: t(lang, 'plans.title'), section: 'plans', body });
}

