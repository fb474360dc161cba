/** Pieces shared by several pages: form fields, error summaries, the shown-once key, plan cards. */
import { ENDPOINTS, PLANS, PLAN_NAMES, type PlanDefinition, type PlanName } from '../../../contract/plans.js';
import { formatNumber, formatXaf } from '../../platform/format.js';
import { type HtmlValue, html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { t } from '../i18n.js';
import { ENDPOINT_LABELS, supportText } from '../labels.js';

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

interface Labelled {
  id: string;
  label: string;
  error?: string;
  hint?: string;
}

/** A form control with its label, hint and error, tied to it by `aria` (its describedby and invalid attributes). */
function labelled(o: Labelled, control: (aria: SafeHtml) => SafeHtml): SafeHtml {
  const described = [o.hint ? `${o.id}-hint` : '', o.error ? `${o.id}-error` : ''].filter(Boolean).join(' ');
  const aria = html`${described ? html` aria-describedby="${described}"` : ''}${o.error ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field${o.error ? ' has-error' : ''}">
<label for="${o.id}">${o.label}</label>
${o.hint ? html`<p class="hint" id="${o.id}-hint">${o.hint}</p>` : ''}
${o.error ? html`<p class="field-error" id="${o.id}-error">${o.error}</p>` : ''}
${control(aria)}
</div>`;
}

/** A one-line field. */
export function field(
  o: Labelled & {
    type: 'text' | 'email' | 'password' | 'tel';
    value?: string;
    autocomplete: string;
    maxlength?: number;
    minlength?: number;
    /** Optional fields are not `required`. */
    optional?: boolean;
  },
): SafeHtml {
  return labelled(
    o,
    (aria) =>
      html`<input id="${o.id}" name="${o.id}" type="${o.type}" value="${o.type === 'password' ? '' : (o.value ?? '')}" autocomplete="${o.autocomplete}"${o.optional ? '' : html` required`}${o.maxlength ? html` maxlength="${o.maxlength}"` : ''}${o.minlength ? html` minlength="${o.minlength}"` : ''}${aria}>`,
  );
}

/** The list of problems at the top of a refused form, linking to each field. */
export function errorSummary(lang: Lang, errors: Record<string, string | undefined>): SafeHtml {
  const entries = Object.entries(errors).filter((e): e is [string, string] => Boolean(e[1]));
  if (entries.length === 0) return html``;
  // A refusal of the whole action (not of a field) is said as it is.
  if (entries.length === 1 && entries[0][0] === 'form') {
    return html`<div class="notice notice-error" role="alert" tabindex="-1" id="form-errors">${entries[0][1]}</div>`;
  }
  return html`<div class="notice notice-error" role="alert" tabindex="-1" id="form-errors">
<p>${t(lang, 'form.fix')}</p>
<ul>${entries.map(([name, message]) => (name === 'form' ? html`<li>${message}</li>` : html`<li><a href="#${name}">${message}</a></li>`))}</ul>
</div>`;
}

export function copyButton(lang: Lang, target: string): SafeHtml {
  return html`<button type="button" class="btn btn-small copy" data-copy="${target}" data-copied="${t(lang, 'copied')}">${t(lang, 'copy')}</button>`;
}

/** A key in full, once, with copy buttons and a first call to try it. */
export function keyReveal(lang: Lang, o: { title: string; key: string; origin: string; extra?: HtmlValue }): SafeHtml {
  const curl = `curl -H "X-API-Key: ${o.key}" "${o.origin}/api/v1/listings?city=Douala&limit=5"`;
  return html`<section class="card reveal" aria-labelledby="reveal-title">
<h2 id="reveal-title">${o.title}</h2>
<p class="warn">${t(lang, 'key.once')}</p>
<div class="key-box"><code id="new-key" class="key" data-testid="new-key">${o.key}</code>${copyButton(lang, 'new-key')}</div>
${o.extra ?? ''}
<h3>${t(lang, 'quickstart.title')}</h3>
<p>${t(lang, 'quickstart.lead')}</p>
<div class="code-box"><pre class="code"><code id="first-call">${curl}</code></pre>${copyButton(lang, 'first-call')}</div>
<p class="hint">${t(lang, 'quickstart.docs')} <a href="/docs">${o.origin}/docs</a></p>
</section>`;
}

function endpointsText(lang: Lang, plan: PlanDefinition): SafeHtml {
  if (plan.name === 'enterprise' && ENDPOINTS.every((e) => plan.endpoints.includes(e))) {
    return html`${t(lang, 'plans.allEndpoints')}`;
  }
  // Saved searches and webhook endpoints are a family of routes each: one name per family.
  const family = (e: string) =>
    e.startsWith('saved_searches.')
      ? 'saved-searches'
      : e.startsWith('webhook_endpoints.')
        ? 'webhook-endpoints'
        : (ENDPOINT_LABELS[e] ?? e);
  const names = [...new Set(plan.endpoints.map(family))];
  return html`${names.map((name, i) => html`${i > 0 ? ', ' : ''}<code>${name}</code>`)}`;
}

/** How many saved searches and webhook endpoints an account may keep. */
function pushText(lang: Lang, plan: PlanDefinition): SafeHtml {
  if (plan.maxSavedSearches === 0 && plan.maxWebhookEndpoints === 0) return html`<span class="no">— ${t(lang, 'plans.notIncluded')}</span>`;
  return html`${t(lang, 'plans.push', { searches: formatNumber(lang, plan.maxSavedSearches), endpoints: formatNumber(lang, plan.maxWebhookEndpoints) })}`;
}

const amount = (lang: Lang, value: number | null) => (value === null ? t(lang, 'unlimited') : formatNumber(lang, value));

/** The rows of the specification's plans table, for one plan. */
export function planFacts(lang: Lang, plan: PlanDefinition): SafeHtml {
  const support = supportText(lang, plan.supportLevel) + (plan.name === 'enterprise' ? `; ${t(lang, 'plans.annualContract')}` : '');
  return html`<dl class="facts">
<div class="fact-price"><dt>${t(lang, 'plans.row.price')}</dt><dd>${formatXaf(lang, plan.priceXafPerMonth)}</dd></div>
<div><dt>${t(lang, 'plans.row.quota')}</dt><dd>${amount(lang, plan.monthlyQuota)}</dd></div>
<div><dt>${t(lang, 'plans.row.rate')}</dt><dd>${plan.ratePerMinute === null ? t(lang, 'unlimited') : t(lang, 'plans.perMinute', { n: formatNumber(lang, plan.ratePerMinute) })}</dd></div>
<div><dt>${t(lang, 'plans.row.keys')}</dt><dd>${amount(lang, plan.maxKeys)}</dd></div>
<div><dt>${t(lang, 'plans.row.endpoints')}</dt><dd>${endpointsText(lang, plan)}</dd></div>
<div><dt>${t(lang, 'plans.row.support')}</dt><dd>${support}</dd></div>
<div><dt>${t(lang, 'plans.row.analytics')}</dt><dd>${plan.usageAnalytics ? html`<span class="yes">✓ ${t(lang, 'plans.included')}</span>` : html`<span class="no">— ${t(lang, 'plans.notIncluded')}</span>`}</dd></div>
<div><dt>${t(lang, 'plans.row.push')}</dt><dd>${pushText(lang, plan)}</dd></div>
</dl>`;
}

/**
 * The three plans side by side (stacked on a phone), each ending with `action(plan)`.
 * With `radio`, the plans it lists can be picked as a form field; the others (Enterprise,
 * sold by contract) show only their action.
 */
export function planGrid(
  lang: Lang,
  o: {
    current?: PlanName | null;
    action: (plan: PlanDefinition) => HtmlValue;
    radio?: { name: string; checked: PlanName | null; plans: readonly PlanName[] };
  },
): SafeHtml {
  return html`<div class="plans">${PLAN_NAMES.map((name) => {
    const plan = PLANS[name];
    const isCurrent = o.current === name;
    const head = html`<h3 class="plan-name">${plan.label}${isCurrent ? html` <span class="badge">${t(lang, 'plans.current')}</span>` : ''}</h3>`;
    if (o.radio && o.radio.plans.includes(name)) {
      return html`<label class="plan card${o.radio.checked === name ? ' selected' : ''}" data-plan="${name}">
<input type="radio" name="${o.radio.name}" value="${name}"${o.radio.checked === name ? html` checked` : ''} required>
${head}${planFacts(lang, plan)}${o.action(plan)}
</label>`;
    }
    return html`<section class="plan card${isCurrent ? ' selected' : ''}" data-plan="${name}">${head}${planFacts(lang, plan)}<div class="plan-action">${o.action(plan)}</div></section>`;
  })}</div>`;
}

/** The way to Enterprise: a request to sales, never a button that switches plan. */
export function contactSalesLink(v: { base: string; lang: Lang }, primary = true): SafeHtml {
  return html`<a class="btn${primary ? ' btn-primary' : ''}" href="${v.base}/contact-sales" data-testid="contact-sales">${t(v.lang, 'plans.contactSales')}</a>`;
}

/** A multi-line text field, labelled and described like `field`. */
export function textArea(o: Labelled & { value?: string; maxlength: number; rows?: number }): SafeHtml {
  return labelled(
    o,
    (aria) =>
      html`<textarea id="${o.id}" name="${o.id}" rows="${o.rows ?? 6}" maxlength="${o.maxlength}" required${aria}>${o.value ?? ''}</textarea>`,
  );
}
