/** "Contact sales": the way to Enterprise, sold by annual contract. */
import { SALES_LIMITS } from '../../accounts/sales.js';
import { html, type SafeHtml } from '../../platform/html.js';
import { t } from '../i18n.js';
import { page, type View } from './layout.js';
import { errorSummary, type FieldErrors, field, textArea } from './parts.js';

export interface SalesForm {
  company: string;
  contactName: string;
  email: string;
  phone: string;
  message: string;
}
export type SalesErrors = FieldErrors<'company' | 'contactName' | 'email' | 'phone' | 'message' | 'form'>;

export function salesPage(v: View, o: { form: SalesForm; errors: SalesErrors; token: string }): SafeHtml {
  const { lang } = v;
  const f = o.form;
  const body = html`<div class="narrow-head">
<h1>${t(lang, 'sales.title')}</h1>
<p class="lead">${t(lang, 'sales.lead')}</p>
</div>
${errorSummary(lang, o.errors)}
<form method="post" action="${v.base}/contact-sales" class="card form" novalidate>
<input type="hidden" name="_csrf" value="${o.token}">
<div class="form-cols">
${field({ id: 'company', label: t(lang, 'field.company'), type: 'text', value: f.company, error: o.errors.company, autocomplete: 'organization', maxlength: SALES_LIMITS.company })}
${field({ id: 'contactName', label: t(lang, 'field.contactName'), type: 'text', value: f.contactName, error: o.errors.contactName, autocomplete: 'name', maxlength: SALES_LIMITS.contactName })}
${field({ id: 'email', label: t(lang, 'field.email'), type: 'email', value: f.email, error: o.errors.email, autocomplete: 'email', maxlength: 254 })}
${field({ id: 'phone', label: t(lang, 'field.phone'), type: 'tel', value: f.phone, error: o.errors.phone, autocomplete: 'tel', maxlength: SALES_LIMITS.phone, optional: true })}
</div>
${textArea({ id: 'message', label: t(lang, 'field.message'), value: f.message, error: o.errors.message, hint: t(lang, 'field.message.hint', { max: SALES_LIMITS.message }), maxlength: SALES_LIMITS.message })}
<button type="submit" class="btn btn-primary btn-wide">${t(lang, 'sales.submit')}</button>
</form>`;
  return page(v, { title: t(lang, 'sales.title'), section: 'plans', body });
}

export function salesSentPage(v: View, o: { email: string }): SafeHtml {
  const { lang } = v;
  const body = html`<div class="narrow message" data-testid="sales-sent">
<h1>${t(lang, 'sales.sent.title')}</h1>
<p>${t(lang, 'sales.sent.text', { email: o.email })}</p>
<p><a class="btn" href="${v.base}/plans">${t(lang, 'sales.back')}</a></p>
</div>`;
  return page(v, { title: t(lang, 'sales.sent.title'), section: 'plans', body });
}
