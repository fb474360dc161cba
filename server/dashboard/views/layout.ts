/** The page shell: head, top bar (sections, language switch, log-out), notices, footer. */
import { type HtmlValue, html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { type MessageKey, t } from '../i18n.js';
import type { Prisma } from '../../platform/db.js';

type AccountRow = Awaited<ReturnType<Prisma['account']['findUniqueOrThrow']>>;

export interface Notice {
  kind: 'success' | 'error' | 'info';
  text: string;
}

/** What every page needs to know about the request. */
export interface View {
  lang: Lang;
  /** Where the dashboard is mounted, e.g. `/dashboard`. */
  base: string;
  /** The current page under `base`, with its query, for the language switch. */
  path: string;
  account: AccountRow | null;
  /** The session's CSRF token, for forms. */
  csrf: string | null;
  notices: Notice[];
  assets: { css: string; js: string };
  /** Public origin of the API, for examples (`https://host`). */
  origin: string;
}

export type Section = 'home' | 'market' | 'keys' | 'webhooks' | 'usage' | 'plans' | 'billing' | 'account' | 'none';

const SECTIONS: Array<{ id: Section; path: string; label: MessageKey }> = [
  { id: 'home', path: '/', label: 'nav.home' },
  { id: 'market', path: '/market', label: 'nav.market' },
  { id: 'keys', path: '/keys', label: 'nav.keys' },
  { id: 'webhooks', path: '/webhooks', label: 'nav.webhooks' },
  { id: 'usage', path: '/usage', label: 'nav.usage' },
  { id: 'plans', path: '/plans', label: 'nav.plans' },
  { id: 'billing', path: '/billing', label: 'nav.billing' },
  { id: 'account', path: '/account', label: 'nav.account' },
];

export function csrfField(v: View): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${v.csrf ?? ''}">`;
}

export function noticeList(notices: Notice[]): SafeHtml {
  return html`${notices.map(
    (n) => html`<div class="notice notice-${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}">${n.text}</div>`,
  )}`;
}

function langSwitch(v: View): SafeHtml {
  const next = encodeURIComponent(v.path);
  const link = (lang: Lang, label: string, name: string) =>
    lang === v.lang
      ? html`<span class="lang-current" aria-current="true" lang="${lang}" title="${name}">${label}</span>`
      : html`<a href="${v.base}/lang/${lang}?next=${next}" lang="${lang}" hreflang="${lang}" title="${name}">${label}</a>`;
  return html`<div class="lang" role="group" aria-label="${t(v.lang, 'lang.label')}">${link('fr', 'FR', 'Français')}${link('en', 'EN', 'English')}</div>`;
}

export function page(v: View, options: { title: string; section: Section; body: HtmlValue; head?: HtmlValue }): SafeHtml {
  const nav = v.account
    ? html`<nav class="sections" aria-label="${t(v.lang, 'nav.label')}">${SECTIONS.map(
        (s) => html`<a href="${v.base}${s.path}"${s.id === options.section ? html` aria-current="page"` : ''}>${t(v.lang, s.label)}</a>`,
      )}</nav>`
    : html`<nav class="sections" aria-label="${t(v.lang, 'nav.label')}"><a href="${v.base}/plans"${options.section === 'plans' ? html` aria-current="page"` : ''}>${t(v.lang, 'nav.plans')}</a></nav>`;
  const session = v.account
    ? html`<form method="post" action="${v.base}/logout" class="logout">${csrfField(v)}<button type="submit" class="link">${t(v.lang, 'nav.logout')}</button></form>`
    : html`<a href="${v.base}/login">${t(v.lang, 'nav.login')}</a>`;
  return html`<!doctype html>
<html lang="${v.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${options.title} · Mboa</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${v.assets.css}">
<script src="${v.assets.js}" defer></script>
${options.head ?? ''}</head>
<body>
<a class="skip" href="#main">${t(v.lang, 'app.skip')}</a>
<header class="top">
<div class="wrap top-row">
<a class="brand" href="${v.base}/"><span class="brand-mark" aria-hidden="true">M</span><span class="brand-name">Mboa</span><span class="brand-tag">${t(v.lang, 'app.tagline')}</span></a>
<div class="tools">${langSwitch(v)}<a href="/docs">${t(v.lang, 'nav.docs')}</a>${session}</div>
</div>
<div class="wrap">${nav}</div>
</header>
<main id="main" class="wrap">
${noticeList(v.notices)}
${options.body}
</main>
<footer class="wrap foot">${t(v.lang, 'footer.text')}</footer>
</body>
</html>`;
}
