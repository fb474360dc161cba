/** The page an e-mailed link leads to when there is nothing to fill in: what happened, and where next. */
import { html, type SafeHtml } from '../../platform/html.js';
import { t } from '../i18n.js';
import { page, type View } from './layout.js';

export function linkPage(v: View, o: { title: string; text: string; next: 'home' | 'login' | 'forgot'; testid?: string }): SafeHtml {
  const target =
    o.next === 'home'
      ? html`<a class="btn btn-primary" href="${v.base}/">${t(v.lang, 'welcome.continue')}</a>`
      : o.next === 'login'
        ? html`<a class="btn btn-primary" href="${v.base}/login">${t(v.lang, 'nav.login')}</a>`
        : html`<a class="btn btn-primary" href="${v.base}/password/forgot">${t(v.lang, 'reset.again')}</a>`;
  const body = html`<div class="narrow message"${o.testid ? html` data-testid="${o.testid}"` : ''}>
<h1>${o.title}</h1>
${o.text ? html`<p>${o.text}</p>` : ''}
<p>${target}</p>
</div>`;
  return page(v, { title: o.title, section: 'none', body });
}
