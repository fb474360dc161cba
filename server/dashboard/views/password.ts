/** Password pages: ask for a reset link, choose a new password from it. */
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import { html, type SafeHtml } from '../../platform/html.js';
import { t } from '../i18n.js';
import { page, type View } from './layout.js';
import { errorSummary, field } from './parts.js';

export function forgotPage(v: View, o: { email: string; token: string; sentTo?: string; error?: string }): SafeHtml {
  const { lang } = v;
  const body = html`<div class="narrow">
<h1>${t(lang, 'forgot.title')}</h1>
${o.sentTo ? html`<div class="notice notice-success" role="status" data-testid="reset-sent">${t(lang, 'forgot.sent', { email: o.sentTo })}</div>` : ''}
${errorSummary(lang, { form: o.error })}
<p class="lead">${t(lang, 'forgot.lead')}</p>
<form method="post" action="${v.base}/password/forgot" class="card form" novalidate>
<input type="hidden" name="_csrf" value="${o.token}">
${field({ id: 'email', label: t(lang, 'field.email'), type: 'email', value: o.email, autocomplete: 'email', maxlength: 254 })}
<button type="submit" class="btn btn-primary btn-wide">${t(lang, 'forgot.submit')}</button>
<p class="alt"><a href="${v.base}/login">${t(lang, 'nav.login')}</a></p>
</form>
</div>`;
  return page(v, { title: t(lang, 'forgot.title'), section: 'none', body });
}

export function resetPage(v: View, o: { email: string; link: string; token: string; error?: string }): SafeHtml {
  const { lang } = v;
  const body = html`<div class="narrow">
<h1>${t(lang, 'reset.title')}</h1>
<p class="lead">${t(lang, 'reset.lead', { email: o.email })}</p>
<form method="post" action="${v.base}/password/reset" class="card form" novalidate>
<input type="hidden" name="_csrf" value="${o.token}">
<input type="hidden" name="token" value="${o.link}">
<input type="email" name="username" value="${o.email}" autocomplete="username" hidden>
${field({
  id: 'password',
  label: t(lang, 'field.newPassword'),
  type: 'password',
  error: o.error,
  hint: t(lang, 'field.password.rule', { min: PASSWORD_MIN_LENGTH }),
  autocomplete: 'new-password',
  minlength: PASSWORD_MIN_LENGTH,
  maxlength: PASSWORD_MAX_LENGTH,
})}
<button type="submit" class="btn btn-primary btn-wide">${t(lang, 'reset.submit')}</button>
</form>
</div>`;
  return page(v, { title: t(lang, 'reset.title'), section: 'none', body });
}
