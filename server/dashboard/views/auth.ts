/** Sign-up, log-in and the welcome page that shows the first key. */
import { PLANS, type PlanName } from '../../../contract/plans.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import { isSelfServe, SELF_SERVE_PLANS } from '../../accounts/plan-rules.js';
import { html, type SafeHtml } from '../../platform/html.js';
import { t } from '../i18n.js';
import { page, type View } from './layout.js';
import { contactSalesLink, errorSummary, type FieldErrors, field, keyReveal, planGrid } from './parts.js';

export interface SignupForm {
  company: string;
  email: string;
  plan: PlanName | null;
}
export type SignupErrors = FieldErrors<'company' | 'email' | 'password' | 'plan' | 'form'>;

export function signupPage(v: View, o: { form: SignupForm; errors: SignupErrors; formToken: string }): SafeHtml {
  const { lang } = v;
  const body = html`<div class="narrow-head">
<h1>${t(lang, 'signup.title')}</h1>
<p class="lead">${t(lang, 'signup.lead')}</p>
</div>
${errorSummary(lang, o.errors)}
<form method="post" action="${v.base}/signup" class="card form" novalidate>
<input type="hidden" name="_csrf" value="${o.formToken}">
<div class="form-cols">
${field({ id: 'company', label: t(lang, 'field.company'), type: 'text', value: o.form.company, error: o.errors.company, autocomplete: 'organization', maxlength: 120 })}
${field({ id: 'email', label: t(lang, 'field.email'), type: 'email', value: o.form.email, error: o.errors.email, autocomplete: 'email', maxlength: 254 })}
</div>
${field({
  id: 'password',
  label: t(lang, 'field.password'),
  type: 'password',
  error: o.errors.password,
  hint: t(lang, 'field.password.rule', { min: PASSWORD_MIN_LENGTH }),
  autocomplete: 'new-password',
  minlength: PASSWORD_MIN_LENGTH,
  maxlength: PASSWORD_MAX_LENGTH,
})}
<fieldset class="field${o.errors.plan ? ' has-error' : ''}" id="plan">
<legend>${t(lang, 'field.plan')}</legend>
${o.errors.plan ? html`<p class="field-error">${o.errors.plan}</p>` : ''}
<p class="hint">${t(lang, 'signup.planNote')}</p>
${planGrid(lang, {
  action: (plan) =>
    isSelfServe(plan.name) ? '' : html`<p class="hint">${t(lang, 'signup.enterpriseNote')}</p>${contactSalesLink(v, false)}`,
  radio: { name: 'plan', checked: o.form.plan, plans: SELF_SERVE_PLANS },
})}
</fieldset>
<button type="submit" class="btn btn-primary btn-wide">${t(lang, 'signup.submit')}</button>
<p class="alt">${t(lang, 'signup.haveAccount')} <a href="${v.base}/login">${t(lang, 'nav.login')}</a></p>
</form>`;
  return page(v, { title: t(lang, 'signup.title'), section: 'none', body });
}

export function loginPage(v: View, o: { email: string; next: string; error?: string; formToken: string }): SafeHtml {
  const { lang } = v;
  const body = html`<div class="narrow">
<h1>${t(lang, 'login.title')}</h1>
${o.error ? html`<div class="notice notice-error" role="alert" id="form-errors">${o.error}</div>` : ''}
<form method="post" action="${v.base}/login" class="card form" novalidate>
<input type="hidden" name="_csrf" value="${o.formToken}">
<input type="hidden" name="next" value="${o.next}">
${field({ id: 'email', label: t(lang, 'field.email'), type: 'email', value: o.email, autocomplete: 'username', maxlength: 254 })}
${field({ id: 'password', label: t(lang, 'field.password'), type: 'password', autocomplete: 'current-password', maxlength: PASSWORD_MAX_LENGTH })}
<button type="submit" class="btn btn-primary btn-wide">${t(lang, 'login.submit')}</button>
<p class="hint"><a href="${v.base}/password/forgot">${t(lang, 'login.forgot')}</a></p>
<p class="alt">${t(lang, 'login.noAccount')} <a href="${v.base}/signup">${t(lang, 'nav.signup')}</a></p>
</form>
</div>`;
  return page(v, { title: t(lang, 'login.title'), section: 'none', body });
}

export function welcomePage(v: View, o: { company: string; plan: PlanName; key: string; email: string }): SafeHtml {
  const { lang } = v;
  const body = html`<h1>${t(lang, 'welcome.title', { company: o.company })}</h1>
<p class="lead">${t(lang, 'welcome.lead', { plan: PLANS[o.plan].label })}</p>
<div class="notice notice-info" role="status" data-testid="verify-pending">${t(lang, 'welcome.verify', { email: o.email })}</div>
${keyReveal(lang, { title: t(lang, 'signup.firstKeyName'), key: o.key, origin: v.origin })}
<p><a class="btn btn-primary" href="${v.base}/login">${t(lang, 'welcome.continue')}</a></p>`;
  return page(v, { title: t(lang, 'welcome.title', { company: o.company }), section: 'home', body });
}
