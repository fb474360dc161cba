/** Account: who the account is, password change, closure (what is kept, and for how long). */
import { INVOICE_RETENTION_YEARS } from '../../accounts/closure.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../accounts/passwords.js';
import { formatDay } from '../../platform/format.js';
import { html, type SafeHtml } from '../../platform/html.js';
import { t } from '../i18n.js';
import { csrfField, page, type View } from './layout.js';
import { errorSummary, field } from './parts.js';

export interface AccountPageModel {
  /** Enterprise under contract: closed through the account manager, not here. */
  underContract: boolean;
  passwordErrors?: { current?: string; next?: string; form?: string };
  closeError?: string;
}

export function accountPage(v: View, m: AccountPageModel): SafeHtml {
  const { lang } = v;
  const a = v.account!;
  const details = html`<dl class="facts">
<div><dt>${t(lang, 'account.company')}</dt><dd>${a.companyName ?? '—'}</dd></div>
<div><dt>${t(lang, 'account.email')}</dt><dd>${a.email} <span class="status ${a.emailVerifiedAt ? 'status-on' : 'status-warn'}">${t(lang, a.emailVerifiedAt ? 'account.verified' : 'account.unverified')}</span></dd></div>
<div><dt>${t(lang, 'account.opened')}</dt><dd>${formatDay(lang, a.createdAt)}</dd></div>
</dl>`;
  const password = html`<section class="card" aria-labelledby="password-title">
<h2 id="password-title">${t(lang, 'account.password.title')}</h2>
${errorSummary(lang, m.passwordErrors ?? {})}
<form method="post" action="${v.base}/account/password" class="form" novalidate>
${csrfField(v)}
<input type="email" name="username" value="${a.email}" autocomplete="username" hidden>
${field({ id: 'current', label: t(lang, 'field.currentPassword'), type: 'password', error: m.passwordErrors?.current, autocomplete: 'current-password', maxlength: PASSWORD_MAX_LENGTH })}
${field({
  id: 'next',
  label: t(lang, 'field.newPassword'),
  type: 'password',
  error: m.passwordErrors?.next,
  hint: t(lang, 'field.password.rule', { min: PASSWORD_MIN_LENGTH }),
  autocomplete: 'new-password',
  minlength: PASSWORD_MIN_LENGTH,
  maxlength: PASSWORD_MAX_LENGTH,
})}
<p class="hint">${t(lang, 'account.password.note')}</p>
<button type="submit" class="btn btn-primary">${t(lang, 'account.password.submit')}</button>
</form>
</section>`;
  const close = html`<section class="card danger-zone" aria-labelledby="close-title" id="close">
<h2 id="close-title">${t(lang, 'account.close.title')}</h2>
<p data-testid="retention">${t(lang, 'account.close.text', { years: INVOICE_RETENTION_YEARS })}</p>
${
  m.underContract
    ? html`<p class="notice notice-info">${t(lang, 'account.close.contract')}</p>`
    : html`${m.closeError ? html`<div class="notice notice-error" role="alert" id="close-error">${m.closeError}</div>` : ''}
<form method="post" action="${v.base}/account/close" class="form" novalidate data-confirm="${t(lang, 'account.close.confirm')}">
${csrfField(v)}
${field({ id: 'closePassword', label: t(lang, 'account.close.password'), type: 'password', autocomplete: 'current-password', maxlength: PASSWORD_MAX_LENGTH })}
<button type="submit" class="btn btn-danger">${t(lang, 'account.close.submit')}</button>
</form>`
}
</section>`;
  const body = html`<h1>${t(lang, 'account.title')}</h1>
<section class="card">${details}</section>
${password}
${close}`;
  return page(v, { title: t(lang, 'account.title'), section: 'account', body });
}

export function closedPage(v: View, o: { email: string }): SafeHtml {
  const { lang } = v;
  const body = html`<div class="narrow message" data-testid="closed">
<h1>${t(lang, 'closed.title')}</h1>
<p>${t(lang, 'closed.text', { years: INVOICE_RETENTION_YEARS, email: o.email })}</p>
</div>`;
  return page(v, { title: t(lang, 'closed.title'), section: 'none', body });
}
