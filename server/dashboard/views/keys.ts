/** Keys: allowance, create form, the list with created / last-used dates, revoke and rotate. */
import { PLANS, type PlanName } from '../../../contract/plans.js';
import { TEST_KEYS_PER_ACCOUNT } from '../../accounts/keys.js';
import { type KeyView } from '../../accounts/views.js';
import { formatDayTime } from '../../platform/format.js';
import { type HtmlValue, html, type SafeHtml } from '../../platform/html.js';
import type { Lang } from '../../platform/lang.js';
import { t } from '../i18n.js';
import { suspendedText } from '../labels.js';
import { csrfField, page, type View } from './layout.js';
import { errorSummary, keyReveal } from './parts.js';

export interface KeysPageModel {
  keys: KeyView[];
  plan: PlanName;
  name: string;
  errors?: { name?: string; form?: string };
  /** The kind the create form has selected. */
  kind?: 'live' | 'test';
  /** Extra content for an error (e.g. the keys to revoke). */
  reveal?: { key: string; title: string; extra?: HtmlValue };
}

function status(lang: Lang, k: KeyView, now: Date): SafeHtml {
  if (k.revoked_at)
    return html`<span class="status status-off">${t(lang, 'keys.status.revoked', { date: formatDayTime(lang, new Date(k.revoked_at)) })}</span>`;
  if (k.expires_at && new Date(k.expires_at) <= now) {
    return html`<span class="status status-off">${t(lang, 'keys.status.expired', { date: formatDayTime(lang, new Date(k.expires_at)) })}</span>`;
  }
  if (k.expires_at)
    return html`<span class="status status-warn">${t(lang, 'keys.status.expiring', { date: formatDayTime(lang, new Date(k.expires_at)) })}</span>`;
  return html`<span class="status status-on">${t(lang, 'keys.status.active')}</span>`;
}

function actions(v: View, k: KeyView, back: string): SafeHtml {
  if (!k.active) return html``;
  const { lang } = v;
  // A suspended account may revoke, not rotate (a rotation hands out a new key).
  const rotate =
    k.expires_at || v.account?.status === 'suspended'
      ? ''
      : html`<form method="post" action="${v.base}/keys/${k.id}/rotate" data-confirm="${t(lang, 'keys.rotate.confirm', { prefix: k.prefix })}">${csrfField(v)}<button type="submit" class="btn btn-small">${t(lang, 'keys.rotate')}</button></form>`;
  return html`<div class="actions">${rotate}<form method="post" action="${v.base}/keys/${k.id}/revoke" data-confirm="${t(lang, 'keys.revoke.confirm', { prefix: k.prefix })}">${csrfField(v)}<input type="hidden" name="back" value="${back}"><button type="submit" class="btn btn-small btn-danger">${t(lang, 'keys.revoke')}</button></form></div>`;
}

export function keysTable(v: View, keys: KeyView[], o: { back: '/keys' | '/plans'; now?: Date } = { back: '/keys' }): SafeHtml {
  const now = o.now ?? new Date();
  const { lang } = v;
  if (keys.length === 0) return html`<p class="empty">${t(lang, 'keys.none')}</p>`;
  const ordered = [...keys.filter((k) => k.active), ...keys.filter((k) => !k.active).reverse()];
  const col = {
    name: t(lang, 'keys.col.name'),
    key: t(lang, 'keys.col.key'),
    created: t(lang, 'keys.col.created'),
    used: t(lang, 'keys.col.lastUsed'),
    status: t(lang, 'keys.col.status'),
    actions: t(lang, 'keys.col.actions'),
  };
  return html`<div class="table-wrap"><table class="keys stack-table">
<thead><tr><th scope="col">${col.name}</th><th scope="col">${col.key}</th><th scope="col">${col.created}</th><th scope="col">${col.used}</th><th scope="col">${col.status}</th><th scope="col"><span class="sr">${col.actions}</span></th></tr></thead>
<tbody>${ordered.map(
    (k) => html`<tr class="${k.active ? 'key-active' : 'key-inactive'}" data-key-id="${k.id}" data-prefix="${k.prefix}">
<th scope="row" data-label="${col.name}">${k.name}${k.kind === 'test' ? html` <span class="badge badge-test" data-testid="test-key">${t(lang, 'keys.testBadge')}</span>` : ''}</th>
<td data-label="${col.key}"><code>${k.prefix}…</code></td>
<td data-label="${col.created}">${formatDayTime(lang, new Date(k.created_at))}</td>
<td data-label="${col.used}">${k.last_used_at ? formatDayTime(lang, new Date(k.last_used_at)) : t(lang, 'keys.never')}</td>
<td data-label="${col.status}">${status(lang, k, now)}</td>
<td data-label="${col.actions}" class="cell-actions">${actions(v, k, o.back)}</td>
</tr>`,
  )}</tbody>
</table></div>`;
}

export function keysPage(v: View, m: KeysPageModel): SafeHtml {
  const { lang } = v;
  const plan = PLANS[m.plan];
  const active = m.keys.filter((k) => k.active && k.kind === 'live').length;
  const allowance =
    plan.maxKeys === null
      ? t(lang, 'keys.allowanceUnlimited', { plan: plan.label, active })
      : t(lang, 'keys.allowance', { plan: plan.label, max: plan.maxKeys, active });
  const more =
    plan.maxKeys !== null && PLANS.pro.maxKeys !== null && plan.maxKeys < PLANS.pro.maxKeys
      ? html` <a href="${v.base}/plans">${t(lang, 'keys.more', { max: PLANS.pro.maxKeys })}</a>`
      : '';
  const body = html`<h1>${t(lang, 'keys.title')}</h1>
<p class="lead">${t(lang, 'keys.lead')}</p>
${m.reveal ? keyReveal(lang, { title: m.reveal.title, key: m.reveal.key, origin: v.origin, extra: m.reveal.extra }) : ''}
${errorSummary(lang, m.errors ?? {})}
<p data-testid="allowance">${allowance}${more} ${t(lang, 'keys.testAllowance', { max: TEST_KEYS_PER_ACCOUNT })}</p>
${v.account?.status === 'suspended' ? html`<div class="notice notice-error" role="alert" data-testid="suspended">${suspendedText(lang, v.account)}</div>` : createForm(v, m)}
<section aria-labelledby="list-title">
<h2 id="list-title">${t(lang, 'keys.list.title')}</h2>
${keysTable(v, m.keys)}
<p class="hint">${t(lang, 'keys.rotate.help')}</p>
</section>`;
  return page(v, { title: t(lang, 'keys.title'), section: 'keys', body });
}

function createForm(v: View, m: KeysPageModel): SafeHtml {
  const { lang } = v;
  return html`<section class="card" aria-labelledby="create-title">
<h2 id="create-title">${t(lang, 'keys.create.title')}</h2>
<form method="post" action="${v.base}/keys" class="inline-form" novalidate>
${csrfField(v)}
<div class="field${m.errors?.name ? ' has-error' : ''}">
<label for="name">${t(lang, 'field.keyName')}</label>
<p class="hint" id="name-hint">${t(lang, 'field.keyName.hint')}</p>
<div class="row"><input id="name" name="name" type="text" maxlength="80" required value="${m.name}" aria-describedby="name-hint"${m.errors?.name ? html` aria-invalid="true"` : ''}>
<button type="submit" class="btn btn-primary">${t(lang, 'keys.create.submit')}</button></div>
</div>
<fieldset class="field kinds">
<legend>${t(lang, 'field.keyKind')}</legend>
<label class="choice"><input type="radio" name="kind" value="live"${m.kind === 'test' ? '' : html` checked`}> ${t(lang, 'keys.kind.live')}</label>
<label class="choice"><input type="radio" name="kind" value="test"${m.kind === 'test' ? html` checked` : ''}> ${t(lang, 'keys.kind.test')}</label>
</fieldset>
</form>
</section>`;
}
