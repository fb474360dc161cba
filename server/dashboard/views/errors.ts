/** Pages for what went wrong: not found, unreadable request, expired form, our own failure. */
import { html, type SafeHtml } from '../html.js';
import { t } from '../i18n.js';
import { page, type View } from './layout.js';

export function messagePage(v: View, o: { title: string; text: string }): SafeHtml {
  const body = html`<div class="narrow message">
<h1>${o.title}</h1>
<p>${o.text}</p>
<p><a class="btn" href="${v.base}/">${t(v.lang, 'back.home')}</a></p>
</div>`;
  return page(v, { title: o.title, section: 'none', body });
}

export const notFoundPage = (v: View) => messagePage(v, { title: t(v.lang, 'notFound.title'), text: t(v.lang, 'notFound.text') });
export const badRequestPage = (v: View) => messagePage(v, { title: t(v.lang, 'badRequest.title'), text: t(v.lang, 'badRequest.text') });
export const csrfPage = (v: View) => messagePage(v, { title: t(v.lang, 'csrf.title'), text: t(v.lang, 'error.csrf') });
export const serverErrorPage = (v: View, id: string) =>
  messagePage(v, { title: t(v.lang, 'serverError.title'), text: t(v.lang, 'serverError.text', { id }) });
export const unavailablePage = (v: View) => messagePage(v, { title: t(v.lang, 'serverError.title'), text: t(v.lang, 'unavailable.text') });
