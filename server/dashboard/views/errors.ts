/** Pages for what went wrong: not found, unreadable request, expired form, our own failure. */
import { html, type SafeHtml } from '../../platform/html.js';
import { LANGS } from '../../platform/lang.js';
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
export const controlCharactersPage = (v: View) =>
  messagePage(v, { title: t(v.lang, 'badRequest.title'), text: t(v.lang, 'badRequest.control') });
export const csrfPage = (v: View) => messagePage(v, { title: t(v.lang, 'csrf.title'), text: t(v.lang, 'error.csrf') });
export const serverErrorPage = (v: View, id: string) =>
  messagePage(v, { title: t(v.lang, 'serverError.title'), text: t(v.lang, 'serverError.text', { id }) });
/**
 * The database cannot be reached. Said in the visitor's language first, then in the other
 * one: this page may be met before any preference could be read from the account.
 */
export function unavailablePage(v: View, retryAfterSeconds: number): SafeHtml {
  const other = LANGS.find((l) => l !== v.lang)!;
  const say = (lang: typeof other, heading: 'h1' | 'h2') => {
    const title = t(lang, 'unavailable.title');
    const text = t(lang, 'unavailable.text', { seconds: retryAfterSeconds });
    return heading === 'h1'
      ? html`<h1>${title}</h1><p>${text}</p>`
      : html`<div lang="${lang}" class="other-lang"><h2>${title}</h2><p>${text}</p></div>`;
  };
  const body = html`<div class="narrow message" data-testid="unavailable">
${say(v.lang, 'h1')}
${say(other, 'h2')}
<p><a class="btn" href="${v.base}${v.path}">${t(v.lang, 'unavailable.retry')}</a></p>
</div>`;
  return page(v, { title: t(v.lang, 'unavailable.title'), section: 'none', body });
}
